// The reference port's MCP helpers: loadMcp (a source of tools without a toolkit),
// expandEnvHeaders, and the elicitation bridge's two mappings (elicitationToRequest,
// answerToElicitResult).
import { test } from "node:test"
import assert from "node:assert/strict"
import { fileURLToPath } from "node:url"
import { loadMcp, expandEnvHeaders, elicitationToRequest, answerToElicitResult, createToolkit, Tool } from "../../pkg/node.mjs"
import { assertCode, rejection, thrown } from "./support/helpers.mjs"

const script = fileURLToPath(new URL("./support/mcp-stdio-server.mjs", import.meta.url))

test("loadMcp: the servers' tools as Tools, their status, and close()", async () => {
  const realWarn = console.warn
  const warnings = []
  console.warn = (...args) => warnings.push(args.join(" "))
  let mcp
  try {
    mcp = await loadMcp({
      mcpServers: {
        local: { command: [process.execPath, script], tools: { greet: true } },
        broken: { command: [process.execPath, script, "--fail"] },
        off: { url: "http://127.0.0.1:9/mcp", enabled: false },
      },
    })
  } finally {
    console.warn = realWarn
  }
  try {
    assert.deepEqual(mcp.status, { local: "connected", broken: "failed", off: "disabled" })
    assert.deepEqual(Object.keys(mcp.errors), ["broken"])
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /^\[toolnexus\] MCP server "broken" failed: /)
    assert.deepEqual(mcp.tools.map((t) => t.name), ["local_greet"])
    assert.ok(mcp.tools[0] instanceof Tool)
    assert.equal(mcp.tools[0].source, "mcp")
    assert.deepEqual(await mcp.tools[0].execute({ name: "Ada" }), { output: "Hello, Ada!", isError: false, metadata: { server: "local" } })
    // The tools can join a toolkit as extra tools.
    const toolkit = await createToolkit({ builtins: false, extraTools: mcp.tools })
    assert.equal((await toolkit.execute("local_greet", { name: "Bo" })).output, "Hello, Bo!")
  } finally {
    await mcp.close()
  }
  const after = await mcp.tools[0].execute({ name: "Ada" })
  assert.equal(after.isError, true, "closed: the session is gone")
})

test("loadMcp: an unusable config or option rejects with a code", async () => {
  assertCode(await rejection(loadMcp(5)), "invalid_config")
  assertCode(await rejection(loadMcp({ mcpServers: {} }, { waitFor: "yes" })), "invalid_options")
  assertCode(await rejection(loadMcp({ mcpServers: {} }, { signal: "soon" })), "invalid_options")
  const empty = await loadMcp({ mcpServers: {} })
  assert.deepEqual([empty.tools, empty.status], [[], {}])
  await empty.close()
})

test("expandEnvHeaders: ${NAME} from the environment (or env), unset as empty, undefined stays undefined", () => {
  process.env.TN_TEST_TOKEN = "secret123"
  try {
    const out = expandEnvHeaders({ Authorization: "Bearer ${TN_TEST_TOKEN}", X: "plain", Gone: "a${TN_TEST_UNSET_X}b", Odd: "${not closed" })
    assert.deepEqual(out, { Authorization: "Bearer secret123", X: "plain", Gone: "ab", Odd: "${not closed" })
  } finally {
    delete process.env.TN_TEST_TOKEN
  }
  assert.equal(expandEnvHeaders(undefined), undefined)
  assert.equal(expandEnvHeaders(null), undefined)
  assert.deepEqual(expandEnvHeaders({ A: "${K}" }, { K: "v" }), { A: "v" })
})

test("expandEnvHeaders: bad input throws invalid_options without echoing a value", () => {
  const error = assertCode(thrown(() => expandEnvHeaders({ Authorization: "Bearer ${X}", N: 5 })), "invalid_options")
  assert.equal(error.message, 'expandEnvHeaders: header "N" must be a string')
  assertCode(thrown(() => expandEnvHeaders("Bearer x")), "invalid_options")
  const env = assertCode(thrown(() => expandEnvHeaders({ A: "${K}" }, { K: 1234567 })), "invalid_options")
  assert.ok(!env.message.includes("1234567"), env.message)
})

test("elicitationToRequest: form mode asks for input with the schema, URL mode for authorization", () => {
  const schema = { type: "object", properties: { name: { type: "string" } } }
  const req = elicitationToRequest({ message: "Your name?", requestedSchema: schema })
  assert.match(req.id, /^elc-/)
  assert.deepEqual({ ...req, id: "x" }, { id: "x", kind: "input", prompt: "Your name?", data: { schema } })
  const url = elicitationToRequest({ mode: "url", message: "Log in", url: "https://x/auth" })
  assert.deepEqual({ ...url, id: "x" }, { id: "x", kind: "authorization", prompt: "Log in", url: "https://x/auth" })
  assert.notEqual(elicitationToRequest({}).id, elicitationToRequest({}).id, "every request has its own id")
  assert.deepEqual({ ...elicitationToRequest({}), id: "x" }, { id: "x", kind: "input", prompt: "" })
  assertCode(thrown(() => elicitationToRequest("hi")), "invalid_options")
})

test("answerToElicitResult: ok accepts, declined declines, anything else cancels", () => {
  assert.deepEqual(answerToElicitResult({ id: "1", ok: true, data: { name: "Ada" } }), { action: "accept", content: { name: "Ada" } })
  assert.deepEqual(answerToElicitResult({ id: "1", ok: true }), { action: "accept", content: {} })
  assert.deepEqual(answerToElicitResult({ id: "1", ok: false, reason: "declined" }), { action: "decline" })
  assert.deepEqual(answerToElicitResult({ id: "1", ok: false }), { action: "cancel" })
  assert.deepEqual(answerToElicitResult({ id: "1", ok: false, reason: "expired" }), { action: "cancel" })
  assert.deepEqual(answerToElicitResult(null), { action: "cancel" })
})
