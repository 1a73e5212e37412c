// This package's MCP OAuth against the real peer (support/oauth-peer.mjs: oidc-provider in front
// of the official SDK's server), in Node, with the person's sign-in done over HTTP
// (signInOverHttp fills the authorization server's own login and consent pages):
//   waitFor    createToolkit signs in and goes on: dynamic registration, PKCE, the resource
//              parameter; the token is audience-bound (introspected by the server), and a
//              FileTokenStore keeps it, so another process connects without signing in.
//   pending    without waitFor the server is "pending" with its authorization Request; a new
//              toolkit over the same store (the page the redirect reloads) resumes it with the
//              redirect's URL; the same URL again is refused and its code never sent twice.
//   refused    a denied consent, a tampered state, a declined answer: clear errors, no token
//              exchange, no secret in any message, and the toolkit's other tools keep working.
//   revoked    the grant withdrawn at the authorization server mid-session: the next tool call
//              halts the run with kind "authorization"; runWithAnswer signs in again and the
//              call goes through; across a reload, the new toolkit's mcpResume with that
//              redirect connects it and runWithAnswer then finishes the call.
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { createInProcessClient, createToolkit, defineTool, FileTokenStore } from "toolnexus-wasm"
import { signInOverHttp, startOAuthPeer } from "./support/oauth-peer.mjs"

const REDIRECT = "http://127.0.0.1:9/oauth/callback"
const dir = mkdtempSync(join(tmpdir(), "toolnexus-oauth-"))
after(() => rmSync(dir, { recursive: true, force: true }))

const config = (url) => ({ mcpServers: { notes: { url, timeout: 15_000, auth: { redirectUrl: REDIRECT, clientName: "toolnexus node test" } } } })
const count = (peer, event) => peer.as.events.filter((e) => e.event === event).length
const local = defineTool({ name: "local_ping", description: "A tool of the page's own", run: () => "pong" })

/** Every secret in a FileTokenStore's file: string leaves under a key naming a token, verifier or secret. */
function secretsIn(path) {
  const secrets = []
  const walk = (value, key = "") => {
    if (typeof value === "string" && /token|verifier|secret/i.test(key) && value.length >= 8) secrets.push(value)
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k)
  }
  for (const text of Object.values(JSON.parse(readFileSync(path, "utf8")))) walk(JSON.parse(text))
  return secrets
}

describe("MCP OAuth against oidc-provider and the SDK server", () => {
  let peer
  before(async () => {
    peer = await startOAuthPeer()
  })
  after(() => peer?.close())

  test("waitFor: createToolkit signs in, lists and calls the tools; another process reuses the stored token", async () => {
    const path = join(dir, "waitfor.json")
    const asked = []
    const waitFor = async (request) => {
      asked.push(request)
      return { id: request.id, ok: true, data: { url: await signInOverHttp(request.url, { stopAt: REDIRECT }) } }
    }
    const toolkit = await createToolkit({ builtins: false, mcpConfig: config(peer.mcpUrl), tokenStore: new FileTokenStore(path), waitFor })
    try {
      assert.deepEqual(toolkit.mcpStatus(), { notes: "connected" }, JSON.stringify(toolkit.mcpErrors()))
      assert.equal(asked.length, 1)
      const [request] = asked
      assert.equal(request.kind, "authorization")
      const url = new URL(request.url)
      assert.equal(url.origin, peer.issuer)
      assert.equal(url.searchParams.get("resource"), peer.mcpUrl)
      assert.equal(url.searchParams.get("code_challenge_method"), "S256")
      assert.equal(url.searchParams.get("redirect_uri"), REDIRECT)
      assert.deepEqual({ ...request.data, state: undefined }, { server: "notes", issuer: peer.issuer, resource: peer.mcpUrl, state: undefined })
      assert.equal(request.data.state, url.searchParams.get("state"))
      assert.deepEqual(toolkit.tools().map((t) => t.name), ["notes_whoami", "notes_add"])
      const who = await toolkit.execute("notes_whoami", {})
      assert.match(who.output, /^signed in as ada \(client [\w-]+\)$/)
      assert.deepEqual(await toolkit.execute("notes_add", { a: 40, b: 2 }), { output: "42", isError: false, metadata: { server: "notes" } })
      assert.ok(peer.mcp.seen.some((s) => s.verdict === "active" && s.sub === "ada"), "the server introspected an audience-bound token")
      assert.equal(count(peer, "registered"), 1)
      const secrets = secretsIn(path)
      assert.ok(secrets.length >= 1)
      for (const secret of secrets) assert.ok(!JSON.stringify(request).includes(secret))
    } finally {
      await toolkit.close()
    }

    const [logins, tokens] = [count(peer, "login"), count(peer, "token")]
    const script = `import { createToolkit, FileTokenStore } from "toolnexus-wasm"
      const toolkit = await createToolkit({ builtins: false, mcpConfig: ${JSON.stringify(config(peer.mcpUrl))}, tokenStore: new FileTokenStore(${JSON.stringify(path)}) })
      const who = await toolkit.execute("notes_whoami", {})
      console.log(JSON.stringify({ status: toolkit.mcpStatus(), who: who.output }))
      await toolkit.close()`
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script])
    const child = JSON.parse(stdout.trim().split("\n").at(-1))
    assert.deepEqual(child.status, { notes: "connected" })
    assert.match(child.who, /^signed in as ada/)
    assert.deepEqual([count(peer, "login"), count(peer, "token")], [logins, tokens], "no sign-in, no token request")
  })

  test("without waitFor: pending with its Request; a new toolkit over the store resumes it; the same redirect again is refused", async () => {
    const path = join(dir, "pending.json")
    const open = () => createToolkit({ builtins: false, extraTools: [local], mcpConfig: config(peer.mcpUrl), tokenStore: new FileTokenStore(path) })
    const first = await open()
    const second = await open()
    try {
      assert.deepEqual(first.mcpStatus(), { notes: "pending" })
      assert.deepEqual(first.tools().map((t) => t.name), ["local_ping"], "the other tools are there")
      const [request] = first.mcpPending()
      assert.equal(request.kind, "authorization")
      assert.equal(request.prompt, "Sign in to notes to use its tools")
      const back = await signInOverHttp(request.url, { stopAt: REDIRECT })
      // The page that started the sign-in is gone (a redirect reloads it): a new toolkit over
      // the same store takes the answer to the earlier Request.
      assert.deepEqual(second.mcpStatus(), { notes: "pending" })
      assert.equal(await second.mcpResume({ id: request.id, ok: true, data: { url: back } }), "connected")
      assert.match((await second.execute("notes_whoami", {})).output, /^signed in as ada/)
      const tokens = count(peer, "token")
      const replay = await first.mcpResume({ id: request.id, ok: true, data: { url: back } })
      assert.equal(replay, "failed")
      assert.match(first.mcpErrors().notes, /^authorization failed: /)
      assert.equal(count(peer, "token"), tokens, "the code was not sent twice")
      const again = await second.mcpResume({ id: request.id, ok: true, data: { url: back } }).catch((error) => error)
      assert.equal(again.code, "invalid_argument")
      for (const secret of secretsIn(path)) for (const text of [first.mcpErrors().notes, again.message, JSON.stringify(request)]) assert.ok(!text.includes(secret))
    } finally {
      await first.close()
      await second.close()
    }
  })

  /** A connected toolkit (signed in through waitFor) whose grant is then revoked; a scripted model that calls notes_whoami once. */
  async function revokedMidSession(path) {
    const signIn = async (request) => ({ id: request.id, ok: true, data: { url: await signInOverHttp(request.url, { stopAt: REDIRECT }) } })
    await (await createToolkit({ builtins: false, mcpConfig: config(peer.mcpUrl), tokenStore: new FileTokenStore(path), waitFor: signIn })).close()
    const toolkit = await createToolkit({ builtins: false, mcpConfig: config(peer.mcpUrl), tokenStore: new FileTokenStore(path) })
    assert.deepEqual(toolkit.mcpStatus(), { notes: "connected" }, "the stored token connects")
    await peer.as.revokeAll()
    const events = []
    const client = createInProcessClient({
      model: "scripted",
      onMetric: (event) => events.push(event),
      generate: async ({ messages }) => (messages.at(-1).role === "tool" ? { content: `ANSWER: ${messages.at(-1).content}` } : { toolCalls: [{ id: "c1", name: "notes_whoami", arguments: {} }] }),
    })
    const halted = await client.run("Who am I?", { toolkit })
    return { toolkit, client, halted, events }
  }

  test("a grant revoked mid-session: the tool call halts the run (kind authorization); runWithAnswer signs in again", async () => {
    const path = join(dir, "revoked.json")
    const { toolkit, client, halted, events } = await revokedMidSession(path)
    try {
      assert.equal(halted.status, "pending")
      assert.equal(halted.pending.kind, "authorization")
      assert.equal(halted.pending.prompt, "Sign in to notes to use its tools")
      assert.equal(new URL(halted.pending.url).origin, peer.issuer)
      // The halted run is plain JSON (it could be kept anywhere) and holds no stored secret.
      const kept = JSON.parse(JSON.stringify(halted))
      for (const secret of secretsIn(path)) assert.ok(!JSON.stringify(kept).includes(secret))
      const url = await signInOverHttp(kept.pending.url, { stopAt: REDIRECT })
      const done = await client.runWithAnswer({ toolkit, history: kept.messages, pending: kept.pending, answer: { id: kept.pending.id, ok: true, data: { url } } })
      assert.equal(done.status, "done")
      assert.match(done.text, /^ANSWER: signed in as ada \(client [\w-]+\)$/)
      // No stored token, verifier or secret in the metrics (events and Prometheus text) or the transcript.
      const seen = JSON.stringify([events, client.metrics(), done])
      assert.ok(events.some((e) => e.event === "tool"), "the tool calls were measured")
      for (const secret of secretsIn(path)) assert.ok(!seen.includes(secret), "a stored secret in metrics or transcript")
    } finally {
      await toolkit.close()
    }
  })

  test("the same, resumed after a reload: mcpResume on the new toolkit, then runWithAnswer", async () => {
    const path = join(dir, "revoked-reload.json")
    const { toolkit, client, halted } = await revokedMidSession(path)
    await toolkit.close()
    const kept = JSON.parse(JSON.stringify(halted))
    const fresh = await createToolkit({ builtins: false, mcpConfig: config(peer.mcpUrl), tokenStore: new FileTokenStore(path) })
    try {
      // The fresh load is pending on a sign-in of its own; the halted run's redirect finishes
      // the server's sign-in (its flow found in the store by the redirect's state).
      assert.equal(fresh.mcpStatus().notes, "pending")
      const url = await signInOverHttp(kept.pending.url, { stopAt: REDIRECT })
      const answer = { id: kept.pending.id, ok: true, data: { url } }
      const tokens = count(peer, "token")
      assert.equal(await fresh.mcpResume(answer), "connected")
      // The retried call goes on with the token mcpResume got: no second code exchange.
      const done = await client.runWithAnswer({ toolkit: fresh, history: kept.messages, pending: kept.pending, answer })
      assert.equal(done.status, "done")
      assert.match(done.text, /^ANSWER: signed in as ada/)
      assert.equal(count(peer, "token"), tokens + 1)
    } finally {
      await fresh.close()
    }
  })

  test("a denied consent, a tampered state and a declined answer end clearly; no code is exchanged", async () => {
    const outcomes = {}
    for (const [name, answerOf] of [
      ["denied", async (request) => ({ id: request.id, ok: true, data: { url: await signInOverHttp(request.url, { stopAt: REDIRECT, consent: "deny" }) } })],
      [
        "tampered",
        async (request) => {
          const back = new URL(await signInOverHttp(request.url, { stopAt: REDIRECT }))
          back.searchParams.set("state", `${back.searchParams.get("state")}x`)
          return { id: request.id, ok: true, data: { url: back.href } }
        },
      ],
      ["declined", async (request) => ({ id: request.id, ok: false, reason: "declined" })],
    ]) {
      const tokens = count(peer, "token")
      const path = join(dir, `${name}.json`)
      const toolkit = await createToolkit({ builtins: false, extraTools: [local], mcpConfig: config(peer.mcpUrl), tokenStore: new FileTokenStore(path), waitFor: answerOf }).then(
        (t) => t,
        (error) => ({ error }),
      )
      if (toolkit.error) {
        outcomes[name] = { code: toolkit.error.code, message: toolkit.error.message }
      } else {
        outcomes[name] = { status: toolkit.mcpStatus().notes, reason: toolkit.mcpErrors().notes, ping: (await toolkit.execute("local_ping", {})).output }
        await toolkit.close()
      }
      assert.equal(count(peer, "token"), tokens, `${name}: no code exchanged`)
    }
    assert.equal(outcomes.denied.status, "failed", JSON.stringify(outcomes.denied))
    assert.equal(outcomes.denied.reason, "authorization failed: the sign-in was refused by the authorization server: access_denied (The user denied access)")
    assert.equal(outcomes.tampered.status, "failed", JSON.stringify(outcomes.tampered))
    assert.equal(outcomes.tampered.reason, "authorization failed: the redirect's state does not match the sign-in that was started; refusing it")
    assert.equal(outcomes.declined.status, "failed", JSON.stringify(outcomes.declined))
    assert.equal(outcomes.declined.reason, "authorization failed: the sign-in was not done (declined)")
    for (const name of ["denied", "tampered", "declined"]) assert.equal(outcomes[name].ping, "pong", `${name}: the other tools keep working`)
  })
})
