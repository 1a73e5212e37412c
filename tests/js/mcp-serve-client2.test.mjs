// The 2.x line of the official MCP TypeScript client (`@modelcontextprotocol/client`, its own
// package since 2.0) as a peer of a served toolkit: it connects over streamable HTTP to
// `toolkit.serve` on 127.0.0.1 and to `toolkit.handler` mounted by hand on node:http, lists the
// tools, calls them (a plain result, a throw as `isError`, a schema mismatch, an unknown tool as
// JSON-RPC -32602), and the server keeps serving. The 1.x SDK client's tests are in
// mcp-serve.test.mjs.
import { test } from "node:test"
import assert from "node:assert/strict"
import http from "node:http"
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client"
import { createToolkit, defineTool } from "../../pkg/node.mjs"
import { rejection } from "./support/helpers.mjs"

const echoTool = defineTool({
  name: "echo",
  description: "echo back text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
  run: (args) => String(args.text),
})
const boomTool = defineTool({
  name: "boom",
  description: "always throws",
  run: () => {
    throw new Error("kaboom")
  },
})

async function connect(endpoint) {
  const client = new Client({ name: "sdk2-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)))
  return client
}

test("the 2.x MCP client lists and calls a served toolkit's tools over 127.0.0.1", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool, boomTool] })
  const calls = []
  const srv = await toolkit.serve("127.0.0.1:0", { mcp: { name: "gw-2x", version: "3.1.0" }, onCall: (e) => calls.push(e) })
  const client = await connect(`${srv.url}/mcp`)
  try {
    assert.deepEqual(client.getServerVersion(), { name: "gw-2x", version: "3.1.0" })
    assert.equal(client.getNegotiatedProtocolVersion(), "2025-11-25")
    const { tools } = await client.listTools()
    assert.deepEqual(tools, [
      { name: "echo", description: "echo back text", inputSchema: echoTool.inputSchema },
      { name: "boom", description: "always throws", inputSchema: { type: "object", properties: {} } },
    ])

    assert.deepEqual(await client.callTool({ name: "echo", arguments: { text: "from 2.x" } }), {
      content: [{ type: "text", text: "from 2.x" }],
      isError: false,
    })
    assert.deepEqual(await client.callTool({ name: "boom", arguments: {} }), { content: [{ type: "text", text: "kaboom" }], isError: true })
    const mismatch = await client.callTool({ name: "echo", arguments: { text: 5 } })
    assert.equal(mismatch.isError, true)
    assert.match(mismatch.content[0].text, /text: expected string/)

    const unknown = await rejection(client.callTool({ name: "nope", arguments: {} }))
    assert.ok(unknown instanceof ProtocolError, `a JSON-RPC error, got ${unknown?.constructor?.name}`)
    assert.equal(unknown.code, -32602)
    assert.match(unknown.message, /Unknown tool: nope/)

    // Still serving after the error result and the error response.
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "still up" } })).content[0].text, "still up")
    assert.deepEqual(
      calls.map(({ name, isError }) => [name, isError]),
      [
        ["echo", false],
        ["boom", true],
        ["echo", true],
        ["echo", false],
      ],
    )
  } finally {
    await client.close()
    await srv.stop()
    await toolkit.close()
  }
})

test("the 2.x MCP client against toolkit.handler mounted on a plain node:http server", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [echoTool] })
  const handler = toolkit.handler({ mcp: { name: "mounted" } })
  const requests = []
  // The host's own server: each request becomes a WHATWG Request for the handler.
  const server = http.createServer(async (req, res) => {
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    requests.push(`${req.method} ${req.url}`)
    const body = req.method === "POST" ? Buffer.concat(chunks) : undefined
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body }))
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const client = await connect(`http://127.0.0.1:${server.address().port}/mcp`)
  try {
    assert.deepEqual(client.getServerVersion(), { name: "mounted", version: "0.1.0" })
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["echo"])
    assert.equal((await client.callTool({ name: "echo", arguments: { text: "mounted" } })).content[0].text, "mounted")
    assert.equal((await rejection(client.callTool({ name: "missing", arguments: {} }))).code, -32602)
    assert.ok(requests.length >= 4 && requests.every((r) => r.endsWith(" /mcp")), requests.join(", "))
  } finally {
    await client.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    await toolkit.close()
  }
})
