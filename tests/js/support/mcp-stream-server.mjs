// An official-SDK MCP server (stateful sessions, an event store for resumability, a `retry:`
// of 200 ms) for the stream tests: tools that elicit on the standalone GET stream, elicit with
// the SEP-1330 enum shapes, add a tool (list_changed), report progress, and close their own
// event stream mid-call. Every HTTP request is recorded, and each GET's end is noted.
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js"
import { z } from "zod"

const text = (t) => ({ content: [{ type: "text", text: t }] })
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** SEP-1034: a default for each field type. */
export const DEFAULTS_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
  required: [],
}

/** SEP-1330: every enum shape, each with a default. */
export const ENUMS_SCHEMA = {
  type: "object",
  properties: {
    plain: { type: "string", enum: ["a", "b"], default: "a" },
    legacy: { type: "string", enum: ["x", "y"], enumNames: ["Ex", "Why"], default: "y" },
    titled: { type: "string", oneOf: [{ const: "r", title: "Red" }, { const: "g", title: "Green" }], default: "g" },
    multi: { type: "array", items: { type: "string", enum: ["m1", "m2", "m3"] }, default: ["m1", "m3"] },
    multiTitled: { type: "array", items: { anyOf: [{ const: "t1", title: "One" }, { const: "t2", title: "Two" }] }, default: ["t2"] },
  },
  required: ["plain", "legacy", "titled", "multi", "multiTitled"],
}

function toolServer() {
  const mcp = new McpServer({ name: "stream-test", version: "1.0.0" })
  mcp.registerTool("ask_defaults", { description: "Elicits on the standalone stream (no related request)" }, async () => {
    const result = await mcp.server.elicitInput({ mode: "form", message: "Accept the defaults", requestedSchema: DEFAULTS_SCHEMA })
    return text(JSON.stringify(result))
  })
  mcp.registerTool("ask_enums", { description: "Elicits with every SEP-1330 enum shape" }, async (extra) => {
    const result = await mcp.server.elicitInput(
      { mode: "form", message: "Pick", requestedSchema: ENUMS_SCHEMA },
      { relatedRequestId: extra.requestId },
    )
    return text(JSON.stringify(result))
  })
  mcp.registerTool("grow", { description: "Adds the tool `grown` (the server says list_changed)" }, async () => {
    if (!mcp.isConnected()) return text("not connected")
    mcp.registerTool("grown", { description: "Added later" }, async () => text("grown ok"))
    return text("grew")
  })
  mcp.registerTool("progress", { description: "Reports progress every 100 ms for ms", inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    const token = extra._meta?.progressToken
    for (let t = 0; t < ms; t += 100) {
      await sleep(100)
      if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: t + 100, total: ms } })
    }
    return text(`progressed ${token === undefined ? "without a token" : "with a token"}`)
  })
  mcp.registerTool("interrupted", { description: "Closes its own event stream, answers 300 ms later" }, async (extra) => {
    extra.closeSSEStream?.()
    await sleep(300)
    return text(extra.closeSSEStream ? "answered after the stream closed" : "no closeSSEStream")
  })
  return mcp
}

/** Starts the server; resolves to {url, requests, gets, close()}. */
export async function startStreamServer() {
  const requests = []
  /** Each GET: {headers, closed} (closed turns true when its connection ends). */
  const gets = []
  const transports = new Map()
  const http = createServer(async (req, res) => {
    let body
    if (req.method === "POST") {
      const chunks = []
      for await (const c of req) chunks.push(c)
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null")
    }
    requests.push({ method: req.method, headers: { ...req.headers }, body })
    if (req.method === "GET") {
      const entry = { headers: { ...req.headers }, closed: false }
      gets.push(entry)
      res.on("close", () => (entry.closed = true))
    }
    const id = req.headers["mcp-session-id"]
    let transport = id ? transports.get(id) : undefined
    if (!transport) {
      if (id) return res.writeHead(404).end()
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        eventStore: new InMemoryEventStore(),
        retryInterval: 200,
        onsessioninitialized: (sid) => transports.set(sid, transport),
      })
      await toolServer().connect(transport)
    }
    await transport.handleRequest(req, res, body)
  })
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    requests,
    gets,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {})
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    },
  }
}
