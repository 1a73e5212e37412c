// A served tool that suspends (SPEC §10) asks the MCP client through elicitation/create
// (SPEC §7C beyond the reference), on the built package against real peers on 127.0.0.1: the
// official MCP SDK client with an elicitation handler over streamable HTTP (the question on
// the tools/call response stream, the answer POSTed back) and over the SDK's in-memory
// transport (McpServer.connect), this package's own MCP client answering through its waitFor,
// and clients that declared no elicitation (an error result naming the suspension).
import { test } from "node:test"
import assert from "node:assert/strict"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { buildMcpServer, createToolkit, defineTool, pending } from "../../pkg/node.mjs"

const NOTE_SCHEMA = { type: "object", properties: { note: { type: "string" } } }

/** Asks for approval (with a note), then pays; `calls` counts its runs. */
function payTool({ expiresAt, url } = {}) {
  const runs = []
  const tool = defineTool({
    name: "pay",
    description: "asks before paying",
    run: (_args, ctx) => {
      runs.push(ctx.answer)
      if (ctx.answer?.ok) return `paid 25 (${ctx.answer.data?.note ?? "no note"})`
      return pending({ kind: "approval", prompt: "Send 25?", data: { schema: NOTE_SCHEMA }, ...(expiresAt ? { expiresAt } : {}), ...(url ? { url } : {}) })
    },
  })
  return { tool, runs }
}

/** An SDK client declaring `elicitation` (when given) whose handler answers with `answer(params)`. */
async function sdkClient(transport, { elicitation, answer } = {}) {
  const client = new Client({ name: "elicit-test", version: "1.0.0" }, elicitation ? { capabilities: { elicitation } } : {})
  const asked = []
  if (elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params)
      return answer(request.params)
    })
  }
  await client.connect(transport)
  return { client, asked }
}

async function serve(tool, onCall) {
  const toolkit = await createToolkit({ builtins: false, extraTools: [tool] })
  return toolkit.serve("127.0.0.1:0", { mcp: { name: "desk" }, ...(onCall ? { onCall } : {}) })
}

test("streamable HTTP: the SDK client is asked on the call's stream and its answer runs the tool again", async () => {
  const { tool, runs } = payTool()
  const calls = []
  const srv = await serve(tool, (e) => calls.push(e))
  const { client, asked } = await sdkClient(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)), {
    elicitation: { form: {} },
    answer: () => ({ action: "accept", content: { note: "rent" } }),
  })
  try {
    const paid = await client.callTool({ name: "pay", arguments: {} })
    assert.deepEqual(paid, { content: [{ type: "text", text: "paid 25 (rent)" }], isError: false })
    assert.equal(asked.length, 1)
    assert.equal(asked[0].message, "Send 25?")
    assert.deepEqual(asked[0].requestedSchema, NOTE_SCHEMA)
    assert.equal(runs.length, 2, "run, asked, run again once")
    assert.equal(runs[1].ok, true)
    assert.deepEqual(calls.map((c) => [c.name, c.isError]), [["pay", false]])
    // Still serving, and plain calls are still plain JSON.
    const again = await client.callTool({ name: "pay", arguments: {} })
    assert.equal(again.content[0].text, "paid 25 (rent)")
  } finally {
    await client.close()
    await srv.stop()
  }
})

test("streamable HTTP: a decline and a cancel are declined results; the tool is not run again", async () => {
  for (const action of ["decline", "cancel"]) {
    const { tool, runs } = payTool()
    const srv = await serve(tool)
    const { client } = await sdkClient(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)), {
      elicitation: {},
      answer: () => ({ action }),
    })
    try {
      const refused = await client.callTool({ name: "pay", arguments: {} })
      assert.deepEqual(refused, { content: [{ type: "text", text: "declined/expired: Send 25?" }], isError: true })
      assert.equal(runs.length, 1)
    } finally {
      await client.close()
      await srv.stop()
    }
  }
})

test("streamable HTTP: an answer after the request's expiresAt is declined", async () => {
  const { tool, runs } = payTool({ expiresAt: "2001-01-01T00:00:00Z" })
  const srv = await serve(tool)
  const { client } = await sdkClient(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)), {
    elicitation: {},
    answer: () => ({ action: "accept", content: { note: "late" } }),
  })
  try {
    const late = await client.callTool({ name: "pay", arguments: {} })
    assert.equal(late.content[0].text, "declined/expired: Send 25?")
    assert.equal(runs.length, 1)
  } finally {
    await client.close()
    await srv.stop()
  }
})

test("a client that declared no elicitation gets an error result naming the suspension, and no session", async () => {
  const { tool, runs } = payTool()
  const srv = await serve(tool)
  const { client } = await sdkClient(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)))
  try {
    const result = await client.callTool({ name: "pay", arguments: {} })
    assert.equal(result.isError, true)
    assert.match(result.content[0].text, /^The tool suspended \(approval\): Send 25\?\nIt needs an answer, and this MCP client cannot be asked/)
    assert.equal(runs.length, 1)
    // Only a client that declares elicitation is remembered (its initialize gets a session id).
    const init = (capabilities) =>
      fetch(`${srv.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "0" } } }),
      })
    assert.equal((await init({})).headers.get("mcp-session-id"), null)
    assert.match((await init({ elicitation: {} })).headers.get("mcp-session-id"), /^[0-9a-f-]{36}$/)
    // A session id the handler never gave (or forgot) asks nothing: the suspension is named.
    const stray = await fetch(`${srv.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": "not-ours" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "pay", arguments: {} } }),
    })
    assert.match((await stray.json()).result.content[0].text, /^The tool suspended/)
  } finally {
    await client.close()
    await srv.stop()
  }
})

test("a URL-mode request goes to a client that takes URL mode as a link", async () => {
  const { tool } = payTool({ url: "https://bank.test/approve" })
  const srv = await serve(tool)
  const { client, asked } = await sdkClient(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)), {
    elicitation: { form: {}, url: {} },
    answer: () => ({ action: "accept" }),
  })
  try {
    const paid = await client.callTool({ name: "pay", arguments: {} })
    assert.equal(paid.content[0].text, "paid 25 (no note)")
    assert.equal(asked[0].mode, "url")
    assert.equal(asked[0].url, "https://bank.test/approve")
    assert.equal(typeof asked[0].elicitationId, "string")
  } finally {
    await client.close()
    await srv.stop()
  }
})

test("McpServer.connect: the SDK client over its in-memory transport is asked on the connection", async () => {
  const { tool, runs } = payTool()
  const server = buildMcpServer([tool], { name: "linked" })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const { client, asked } = await sdkClient(clientSide, { elicitation: {}, answer: () => ({ action: "accept", content: { note: "linked" } }) })
  try {
    const paid = await client.callTool({ name: "pay", arguments: {} })
    assert.deepEqual(paid, { content: [{ type: "text", text: "paid 25 (linked)" }], isError: false })
    assert.equal(asked.length, 1)
    assert.equal(runs.length, 2)
  } finally {
    await client.close()
    await server.close()
  }
})

test("both ends ours: a toolkit's MCP client answers the served tool's question through its waitFor", async () => {
  const { tool } = payTool()
  const srv = await serve(tool)
  const seen = []
  const consumer = await createToolkit({
    builtins: false,
    mcpConfig: { mcpServers: { desk: { url: `${srv.url}/mcp` } } },
    waitFor: async (request) => {
      seen.push(request)
      return { id: request.id, ok: true, data: { note: "from waitFor" } }
    },
  })
  try {
    const paid = await consumer.execute("desk_pay", {})
    assert.equal(paid.isError, false)
    assert.equal(paid.output, "paid 25 (from waitFor)")
    assert.equal(seen[0].kind, "input", "form mode is kind input on the client side (SPEC §2)")
    assert.equal(seen[0].prompt, "Send 25?")
    assert.deepEqual(seen[0].data.schema, NOTE_SCHEMA)
  } finally {
    await consumer.close()
    await srv.stop()
  }
})
