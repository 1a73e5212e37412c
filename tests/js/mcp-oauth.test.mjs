// OAuth for a remote MCP server, through the public API, against a real OAuth-protected server
// on 127.0.0.1 (tests/js/support/oauth-server.mjs: the official SDK server behind a bearer gate,
// an authorization server with dynamic registration, PKCE and single-use codes). The sign-in
// answered in-page by waitFor; left pending without it, the flow kept in the tokenStore, and
// finished by mcpResume in a new toolkit over the same store (a page after its redirect); and
// the bad cases: a refused sign-in, a state that does not match, a broken token endpoint, a
// replayed answer. No token, secret or verifier ever appears in a status, an error or a Request.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { createToolkit, isToolnexusError } from "../../pkg/node.mjs"
import { startOAuthServer } from "./support/oauth-server.mjs"

let server
before(async () => {
  server = await startOAuthServer()
})
after(async () => {
  await server.close()
})

const auth = { redirectUrl: "http://localhost:5555/callback", clientName: "oauth test" }

/** A token store over a plain object (what a page would keep in IndexedDB). */
function objectStore() {
  const data = {}
  return { data, get: (k) => data[k], set: async (k, v) => void (data[k] = v), delete: (k) => void delete data[k] }
}

/** What a browser does: follows the authorization URL to the redirect it is sent to. */
async function follow(url) {
  const response = await fetch(url, { redirect: "manual" })
  assert.equal(response.status, 302)
  return response.headers.get("location")
}

function kit(options = {}) {
  return createToolkit({ builtins: false, mcpConfig: { mcpServers: { secure: { url: server.url, auth, timeout: 10_000 } } }, ...options })
}

/** Nothing of the store's secrets (tokens, client secret, verifier) in `text`. */
function noSecrets(text, store) {
  for (const [key, value] of Object.entries(store.data)) {
    const record = JSON.parse(value)
    for (const field of ["access_token", "refresh_token", "client_secret", "verifier"]) {
      if (record[field]) assert.ok(!text.includes(record[field]), `${field} of ${key} leaked into: ${text}`)
    }
  }
}

test("waitFor signs in (the authorization URL followed, the redirect handed back) and the tool works", async () => {
  const seen = []
  const store = objectStore()
  const toolkit = await kit({
    tokenStore: store,
    waitFor: async (request) => {
      seen.push(request)
      return { id: request.id, ok: true, data: { url: await follow(request.url) } }
    },
  })
  try {
    assert.deepEqual(toolkit.mcpStatus(), { secure: "connected" })
    assert.equal(seen.length, 1)
    assert.equal(seen[0].kind, "authorization")
    assert.equal(seen[0].data.server, "secure")
    assert.equal(seen[0].data.issuer, server.base)
    assert.equal(seen[0].data.resource, server.url)
    const authorize = new URL(seen[0].url)
    assert.equal(authorize.searchParams.get("code_challenge_method"), "S256")
    assert.equal(authorize.searchParams.get("resource"), server.url)
    const result = await toolkit.execute("secure_whoami", {})
    assert.match(result.output, /^signed in as client-/)
    noSecrets(JSON.stringify(seen) + JSON.stringify(result), store)
  } finally {
    await toolkit.close()
  }
})

test("without waitFor the server is pending, the flow survives in the store, and a new toolkit over it resumes", async () => {
  const store = objectStore()
  const first = await kit({ tokenStore: store })
  assert.deepEqual(first.mcpStatus(), { secure: "pending" })
  assert.deepEqual(first.mcpErrors(), {})
  assert.deepEqual(first.tools(), [])
  const [request] = first.mcpPending()
  assert.equal(request.kind, "authorization")
  assert.ok(Object.keys(store.data).some((k) => k.startsWith("oauth:flow:")), "the flow is kept in the store")
  noSecrets(JSON.stringify(request), store)
  const location = await follow(request.url)
  await first.close() // the page is gone; the redirect loads a new one

  const second = await kit({ tokenStore: store })
  try {
    assert.deepEqual(second.mcpStatus(), { secure: "pending" })
    const status = await second.mcpResume({ id: request.id, ok: true, data: { url: location } })
    assert.equal(status, "connected")
    assert.deepEqual(second.mcpStatus(), { secure: "connected" })
    assert.deepEqual(second.mcpPending(), [])
    assert.match((await second.execute("secure_whoami", {})).output, /^signed in as client-/)
    // The same redirect again: the state was used once.
    await assert.rejects(second.mcpResume({ id: request.id, ok: true, data: { url: location } }), (e) => isToolnexusError(e) && e.code === "invalid_argument")
  } finally {
    await second.close()
  }
  // A third toolkit over the store connects at once with the kept tokens.
  const third = await kit({ tokenStore: store })
  try {
    assert.deepEqual(third.mcpStatus(), { secure: "connected" })
  } finally {
    await third.close()
  }
})

test("a refused sign-in, a state that does not match and a broken token endpoint fail the server with a reason", async () => {
  const cases = [
    { setup: () => (server.deny = true), tamper: (u) => u, expect: /refused by the authorization server: access_denied/ },
    { setup: () => {}, tamper: (u) => u.replace(/state=[^&]+/, "state=forged"), expect: /state does not match/ },
    { setup: () => (server.tokenFailure = { status: 500, text: "oops" }), tamper: (u) => u, expect: /token endpoint answered HTTP 500/ },
    { setup: () => (server.tokenFailure = { status: 200, text: "<html>" }), tamper: (u) => u, expect: /not a JSON object/ },
  ]
  for (const { setup, tamper, expect } of cases) {
    server.deny = false
    server.tokenFailure = undefined
    setup()
    const store = objectStore()
    const toolkit = await kit({ tokenStore: store })
    try {
      const [request] = toolkit.mcpPending()
      const location = tamper(await follow(request.url))
      assert.equal(await toolkit.mcpResume({ id: request.id, ok: true, data: { url: location } }), "failed")
      const why = toolkit.mcpErrors().secure
      assert.match(why, expect)
      noSecrets(why, store)
    } finally {
      await toolkit.close()
    }
  }
  server.deny = false
  server.tokenFailure = undefined
})

test("with waitFor, a declined sign-in fails the server; bad options and answers are refused", async () => {
  const toolkit = await kit({ tokenStore: objectStore(), waitFor: async (request) => ({ id: request.id, ok: false, reason: "declined" }) })
  try {
    assert.deepEqual(toolkit.mcpStatus(), { secure: "failed" })
    assert.match(toolkit.mcpErrors().secure, /sign-in was not done \(declined\)/)
    await assert.rejects(toolkit.mcpResume("nope"), (e) => isToolnexusError(e) && e.code === "invalid_argument")
  } finally {
    await toolkit.close()
  }
  await assert.rejects(kit({ tokenStore: { get() {} } }), (e) => isToolnexusError(e) && e.code === "invalid_options" && /tokenStore/.test(e.message))
})

test("the lean build has no MCP client: nothing is pending and mcpResume is unsupported", async () => {
  const lean = await import("../../pkg/core/node.mjs")
  const toolkit = await lean.createToolkit({ builtins: false })
  assert.deepEqual(toolkit.mcpPending(), [])
  await assert.rejects(toolkit.mcpResume({ id: "x", ok: true }), (e) => lean.isToolnexusError(e) && e.code === "unsupported")
})
