// Remote MCP servers over streamable HTTP, against the official SDK server: connect, list and
// call (event-stream and JSON answers), naming and schemas, result mapping, pagination,
// status, the per-server allowlist, disableTools, env expansion of headers, listMcpTools, a
// config file path, and close() ending each session with a DELETE.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createToolkit, listMcpTools } from "../../pkg/node.mjs"
import { startMcpServer } from "./support/mcp-server.mjs"

let server
before(async () => {
  server = await startMcpServer()
})
after(async () => {
  await server.close()
})

const names = (toolkit) => toolkit.tools().map((t) => t.name)
const deletes = () => server.requests.filter((r) => r.method === "DELETE")

async function kit(servers, options = {}) {
  return createToolkit({ builtins: false, mcpConfig: { mcpServers: servers }, ...options })
}

test("a server's tools are named server_tool, source mcp, with closed object schemas", async () => {
  const toolkit = await kit({ main: { url: server.url("/mcp") } })
  assert.deepEqual(toolkit.mcpStatus(), { main: "connected" })
  assert.deepEqual(names(toolkit), ["main_echo", "main_add", "main_fail", "main_mixed", "main_get_weather", "main_slow", "main_whoami", "main_ask_name", "main_sign_in"])
  const echo = toolkit.get("main_echo")
  assert.equal(echo.source, "mcp")
  assert.equal(echo.description, "Echoes text")
  assert.equal(echo.inputSchema.type, "object")
  assert.deepEqual(echo.inputSchema.properties, { text: { type: "string" } })
  assert.deepEqual(echo.inputSchema.required, ["text"])
  assert.equal(echo.inputSchema.additionalProperties, false)
  assert.deepEqual(toolkit.toOpenAI()[0].function.name, "main_echo")
  await toolkit.close()
})

test("calls map text, structured content, errors and other content; both answer styles", async () => {
  for (const route of ["/mcp", "/json"]) {
    const toolkit = await kit({ s: { url: server.url(route) } })
    assert.deepEqual(await toolkit.execute("s_echo", { text: "hi" }), { output: "echo: hi", isError: false, metadata: { server: "s" } })
    assert.equal((await toolkit.execute("s_add", { a: 2, b: 3 })).output, '{"sum":5}')
    assert.deepEqual(await toolkit.execute("s_fail", {}), { output: "it broke\n\nbadly", isError: true, metadata: { server: "s" } })
    assert.equal((await toolkit.execute("s_get_weather", { city: "Oslo" })).output, "Sunny in Oslo")
    const mixed = await toolkit.execute("s_mixed", {})
    // An image and a resource link become content parts (the link a file by URL); the embedded
    // resource's text joins the output (SPEC §0.4, §1B).
    assert.equal(mixed.output, "here it is\nmemo text")
    assert.deepEqual(mixed.parts.map((p) => [p.type, p.mimeType, p.url ?? `${p.data.length} base64 chars`, p.name]), [
      ["image", "image/png", "96 base64 chars", undefined],
      ["file", "application/octet-stream", "file:///docs/readme.md", "readme"],
    ])
    assert.deepEqual(mixed.metadata, { server: "s" })
    const invalid = await toolkit.execute("s_echo", { text: 5 })
    assert.equal(invalid.isError, true)
    assert.match(invalid.output, /^Invalid arguments for tool "s_echo": /)
    await toolkit.close()
  }
})

test("paginated lists are followed to the end", async () => {
  const toolkit = await kit({ paged: { url: server.url("/paged") } })
  assert.equal(toolkit.tools().length, 25)
  assert.equal(names(toolkit)[24], "paged_t24")
  assert.equal((await toolkit.execute("paged_t13", {})).output, "called t13")
  await toolkit.close()
})

test("every request after initialize carries the session id and the protocol version (the standalone GET stream too)", async () => {
  const before = server.requests.length
  const toolkit = await kit({ s: { url: server.url("/mcp") } })
  await toolkit.execute("s_echo", { text: "x" })
  await toolkit.close()
  const mine = server.requests.slice(before)
  // First the 2026-07-28 probe, which this 2025-11-25 server turns down (mcp-stateless.test.mjs).
  assert.deepEqual(mine.map((r) => r.body?.method ?? r.method), ["server/discover", "initialize", "notifications/initialized", "GET", "tools/list", "tools/call", "DELETE"])
  mine.shift()
  assert.equal(mine[2].headers.accept, "text/event-stream")
  assert.equal(mine[0].headers["mcp-session-id"], undefined)
  assert.equal(mine[0].body.params.protocolVersion, "2025-11-25")
  assert.deepEqual(mine[0].body.params.capabilities, {})
  const session = mine[1].headers["mcp-session-id"]
  assert.match(session, /^[0-9a-f-]{36}$/)
  for (const r of mine.slice(1)) {
    assert.equal(r.headers["mcp-session-id"], session)
    assert.equal(r.headers["mcp-protocol-version"], "2025-11-25")
  }
  assert.equal(mine[5].method, "DELETE")
  assert.equal(server.transports.has(session), false, "the server ended the session")
})

test("close() ends every session with a DELETE", async () => {
  const toolkit = await kit({ a: { url: server.url("/mcp") }, b: { url: server.url("/json") }, c: { url: server.url("/paged") } })
  const count = deletes().length
  await toolkit.close()
  assert.equal(deletes().length, count + 3)
})

test("the tools allowlist and drop-list use the server's own names; disableTools the final ones", async () => {
  const realWarn = console.warn
  const warnings = []
  console.warn = (...args) => warnings.push(args.join(" "))
  try {
    const allow = await kit({ m: { url: server.url("/mcp"), tools: { echo: true, "get.weather": true, nope: true } } })
    assert.deepEqual(names(allow), ["m_echo", "m_get_weather"])
    assert.deepEqual(warnings, ['[toolnexus] server "m" tools filter name "nope" matched no tool'])
    const drop = await kit({ m: { url: server.url("/mcp"), tools: { fail: false, slow: false } } }, { disableTools: ["m_mixed", "m_whoami"] })
    assert.deepEqual(names(drop), ["m_echo", "m_add", "m_get_weather", "m_ask_name", "m_sign_in"])
    await Promise.all([allow.close(), drop.close()])
  } finally {
    console.warn = realWarn
  }
})

test("header values expand ${VAR} from the env option, else from process.env", async () => {
  const withEnv = await kit({ s: { url: server.url("/mcp"), headers: { Authorization: "Bearer ${MCP_TEST_TOKEN}" } } }, { env: { MCP_TEST_TOKEN: "from-option" } })
  assert.equal((await withEnv.execute("s_whoami", {})).output, "Bearer from-option")
  process.env.MCP_TEST_TOKEN = "from-process"
  try {
    const fromProcess = await kit({ s: { url: server.url("/mcp"), headers: { Authorization: "Bearer ${MCP_TEST_TOKEN}" } } })
    assert.equal((await fromProcess.execute("s_whoami", {})).output, "Bearer from-process")
    await fromProcess.close()
  } finally {
    delete process.env.MCP_TEST_TOKEN
  }
  await withEnv.close()
})

test("listMcpTools lists every server unfiltered under its own names, then disconnects", async () => {
  const count = deletes().length
  const inventory = await listMcpTools({
    mcpServers: {
      main: { url: server.url("/mcp"), tools: { echo: true } },
      paged: { url: server.url("/paged") },
      off: { url: server.url("/mcp"), enabled: false },
      broken: { url: server.url("/error500") },
    },
  })
  assert.deepEqual(inventory.status, { main: "connected", paged: "connected", off: "disabled", broken: "failed" })
  assert.deepEqual(inventory.errors, { broken: "HTTP 500: boom" })
  assert.equal(inventory.tools.main.length, 9)
  assert.deepEqual(inventory.tools.main[0], { name: "echo", description: "Echoes text", inputSchema: inventory.tools.main[0].inputSchema })
  assert.equal(inventory.tools.main[4].name, "get.weather")
  assert.equal(inventory.tools.paged.length, 25)
  assert.equal(inventory.tools.off, undefined)
  assert.equal(deletes().length, count + 2)
})

test("mcpConfig may be a config file path", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-mcp-"))
  const file = join(dir, "mcp.json")
  writeFileSync(file, JSON.stringify({ mcpServers: { docs: { url: server.url("/paged") } } }))
  const toolkit = await createToolkit({ mcpConfig: file })
  assert.deepEqual(toolkit.mcpStatus(), { docs: "connected" })
  assert.equal(toolkit.get("docs_t00").source, "mcp")
  await toolkit.close()
})

test("MCP tools come first, then the other sources, first name wins", async () => {
  const { defineTool } = await import("../../pkg/node.mjs")
  const mine = defineTool({ name: "main_echo", description: "shadowed", run: () => "mine" })
  const extra = defineTool({ name: "extra", description: "x", run: () => "x" })
  const realWarn = console.warn
  console.warn = () => {}
  try {
    const toolkit = await createToolkit({ mcpConfig: { mcpServers: { main: { url: server.url("/mcp"), tools: { echo: true } } } }, extraTools: [mine, extra], builtins: false })
    assert.deepEqual(names(toolkit), ["main_echo", "extra"])
    assert.equal(toolkit.get("main_echo").source, "mcp")
    await toolkit.close()
  } finally {
    console.warn = realWarn
  }
})
