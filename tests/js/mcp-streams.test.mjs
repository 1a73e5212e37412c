// MCP 2025-11-25 streams against the official SDK server (stateful, resumable: an event store
// and a retry interval): the standalone GET stream opened after initialize and closed by
// close(); elicitations sent on it answered through waitFor with the schema's defaults
// (SEP-1034) and the SEP-1330 enum shapes accepted by the server's own validation;
// tools/list_changed refreshing toolkit.tools(); progress extending a call's timeout; a call
// whose event stream the server closes resumed with GET and Last-Event-ID.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { createToolkit, loadMcp } from "../../pkg/node.mjs"
import { ENUMS_SCHEMA, startStreamServer } from "./support/mcp-stream-server.mjs"
import { eventually } from "./support/helpers.mjs"

let server
before(async () => {
  server = await startStreamServer()
})
after(async () => {
  await server.close()
})

const accept = (request) => ({ id: request.id, ok: true, data: {} })

async function kit(options = {}) {
  return createToolkit({ builtins: false, mcpConfig: { mcpServers: { s: { url: server.url, ...options.server } } }, waitFor: options.waitFor ?? accept })
}

test("the standalone GET stream opens after initialize and close() ends it", async () => {
  const before = server.gets.length
  const toolkit = await kit()
  const gets = server.gets.slice(before)
  assert.equal(gets.length, 1)
  assert.equal(gets[0].headers.accept, "text/event-stream")
  assert.ok(gets[0].headers["mcp-session-id"], "on the session")
  assert.equal(gets[0].headers["mcp-protocol-version"], "2025-11-25")
  assert.equal(gets[0].closed, false, "kept open while the toolkit lives")
  await toolkit.close()
  await eventually(() => gets[0].closed, "the GET connection closed")
})

test("an elicitation on the standalone stream reaches waitFor and is answered with the schema's defaults (SEP-1034)", async () => {
  const seen = []
  const toolkit = await kit({ waitFor: (request) => (seen.push(request), { id: request.id, ok: true, data: { name: "Ada" } }) })
  const result = await toolkit.execute("s_ask_defaults", {})
  assert.equal(result.isError, false, result.output)
  assert.deepEqual(JSON.parse(result.output), {
    action: "accept",
    content: { name: "Ada", age: 30, score: 95.5, status: "active", verified: true },
  })
  assert.equal(seen.length, 1)
  assert.equal(seen[0].kind, "input")
  assert.equal(seen[0].data.schema.properties.age.default, 30)
  await toolkit.close()
})

test("every SEP-1330 enum shape reaches the host as given and the server's validation accepts the answers", async () => {
  let schema
  const toolkit = await kit({
    waitFor: (request) => {
      schema = request.data.schema
      return { id: request.id, ok: true, data: { plain: "b", multi: ["m2"] } }
    },
  })
  const result = await toolkit.execute("s_ask_enums", {})
  assert.equal(result.isError, false, result.output)
  assert.deepEqual(schema, ENUMS_SCHEMA)
  assert.deepEqual(JSON.parse(result.output), {
    action: "accept",
    content: { plain: "b", multi: ["m2"], legacy: "y", titled: "g", multiTitled: ["t2"] },
  })
  await toolkit.close()
})

test("a value outside an enum is refused by the server, and the toolkit reads its error", async () => {
  const toolkit = await kit({ waitFor: (request) => ({ id: request.id, ok: true, data: { plain: "nope" } }) })
  const result = await toolkit.execute("s_ask_enums", {})
  assert.equal(result.isError, true)
  assert.match(result.output, /does not match requested schema/)
  assert.deepEqual(await toolkit.execute("s_grow", {}).then((r) => r.isError), false, "the session still works")
  await toolkit.close()
})

test("tools/list_changed on the standalone stream refreshes toolkit.tools()", async () => {
  const toolkit = await kit()
  assert.deepEqual(toolkit.tools().map((t) => t.name).includes("s_grown"), false)
  assert.equal((await toolkit.execute("s_grow", {})).output, "grew")
  await eventually(() => toolkit.tools().some((t) => t.name === "s_grown"), "s_grown listed")
  assert.deepEqual(await toolkit.execute("s_grown", {}), { output: "grown ok", isError: false, metadata: { server: "s" } })
  assert.ok(toolkit.get("s_grown"), "get() finds it")
  assert.ok(toolkit.toOpenAI().some((t) => t.function.name === "s_grown"), "the provider list is rebuilt")
  await toolkit.close()
})

test("progress notifications extend a call past its timeout", async () => {
  const toolkit = await kit({ server: { timeout: 1000 } })
  const call = server.requests.length
  const result = await toolkit.execute("s_progress", { ms: 2500 })
  assert.deepEqual([result.output, result.isError], ["progressed with a token", false])
  const sent = server.requests.slice(call).find((r) => r.body?.method === "tools/call")
  assert.equal(typeof sent.body.params._meta.progressToken, "number")
  await toolkit.close()
})

test("a call whose event stream the server closes is resumed with Last-Event-ID after retry", async () => {
  const toolkit = await kit()
  const before = server.gets.length
  const result = await toolkit.execute("s_interrupted", {})
  assert.deepEqual([result.output, result.isError], ["answered after the stream closed", false])
  const resumed = server.gets.slice(before).filter((g) => g.headers["last-event-id"])
  assert.equal(resumed.length, 1)
  await toolkit.close()
})

test("loadMcp keeps the stream too, and close() ends it", async () => {
  const before = server.gets.length
  const mcp = await loadMcp({ mcpServers: { s: { url: server.url } } })
  assert.equal(server.gets.length, before + 1)
  await mcp.close()
  await eventually(() => server.gets[before].closed, "the GET connection closed")
})
