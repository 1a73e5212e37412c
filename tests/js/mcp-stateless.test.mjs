// MCP 2026-07-28, the stateless protocol, against the official TypeScript SDK 2.x server
// (`createMcpHandler`) on 127.0.0.1: the server/discover probe and no handshake, the per-request
// `_meta` and the Mcp-Method / Mcp-Name headers, the fallback to 2025-11-25 sessions with the
// 1.x SDK server, multi-round-trip input (MRTR) answered in-page through the toolkit's `waitFor`
// (a form with its schema's defaults, a URL, two inputs in one round) or halting a run durably
// (the opaque requestState kept byte for byte) and finished by runWithAnswer in a fresh client,
// an input of an unknown kind and a requestState the server refuses as readable errors,
// tools/list kept for the server's ttlMs, and subscriptions/listen bringing a tool the server
// added into toolkit.tools() (closed by close(); a refused subscription harmless).
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit } from "../../pkg/node.mjs"
import { startMcp2Server } from "./support/mcp2-server.mjs"
import { startMcpServer } from "./support/mcp-server.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { assertPlainJson, clearKeyEnv, eventually } from "./support/helpers.mjs"

clearKeyEnv()
let server, legacy, stub
before(async () => {
  server = await startMcp2Server()
  legacy = await startMcpServer()
  stub = await startOpenAIStub()
})
after(async () => {
  await server.close()
  await legacy.close()
  await stub.close()
})

/** A client of the scripted model server (the test scripts each answer). */
const model = () => createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", retries: 0 })
const kit = (url, options = {}) => createToolkit({ builtins: false, mcpConfig: { mcpServers: { s: { url, timeout: 10_000 } } }, ...options })
const since = (n) => server.requests.slice(n).filter((r) => r.method === "POST")
const calls = (requests, name) => requests.filter((r) => r.body?.method === "tools/call" && r.body.params?.name === name)
const META = "io.modelcontextprotocol/protocolVersion"

test("a 2026-07-28 server: server/discover, no initialize, _meta and the mirroring headers on every request", async () => {
  for (const route of ["/mcp", "/strict"]) {
    const start = server.requests.length
    const toolkit = await kit(server.url(route))
    assert.deepEqual(toolkit.mcpStatus(), { s: "connected" })
    assert.deepEqual(
      toolkit.tools().map((t) => t.name),
      ["s_echo", "s_deploy", "s_sign_in", "s_two_questions", "s_frobnicate"],
    )
    assert.deepEqual(await toolkit.execute("s_echo", { text: "hi" }), { output: "echo: hi", isError: false, metadata: { server: "s" } })
    await toolkit.close()
    const all = since(start)
    // The SDK server says it sends tools/list_changed: the client subscribes (its own test below).
    assert.equal(all.filter((r) => r.body.method === "subscriptions/listen").length, 1)
    const mine = all.filter((r) => r.body.method !== "subscriptions/listen")
    assert.deepEqual(
      mine.map((r) => r.body.method),
      ["server/discover", "tools/list", "tools/call"],
    )
    for (const r of mine) {
      assert.equal(r.headers["mcp-protocol-version"], "2026-07-28")
      assert.equal(r.headers["mcp-method"], r.body.method)
      assert.equal(r.headers["mcp-session-id"], undefined)
      assert.equal(r.body.params._meta[META], "2026-07-28")
      assert.deepEqual(r.body.params._meta["io.modelcontextprotocol/clientInfo"].name, "toolnexus-wasm")
      assert.deepEqual(r.body.params._meta["io.modelcontextprotocol/clientCapabilities"], { elicitation: { form: {}, url: {} } })
    }
    assert.equal(mine[2].headers["mcp-name"], "echo")
    assert.equal(server.requests.slice(start).filter((r) => r.method !== "POST").length, 0, "no GET stream, no DELETE")
  }
})

test("a 2025-11-25 server (the 1.x SDK): the probe is turned down and a session follows, with its headers", async () => {
  const start = legacy.requests.length
  const toolkit = await kit(legacy.url("/mcp"))
  assert.deepEqual(toolkit.mcpStatus(), { s: "connected" })
  assert.equal((await toolkit.execute("s_echo", { text: "x" })).output, "echo: x")
  await toolkit.close()
  const mine = legacy.requests.slice(start)
  assert.deepEqual(mine.map((r) => r.body?.method ?? r.method), [
    "server/discover",
    "initialize",
    "notifications/initialized",
    "GET",
    "tools/list",
    "tools/call",
    "DELETE",
  ])
  assert.equal(mine[1].headers["mcp-method"], undefined, "no 2026-07-28 headers once in a session")
  assert.equal(mine[4].headers["mcp-protocol-version"], "2025-11-25")
  assert.ok(mine[4].headers["mcp-session-id"])
})

test("MRTR in-page: a form input through waitFor, the schema's defaults filled, requestState echoed byte for byte", async () => {
  const asked = []
  const toolkit = await kit(server.url("/mcp"), {
    waitFor: async (request) => {
      asked.push(request)
      return { id: request.id, ok: true, data: { confirm: true } }
    },
  })
  const start = server.requests.length
  const r = await toolkit.execute("s_deploy", { env: "prod" })
  assert.deepEqual(r, { output: "deployed prod by nobody", isError: false, metadata: { server: "s" } })
  assert.equal(asked.length, 1)
  assert.equal(asked[0].kind, "input")
  assert.equal(asked[0].prompt, "Deploy to prod?")
  assert.deepEqual(asked[0].data.schema.properties.confirm, { type: "boolean" })
  assert.equal(asked[0].data.server, "s")
  const [first, retry] = calls(since(start), "deploy")
  assert.notEqual(retry.body.id, first.body.id)
  assert.equal(first.body.params.requestState, undefined)
  assert.equal(typeof asked[0].data.requestState, "string")
  assert.equal(retry.body.params.requestState, asked[0].data.requestState)
  assert.deepEqual(retry.body.params.inputResponses, { confirm: { action: "accept", content: { confirm: true, who: "nobody" } } })
  await toolkit.close()
})

test("MRTR in-page: a URL input is an authorization request; two inputs in one round are both asked", async () => {
  const asked = []
  const answers = { "Which color?": "red", "Which size?": "large" }
  const toolkit = await kit(server.url("/mcp"), {
    waitFor: async (request) => {
      asked.push(request)
      return { id: request.id, ok: true, data: request.kind === "input" ? { value: answers[request.prompt] } : {} }
    },
  })
  assert.equal((await toolkit.execute("s_sign_in", {})).output, "signed in")
  assert.deepEqual([asked[0].kind, asked[0].url, asked[0].prompt], ["authorization", "https://example.test/login", "Sign in to continue"])
  assert.equal((await toolkit.execute("s_two_questions", {})).output, "red large")
  assert.deepEqual(asked.slice(1).map((r) => r.prompt), ["Which color?", "Which size?"])
  await toolkit.close()
})

test("MRTR bad input: an entry of an unknown kind and a refused requestState end as readable errors", async () => {
  const toolkit = await kit(server.url("/mcp"), { waitFor: async (request) => ({ id: request.id, ok: true, data: { confirm: true } }) })
  const unknown = await toolkit.execute("s_frobnicate", {})
  assert.equal(unknown.isError, true)
  assert.match(unknown.output, /asked for input this client cannot give \("thing": frobnicate\/now\)/)
  await toolkit.close()

  // Without waitFor the run halts; its request, edited, is answered: the server refuses the state.
  stub.script(openai.toolCalls([{ id: "c1", name: "s_deploy", args: { env: "prod" } }]))
  const plain = await kit(server.url("/mcp"))
  const client = model()
  const halted = await client.run("deploy", { toolkit: plain })
  assert.equal(halted.status, "pending")
  const state = halted.pending.data.requestState
  // Not the last character: its low bits may be base64url padding, which decodes the same.
  const at = state.length - 10
  const flipped = state.slice(0, at) + (state[at] === "A" ? "B" : "A") + state.slice(at + 1)
  const tampered = { ...halted.pending, data: { ...halted.pending.data, requestState: flipped } }
  stub.script(openai.text("gave up"))
  const r = await client.runWithAnswer({
    toolkit: plain,
    history: halted.messages,
    pending: tampered,
    answer: { id: tampered.id, ok: true, data: { confirm: true } },
  })
  assert.equal(r.status, "done")
  const fed = stub.requests.at(-1).body.messages.filter((m) => m.role === "tool").at(-1)
  assert.match(fed.content, /MCP error -32602/)
  await plain.close()
})

test("MRTR durable: a run halts on the input, the pending JSON keeps requestState, runWithAnswer in a fresh client finishes the call", async () => {
  stub.script(openai.toolCalls([{ id: "c1", name: "s_deploy", args: { env: "staging" } }]))
  const toolkit = await kit(server.url("/mcp"))
  const halted = await model().run("Deploy staging", { toolkit })
  assert.equal(halted.status, "pending")
  assert.equal(halted.pending.kind, "input")
  assert.equal(halted.pending.prompt, "Deploy to staging?")
  assertPlainJson(halted)
  const stored = JSON.stringify(halted)
  await toolkit.close()

  const start = server.requests.length
  const back = JSON.parse(stored)
  const sent = calls(server.requests, "deploy").at(-1)
  assert.equal(back.pending.data.requestState.length > 10, true)
  stub.script(openai.text("Deployed."))
  const fresh = await kit(server.url("/mcp"))
  const r = await model().runWithAnswer({
    toolkit: fresh,
    history: back.messages,
    pending: back.pending,
    answer: { id: back.pending.id, ok: true, data: { confirm: true, who: "ops" } },
  })
  assert.equal(r.status, "done")
  assert.equal(r.text, "Deployed.")
  const retry = calls(since(start), "deploy")
  assert.equal(retry.length, 1)
  assert.notEqual(retry[0].body.id, sent.body.id)
  assert.equal(retry[0].body.params.requestState, back.pending.data.requestState, "requestState byte for byte")
  const fed = stub.requests.at(-1).body.messages.filter((m) => m.role === "tool").at(-1)
  assert.equal(fed.content, "deployed staging by ops")
  await fresh.close()
})

test("MRTR durable, a round of two forms: one input Request carries both, runWithAnswer answers both at once", async () => {
  stub.script(openai.toolCalls([{ id: "c1", name: "s_two_questions", args: {} }]))
  const toolkit = await kit(server.url("/mcp"))
  const halted = await model().run("Pick", { toolkit })
  assert.equal(halted.status, "pending")
  assert.equal(halted.pending.kind, "input")
  assert.equal(halted.pending.prompt, "Which color?\nWhich size?")
  assert.deepEqual(Object.keys(halted.pending.data.inputs), ["color", "size"])
  assert.equal(halted.pending.data.inputs.size.prompt, "Which size?")
  assert.equal(halted.pending.data.inputs.color.schema.properties.value.type, "string")
  const back = JSON.parse(JSON.stringify(halted))
  await toolkit.close()

  const start = server.requests.length
  stub.script(openai.text("Picked."))
  const fresh = await kit(server.url("/mcp"))
  const r = await model().runWithAnswer({
    toolkit: fresh,
    history: back.messages,
    pending: back.pending,
    answer: { id: back.pending.id, ok: true, data: { color: { value: "blue" }, size: { value: "small" } } },
  })
  assert.equal(r.status, "done")
  const retry = calls(since(start), "two_questions")
  assert.equal(retry.length, 1, "one retry answers the whole round")
  assert.deepEqual(retry[0].body.params.inputResponses, {
    color: { action: "accept", content: { value: "blue" } },
    size: { action: "accept", content: { value: "small" } },
  })
  const fed = stub.requests.at(-1).body.messages.filter((m) => m.role === "tool").at(-1)
  assert.equal(fed.content, "blue small")
  await fresh.close()
})

test("tools/list is kept for the server's ttlMs (per server), and listed again when it has none", async () => {
  const lists = (route) => server.requests.filter((r) => r.path === route && r.body?.method === "tools/list").length
  for (const [route, expected] of [["/cached", 1], ["/mcp", 2]]) {
    const before = lists(route)
    for (let i = 0; i < 2; i++) {
      const toolkit = await kit(server.url(route))
      assert.equal(toolkit.tools().length, 5)
      await toolkit.close()
    }
    assert.equal(lists(route) - before, expected, route)
  }
})

test("subscriptions/listen: a tool the server adds appears in tools() (the ttlMs cache dropped), and close() ends the stream", async () => {
  const start = server.requests.length
  const toolkit = await kit(server.url("/changing"))
  const listens = server.requests.slice(start).filter((r) => r.body?.method === "subscriptions/listen")
  assert.equal(listens.length, 1)
  const [listen] = listens
  assert.equal(listen.method, "POST")
  assert.deepEqual(listen.body.params.notifications, { toolsListChanged: true })
  assert.equal(listen.body.params._meta[META], "2026-07-28")
  assert.equal(listen.headers["mcp-method"], "subscriptions/listen")
  assert.equal(toolkit.tools().some((t) => t.name === "s_added"), false)
  server.addTool("added")
  await eventually(() => toolkit.tools().some((t) => t.name === "s_added"), "s_added listed")
  const lists = server.requests.slice(start).filter((r) => r.body?.method === "tools/list")
  assert.equal(lists.length, 2, "listed again: the change dropped the list kept for its ttlMs")
  assert.deepEqual(await toolkit.execute("s_added", {}), { output: "added ok", isError: false, metadata: { server: "s" } })
  assert.equal(listen.closed, false, "open while the toolkit is")
  await toolkit.close()
  await eventually(() => listen.closed, "the subscription's connection closed")
  assert.equal(server.requests.slice(start).filter((r) => r.body?.method === "subscriptions/listen").length, 1, "not sent again")
})

test("subscriptions/listen refused by the server: the toolkit loads and works as before", async () => {
  const start = server.requests.length
  const toolkit = await kit(server.url("/nolisten"))
  assert.deepEqual(toolkit.mcpStatus(), { s: "connected" })
  assert.equal(toolkit.tools().length, 5)
  assert.deepEqual(await toolkit.execute("s_echo", { text: "still" }), { output: "echo: still", isError: false, metadata: { server: "s" } })
  await toolkit.close()
  assert.equal(server.requests.slice(start).filter((r) => r.body?.method === "subscriptions/listen").length, 1, "asked once")
})
