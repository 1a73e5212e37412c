// A real MCP server for the tests: the official SDK's McpServer behind its
// StreamableHTTPServerTransport, on 127.0.0.1 (port 0), with the CORS headers a browser page
// needs (the session id exposed). Routes, each a separate server:
//   /mcp      tools answering over event streams (the SDK's default)
//   /json     the same tools, answered as plain JSON (enableJsonResponse)
//   /paged    25 tools listed 4 per page (nextCursor)
//   /hang     accepts the request and never answers
//   /error500 answers 500
//   /garbage  answers 200 with a body that is not JSON
//   /html     answers 200 text/html
// Every request is recorded in `requests` ({method, path, headers, body}).
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { z } from "zod"

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

const text = (t) => ({ content: [{ type: "text", text: t }] })

/** The main tool set (routes /mcp and /json). */
function toolServer() {
  const mcp = new McpServer({ name: "toolnexus-test", version: "1.0.0" })
  mcp.registerTool("echo", { description: "Echoes text", inputSchema: { text: z.string() } }, async ({ text: t }) => text(`echo: ${t}`))
  mcp.registerTool(
    "add",
    { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  )
  mcp.registerTool("fail", { description: "Always fails" }, async () => ({
    isError: true,
    content: [{ type: "text", text: "it broke" }, { type: "text", text: "  " }, { type: "text", text: "badly" }],
  }))
  mcp.registerTool("mixed", { description: "Text, an image, a link and a resource" }, async () => ({
    content: [
      { type: "text", text: "here it is" },
      { type: "image", mimeType: "image/png", data: PNG },
      { type: "resource_link", uri: "file:///docs/readme.md", name: "readme" },
      { type: "resource", resource: { uri: "memo://1", mimeType: "text/plain", text: "memo text" } },
    ],
  }))
  mcp.registerTool("get.weather", { description: "A dotted name", inputSchema: { city: z.string() } }, async ({ city }) => text(`Sunny in ${city}`))
  mcp.registerTool("slow", { description: "Answers after ms", inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    return text("done")
  })
  mcp.registerTool("whoami", { description: "The Authorization header it saw" }, async (extra) =>
    text(String(extra.requestInfo?.headers?.authorization ?? "none")),
  )
  mcp.registerTool("ask_name", { description: "Asks the user for their name (form elicitation)" }, async (extra) => {
    const result = await mcp.server.elicitInput(
      {
        mode: "form",
        message: "What is your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
      { relatedRequestId: extra.requestId },
    )
    return result.action === "accept" ? text(`hello ${result.content.name}`) : text(`no name: ${result.action}`)
  })
  mcp.registerTool("sign_in", { description: "Sends the user to a login page (URL elicitation)" }, async (extra) => {
    const result = await mcp.server.elicitInput(
      { mode: "url", message: "Sign in to continue", url: "https://example.com/login", elicitationId: "e-1" },
      { relatedRequestId: extra.requestId },
    )
    return text(`sign-in: ${result.action}`)
  })
  return mcp.server
}

/** 25 tools listed 4 at a time. */
function pagedServer() {
  const server = new Server({ name: "paged", version: "1.0.0" }, { capabilities: { tools: {} } })
  const tools = Array.from({ length: 25 }, (_, i) => ({
    name: `t${String(i).padStart(2, "0")}`,
    description: `tool ${i}`,
    inputSchema: { type: "object", properties: {} },
  }))
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0)
    const next = start + 4
    return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request) => text(`called ${request.params.name}`))
  return server
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id",
  "access-control-expose-headers": "mcp-session-id, mcp-protocol-version",
}

async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const raw = Buffer.concat(chunks).toString("utf8")
  if (!raw) return undefined
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

/** Starts the server; resolves to {base, url(route), requests, sessions, close()}. */
export async function startMcpServer() {
  const requests = []
  const transports = new Map()
  const hanging = new Set()
  const http = createServer(async (req, res) => {
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v)
    const path = new URL(req.url ?? "/", "http://x").pathname
    if (req.method === "OPTIONS") return res.writeHead(204).end()
    const body = await readBody(req)
    requests.push({ method: req.method, path, headers: { ...req.headers }, body })
    if (path === "/hang") {
      hanging.add(res)
      res.on("close", () => hanging.delete(res))
      return
    }
    if (path === "/error500") return res.writeHead(500, { "content-type": "text/plain" }).end("boom")
    if (path === "/garbage") return res.writeHead(200, { "content-type": "application/json" }).end("this is not json")
    if (path === "/html") return res.writeHead(200, { "content-type": "text/html" }).end("<html>hello</html>")
    if (!["/mcp", "/json", "/paged"].includes(path)) return res.writeHead(404).end()
    const id = req.headers["mcp-session-id"]
    let transport = id ? transports.get(id) : undefined
    if (!transport) {
      if (id) return res.writeHead(404, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}')
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: path === "/json",
        onsessioninitialized: (sid) => transports.set(sid, transport),
      })
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId)
      await (path === "/paged" ? pagedServer() : toolServer()).connect(transport)
    }
    await transport.handleRequest(req, res, body)
  })
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve))
  const base = `http://127.0.0.1:${http.address().port}`
  return {
    base,
    requests,
    transports,
    url: (route = "/mcp") => base + route,
    /** How many /hang requests still have an open connection. */
    openHangs: () => hanging.size,
    /** Forgets every session, as a restarted server would. */
    forgetSessions: () => transports.clear(),
    async close() {
      for (const res of hanging) res.destroy()
      for (const t of transports.values()) await t.close().catch(() => {})
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    },
  }
}

// Run directly (`node tests/js/support/mcp-server.mjs`): serve until killed, printing the base URL.
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startMcpServer()
  console.log(`mcp test server: ${server.base}`)
}
