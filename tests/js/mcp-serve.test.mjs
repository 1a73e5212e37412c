// A toolkit served as an MCP server (SPEC §7C): the official MCP SDK client against
// toolkit.serve on 127.0.0.1 (list, call a JS tool and a built-in, a tool that throws, one
// that suspends, an unknown tool, a call cancelled by the client going away), the handler
// called directly with hand-made Requests (JSON and event-stream answers, 202, 404, 405, 406,
// 415, -32700, -32601), this package's own MCP client using the served tools, and the
// reference's "mcp inbound" tests (buildMcpServer over the SDK's in-memory transport).
import { test } from "node:test"
import assert from "node:assert/strict"
import http from "node:http"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { buildMcpServer, createToolkit, defineTool, exposedMcpTools, McpServer, MemoryFileSystem, pending } from "../../pkg/node.mjs"
import * as lean from "../../pkg/core/node.mjs"
import { assertCode, deferred, rejection, thrown } from "./support/helpers.mjs"

const echoTool = defineTool({
  name: "echo",
  description: "echo back text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
  run: (args) => String(args.text ?? ""),
})
const boomTool = defineTool({
  name: "boom",
  description: "always throws",
  run: () => {
    throw new Error("kaboom")
  },
})
const payTool = defineTool({
  name: "pay",
  description: "asks before paying",
  run: () => pending({ kind: "approval", prompt: "Send 25?" }),
})

/** A tool that runs until its signal fires: `started` when called, `aborted` with the reason. */
function slowTool(name = "slow") {
  const started = deferred()
  const aborted = deferred()
  const tool = defineTool({
    name,
    description: "waits for its signal",
    run: (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => {
          aborted.resolve(String(ctx.signal.reason))
          reject(new Error("stopped"))
        })
        started.resolve()
      }),
  })
  return { tool, started: started.promise, aborted: aborted.promise }
}

async function sdkClient(url) {
  const client = new Client({ name: "sdk-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)))
  return client
}

// --- The official SDK client against toolkit.serve ----------------------------------------

test("the official MCP client lists and calls a served toolkit's tools over 127.0.0.1", async () => {
  const files = new MemoryFileSystem({ "/notes.txt": "remember the milk" })
  const toolkit = await createToolkit({ fs: files, extraTools: [echoTool, boomTool, payTool] })
  const calls = []
  const srv = await toolkit.serve("127.0.0.1:0", { mcp: { name: "http-gw", version: "2.0.0" }, onCall: (e) => calls.push(e) })
  assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  const client = await sdkClient(srv.url)
  try {
    assert.deepEqual(client.getServerVersion(), { name: "http-gw", version: "2.0.0" })
    const { tools } = await client.listTools()
    assert.deepEqual(
      tools.map((t) => t.name),
      toolkit.tools().map((t) => t.name),
    )
    const echo = tools.find((t) => t.name === "echo")
    assert.deepEqual(echo, { name: "echo", description: "echo back text", inputSchema: echoTool.inputSchema })
    assert.deepEqual(tools.find((t) => t.name === "read").inputSchema, toolkit.get("read").inputSchema)

    const said = await client.callTool({ name: "echo", arguments: { text: "over http" } })
    assert.deepEqual(said, { content: [{ type: "text", text: "over http" }], isError: false })
    const read = await client.callTool({ name: "read", arguments: { path: "/notes.txt" } })
    assert.equal(read.isError, false)
    assert.match(read.content[0].text, /remember the milk/)
    const boom = await client.callTool({ name: "boom", arguments: {} })
    assert.equal(boom.isError, true)
    assert.match(boom.content[0].text, /kaboom/)
    const pay = await client.callTool({ name: "pay", arguments: {} })
    assert.equal(pay.isError, true, "a suspension is never a plain success")
    assert.match(pay.content[0].text, /^The tool suspended \(approval\): Send 25\?\n.*did not declare the elicitation capability/s, "this client cannot be asked (tests/js/mcp-serve-elicit.test.mjs asks)")
    const bad = await client.callTool({ name: "echo", arguments: { text: 5 } })
    assert.equal(bad.isError, true)
    assert.match(bad.content[0].text, /text: expected string/)
    const unknown = await rejection(client.callTool({ name: "nope", arguments: {} }))
    assert.equal(unknown.code, -32602)
    assert.match(unknown.message, /Unknown tool: nope/)
    // The server kept serving through all of it.
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "still up" } })).content[0].text, "still up")

    assert.deepEqual(
      calls.map(({ name, source, isError }) => [name, source, isError]),
      [
        ["echo", "native", false],
        ["read", "builtin", false],
        ["boom", "native", true],
        ["pay", "native", true],
        ["echo", "native", true],
        ["echo", "native", false],
      ],
    )
    assert.ok(calls.every((e) => typeof e.ms === "number" && e.ms >= 0))
  } finally {
    await client.close()
    await srv.stop()
    await toolkit.close()
  }
})

test("a call whose client goes away sees its signal fire; the server keeps serving", async () => {
  const slow = slowTool()
  const toolkit = await createToolkit({ builtins: false, extraTools: [slow.tool, echoTool] })
  const calls = []
  const srv = await toolkit.serve("127.0.0.1:0", { mcp: {}, onCall: (e) => calls.push(e) })
  try {
    const client = await sdkClient(srv.url)
    const call = client.callTool({ name: "slow", arguments: {} }).catch((e) => e)
    await slow.started
    await client.close() // aborts the transport's in-flight POST
    assert.match(await slow.aborted, /closed the connection/)
    assert.ok((await call) instanceof Error)
    // A raw fetch aborted mid-call reaches the tool the same way.
    const again = slowTool("slow2")
    toolkit.register(again.tool)
    const controller = new AbortController()
    const fetched = fetch(`${srv.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow2", arguments: {} } }),
      signal: controller.signal,
    }).catch((e) => e)
    await again.started
    controller.abort()
    await again.aborted
    assert.equal((await fetched).name, "AbortError")
    const next = await sdkClient(srv.url)
    assert.equal((await next.callTool({ name: "echo", arguments: { text: "after" } })).content[0].text, "after")
    await next.close()
    assert.deepEqual(calls.map((e) => [e.name, e.isError]).slice(0, 2), [["slow", true], ["slow2", true]])
  } finally {
    await srv.stop()
  }
})

test("mcp.tools narrows the served surface; the mcpConfig.mcpServer block is serve's default", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool, boomTool], mcpConfig: { mcpServer: { name: "from-config", tools: ["echo", "nope"] } } })
  const srv = await toolkit.serve("127.0.0.1:0", {})
  const client = await sdkClient(srv.url)
  try {
    assert.equal(client.getServerVersion().name, "from-config")
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["echo"])
    const hidden = await rejection(client.callTool({ name: "boom", arguments: {} }))
    assert.equal(hidden.code, -32602)
  } finally {
    await client.close()
    await srv.stop()
  }
  // An inline profile wins over the block.
  const inline = await toolkit.serve("127.0.0.1:0", { mcp: { name: "inline" } })
  const second = await sdkClient(inline.url)
  assert.equal(second.getServerVersion().name, "inline")
  assert.deepEqual((await second.listTools()).tools.map((t) => t.name), ["echo", "boom"])
  await second.close()
  await inline.close()
})

test("tools registered after serve are served", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool] })
  const srv = await toolkit.serve("127.0.0.1:0", { mcp: {} })
  const client = await sdkClient(srv.url)
  try {
    toolkit.register(boomTool)
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["echo", "boom"])
  } finally {
    await client.close()
    await srv.stop()
  }
})

test("this package's own MCP client uses the served tools", async () => {
  const served = await createToolkit({ builtins: false, extraTools: [echoTool, boomTool, payTool] })
  const srv = await served.serve("127.0.0.1:0", { mcp: { name: "gw" } })
  const consumer = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { gw: { url: `${srv.url}/mcp` } } } })
  try {
    assert.deepEqual(consumer.mcpStatus(), { gw: "connected" })
    assert.deepEqual(consumer.tools().map((t) => t.name), ["gw_echo", "gw_boom", "gw_pay"])
    assert.deepEqual(consumer.get("gw_echo").inputSchema, echoTool.inputSchema)
    const said = await consumer.execute("gw_echo", { text: "round trip" })
    assert.equal(said.output, "round trip")
    assert.equal(said.isError, false)
    const boom = await consumer.execute("gw_boom", {})
    assert.equal(boom.isError, true)
    assert.match(boom.output, /kaboom/)
    const pay = await consumer.execute("gw_pay", {})
    assert.equal(pay.isError, true)
    assert.match(pay.output, /^The tool suspended \(approval\): Send 25\?/, "without waitFor our client declares no elicitation")
  } finally {
    await consumer.close()
    await srv.stop()
  }
})

// --- The handler with hand-made Requests ---------------------------------------------------

const BOTH = "application/json, text/event-stream"
function post(handler, body, { accept = BOTH, contentType = "application/json", path = "/mcp", headers = {} } = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body)
  return handler(new Request(`http://in-page.test${path}`, { method: "POST", headers: { accept, "content-type": contentType, ...headers }, body: text }))
}

test("handler: JSON or an event stream as Accept prefers, 202 for a notification", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool] })
  const handler = toolkit.handler({ mcp: { name: "direct" } })
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }
  const json = await post(handler, init)
  assert.equal(json.status, 200)
  assert.equal(json.headers.get("content-type"), "application/json")
  assert.deepEqual(await json.json(), {
    jsonrpc: "2.0",
    id: 1,
    result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "direct", version: "0.1.0" } },
  })
  const sse = await post(handler, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "streamed" } } }, { accept: "text/event-stream" })
  assert.equal(sse.status, 200)
  assert.equal(sse.headers.get("content-type"), "text/event-stream")
  assert.equal(await sse.text(), 'event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"streamed"}],"isError":false}}\n\n')
  const note = await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" })
  assert.equal(note.status, 202)
  assert.equal(await note.text(), "")
  const ping = await post(handler, { jsonrpc: "2.0", id: "p", method: "ping" }, { headers: { "mcp-protocol-version": "2025-06-18" } })
  assert.deepEqual(await ping.json(), { jsonrpc: "2.0", id: "p", result: {} })
})

test("handler: 404, 405, 406, 415, 400 and the JSON-RPC error codes", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool] })
  const handler = toolkit.handler({ mcp: {} })
  const other = await post(handler, { jsonrpc: "2.0", id: 1, method: "ping" }, { path: "/elsewhere" })
  assert.equal(other.status, 404)
  const get = await handler(new Request("http://in-page.test/mcp", { headers: { accept: "text/event-stream" } }))
  assert.equal(get.status, 405)
  assert.equal(get.headers.get("allow"), "POST")
  const del = await handler(new Request("http://in-page.test/mcp", { method: "DELETE" }))
  assert.equal(del.status, 405)
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "text/html" })).status, 406)
  assert.equal((await post(handler, { jsonrpc: "2.0", id: 1, method: "ping" }, { contentType: "text/plain" })).status, 415)
  const version = await post(handler, { jsonrpc: "2.0", id: 1, method: "ping" }, { headers: { "mcp-protocol-version": "1999-01-01" } })
  assert.equal(version.status, 400)
  const parse = await post(handler, "{not json")
  assert.equal(parse.status, 400)
  const parsed = await parse.json()
  assert.equal(parsed.error.code, -32700)
  assert.equal(parsed.id, null)
  const method = await post(handler, { jsonrpc: "2.0", id: 9, method: "resources/list" })
  assert.equal(method.status, 200)
  assert.deepEqual(await method.json(), { jsonrpc: "2.0", id: 9, error: { code: -32601, message: "Method not found: resources/list" } })
  const batch = await post(handler, [{ jsonrpc: "2.0", id: 1, method: "ping" }])
  assert.equal((await batch.json()).error.code, -32600)
  const unknown = await post(handler, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "nope" } })
  assert.deepEqual((await unknown.json()).error, { code: -32602, message: "Unknown tool: nope" })
})

test("handler: no profile mounts nothing; an a2a profile without a client is refused", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool] })
  const bare = toolkit.handler()
  assert.equal((await post(bare, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status, 404)
  assertCode(thrown(() => toolkit.handler({ mcp: {}, a2a: { name: "agent" } })), "invalid_options")
  assertCode(await rejection(toolkit.serve("127.0.0.1:0", { a2a: {} })), "invalid_options")
  const configured = await createToolkit({ builtins: false, mcpConfig: { a2a: { name: "agent" } } })
  const refused = assertCode(thrown(() => configured.handler({ mcp: {} })), "invalid_options")
  assert.match(refused.message, /client/)
  assertCode(thrown(() => toolkit.handler({ mcp: 5 })), "invalid_options")
  assertCode(thrown(() => toolkit.handler({ mcp: {}, onCall: "yes" })), "invalid_options")
  assertCode(await rejection(toolkit.serve("127.0.0.1:http", { mcp: {} })), "invalid_argument")
  assertCode(await rejection(createToolkit({ mcpConfig: { mcpServer: { tools: "echo" } } })), "invalid_config")
})

test("serve: an address in use is a clear network error", async () => {
  const toolkit = await createToolkit({ builtins: false })
  const first = await toolkit.serve("127.0.0.1:0", { mcp: {} })
  try {
    const port = new URL(first.url).port
    const error = assertCode(await rejection(toolkit.serve(`127.0.0.1:${port}`, { mcp: {} })), "network")
    assert.match(error.message, /EADDRINUSE/)
  } finally {
    await first.stop()
  }
})

/** A raw POST with headers fetch will not forge (`Host`); resolves `[status, body]`. */
function rawPost(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json", ...headers } }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () => resolve([res.statusCode, text]))
    })
    req.on("error", reject)
    req.end(body)
  })
}

test("serve on a loopback address turns away other hosts and foreign pages (DNS rebinding)", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool] })
  const srv = await toolkit.serve("127.0.0.1:0", { mcp: {} })
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })
  const port = new URL(srv.url).port
  try {
    const [rebound, why] = await rawPost(`${srv.url}/mcp`, { host: `attacker.test:${port}` }, ping)
    assert.equal(rebound, 403)
    assert.match(why, /Host/)
    const [foreign, reason] = await rawPost(`${srv.url}/mcp`, { origin: "https://attacker.test" }, ping)
    assert.equal(foreign, 403)
    assert.match(reason, /Origin/)
    assert.equal((await rawPost(`${srv.url}/mcp`, { host: `localhost:${port}`, origin: "http://localhost:5173" }, ping))[0], 200)
    assert.equal((await rawPost(`${srv.url}/mcp`, {}, ping))[0], 200)
  } finally {
    await srv.stop()
  }
})

test("the lean build refuses serving with unsupported", async () => {
  const toolkit = await lean.createToolkit({})
  assertCode(thrown(() => toolkit.handler({ mcp: {} })), "unsupported")
  assertCode(await rejection(toolkit.serve("127.0.0.1:0", { mcp: {} })), "unsupported")
})

// --- The reference's "mcp inbound" tests: buildMcpServer over a linked transport pair --------

async function connectInProc(server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: "test-client", version: "1.0.0" })
  await client.connect(clientSide)
  return client
}

test("mcp inbound: exposedMcpTools filters by name, omit ⇒ all", () => {
  const tools = [echoTool, boomTool]
  assert.deepEqual(exposedMcpTools(tools).map((t) => t.name), ["echo", "boom"])
  assert.deepEqual(exposedMcpTools(tools, { tools: ["echo"] }).map((t) => t.name), ["echo"])
  assert.deepEqual(exposedMcpTools(tools, { tools: ["echo", "nope"] }).map((t) => t.name), ["echo"])
  assert.equal(exposedMcpTools(tools, { tools: ["echo"] })[0], echoTool, "the same tool objects")
})

test("mcp inbound: initialize reports serverInfo from the profile", async () => {
  const server = buildMcpServer([echoTool], { name: "gateway", version: "2.0.0" })
  assert.ok(server instanceof McpServer)
  const client = await connectInProc(server)
  try {
    const info = client.getServerVersion()
    assert.equal(info?.name, "gateway")
    assert.equal(info?.version, "2.0.0")
  } finally {
    await client.close()
  }
})

test("mcp inbound: tools/list advertises unified tools with inputSchema=parameters", async () => {
  const client = await connectInProc(buildMcpServer([echoTool, boomTool]))
  try {
    const { tools } = await client.listTools()
    assert.deepEqual(tools.map((t) => t.name).sort(), ["boom", "echo"])
    assert.deepEqual(tools.find((t) => t.name === "echo").inputSchema, echoTool.inputSchema)
  } finally {
    await client.close()
  }
})

test("mcp inbound: mcp.tools narrows the advertised surface", async () => {
  const client = await connectInProc(buildMcpServer(exposedMcpTools([echoTool, boomTool], { tools: ["echo"] }), { tools: ["echo"] }))
  try {
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["echo"])
  } finally {
    await client.close()
  }
})

test("mcp inbound: tools/call dispatches to execute → text content, isError false", async () => {
  const calls = []
  const client = await connectInProc(buildMcpServer([echoTool], undefined, (ev) => calls.push(ev)))
  try {
    const res = await client.callTool({ name: "echo", arguments: { text: "hi" } })
    assert.equal(res.isError, false)
    assert.equal(res.content[0].type, "text")
    assert.equal(res.content[0].text, "hi")
    assert.equal(calls.length, 1)
    assert.equal(calls[0].name, "echo")
    assert.equal(calls[0].source, "native")
    assert.equal(calls[0].isError, false)
  } finally {
    await client.close()
  }
})

test("mcp inbound: erroring tool → isError result, server survives", async () => {
  const client = await connectInProc(buildMcpServer([echoTool, boomTool]))
  try {
    const bad = await client.callTool({ name: "boom", arguments: {} })
    assert.equal(bad.isError, true)
    assert.match(bad.content[0].text, /kaboom/)
    const ok = await client.callTool({ name: "echo", arguments: { text: "still up" } })
    assert.equal(ok.isError, false)
    assert.equal(ok.content[0].text, "still up")
  } finally {
    await client.close()
  }
})

test("mcp inbound: a throwing onCall is isolated", async () => {
  const client = await connectInProc(
    buildMcpServer([echoTool], {}, () => {
      throw new Error("host bug")
    }),
  )
  try {
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "fine" } })).content[0].text, "fine")
  } finally {
    await client.close()
  }
})

test("mcp inbound: a client's cancellation over a transport aborts the call", async () => {
  const slow = slowTool()
  const client = await connectInProc(buildMcpServer([slow.tool]))
  try {
    const controller = new AbortController()
    const call = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal }).catch((e) => e)
    await slow.started
    controller.abort("changed my mind")
    assert.match(await slow.aborted, /changed my mind/)
    assert.ok((await call) instanceof Error)
  } finally {
    await client.close()
  }
})

test("mcp inbound: buildMcpServer's handle is the same HTTP face; bad input is a typed error", async () => {
  const server = buildMcpServer([echoTool], { name: "direct" })
  const listed = await post((r) => server.handle(r), { jsonrpc: "2.0", id: 1, method: "tools/list" })
  assert.deepEqual((await listed.json()).result.tools.map((t) => t.name), ["echo"])
  assert.deepEqual(await server.handleMessage({ jsonrpc: "2.0", id: 2, method: "ping" }), { jsonrpc: "2.0", id: 2, result: {} })
  assert.equal(await server.handleMessage({ jsonrpc: "2.0", method: "notifications/initialized" }), undefined)
  assertCode(thrown(() => buildMcpServer("echo")), "invalid_options")
  assertCode(thrown(() => buildMcpServer([{ name: "bad name" }])), "invalid_tool")
  assertCode(thrown(() => buildMcpServer([echoTool], { tools: 3 })), "invalid_options")
})
