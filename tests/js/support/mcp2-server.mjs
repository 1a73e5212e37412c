// A real MCP 2026-07-28 server for the tests: the official TypeScript SDK 2.x
// (`@modelcontextprotocol/server`) `createMcpHandler`, stateless (a fresh McpServer per request),
// behind node:http on 127.0.0.1 (port 0), with the CORS headers a browser page needs. Its tools:
//   echo           answers at once
//   deploy         asks for a confirmation through a multi-round-trip form input (MRTR), its
//                  requestState sealed with the SDK's HMAC codec (a tampered or stale state is
//                  refused); answers "deployed <env> by <who>"
//   sign_in        asks the user to open a URL (MRTR URL elicitation), then answers "signed in"
//   two_questions  asks two form inputs in one round
//   frobnicate     answers input_required with an entry of a kind no client knows (written by
//                  the HTTP server itself: the SDK will not send one)
// Routes: /mcp (legacy 2025 traffic served statelessly too), /strict (2026-07-28 only),
// /cached (tools/list fresh for 60 s), /changing (the same, and `addTool(name)` adds a tool and
// tells its `subscriptions/listen` streams), /nolisten (refuses every subscription). Every request is
// recorded in `requests` ({method, path, headers, body}; a `subscriptions/listen` one also
// `closed`, true once its stream's connection ended).
import { createServer } from "node:http"
import { McpServer, createMcpHandler, createRequestStateCodec, inputRequired, acceptedContent, inputResponse } from "@modelcontextprotocol/server"
import { z } from "zod"

const text = (t) => ({ content: [{ type: "text", text: t }] })
const KEY = "toolnexus-test-request-state-key-0123456789"

/** A fresh server instance (the handler makes one per request). */
function factory(options = {}) {
  const codec = createRequestStateCodec({ key: KEY, ttlSeconds: 600 })
  return () => {
    const mcp = new McpServer(
      { name: "toolnexus-test-2x", version: "2.0.0" },
      { requestState: { verify: codec.verify }, ...(options.cacheHints ? { cacheHints: options.cacheHints } : {}) },
    )
    mcp.registerTool("echo", { description: "Echoes text", inputSchema: z.object({ text: z.string() }) }, async ({ text: t }) => text(`echo: ${t}`))
    const confirmation = z.object({ confirm: z.boolean(), who: z.string().optional() })
    mcp.registerTool("deploy", { description: "Deploys after a confirmation", inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, "confirm", confirmation)
      if (answer?.confirm !== true) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy to ${env}?`,
              requestedSchema: {
                type: "object",
                properties: { confirm: { type: "boolean" }, who: { type: "string", default: "nobody" } },
                required: ["confirm"],
              },
            }),
          },
          requestState: await codec.mint({ env }),
        })
      }
      const state = await ctx.mcpReq.requestState()
      return text(`deployed ${state?.env ?? "?"} by ${answer.who ?? "?"}`)
    })
    mcp.registerTool("sign_in", { description: "Asks the user to sign in at a URL" }, async (ctx) => {
      if (inputResponse(ctx.mcpReq.inputResponses, "login").kind === "elicit") return text("signed in")
      return inputRequired({ inputRequests: { login: inputRequired.elicitUrl({ message: "Sign in to continue", url: "https://example.test/login" }) } })
    })
    mcp.registerTool("two_questions", { description: "Asks two things at once" }, async (ctx) => {
      const color = acceptedContent(ctx.mcpReq.inputResponses, "color")
      const size = acceptedContent(ctx.mcpReq.inputResponses, "size")
      if (color && size) return text(`${color.value} ${size.value}`)
      const ask = (message) => inputRequired.elicit({ message, requestedSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] } })
      return inputRequired({ inputRequests: { color: ask("Which color?"), size: ask("Which size?") } })
    })
    // Listed by the SDK; its calls are answered by the HTTP server below, since the SDK refuses
    // to send an input request of a kind the revision does not define.
    mcp.registerTool("frobnicate", { description: "Asks for an input of an unknown kind" }, async () => text("never"))
    for (const name of options.added ?? []) mcp.registerTool(name, { description: "Added later" }, async () => text(`${name} ok`))
    return mcp
  }
}

/** Reads a node request into a WHATWG Request. */
async function toRequest(req, url) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const body = Buffer.concat(chunks)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) headers.set(name, Array.isArray(value) ? value.join(", ") : value)
  return { request: new Request(url, { method: req.method, headers, body: body.length ? body : undefined }), body: body.toString("utf8") }
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id",
  "access-control-expose-headers": "mcp-session-id",
}

/** Starts the server; `url(path)`, `requests`, `close()`. */
export async function startMcp2Server() {
  const added = []
  const handlers = {
    "/mcp": createMcpHandler(factory()),
    "/strict": createMcpHandler(factory(), { legacy: "reject" }),
    "/cached": createMcpHandler(factory({ cacheHints: { "tools/list": { ttlMs: 60_000, cacheScope: "private" } } })),
    "/changing": createMcpHandler(factory({ added, cacheHints: { "tools/list": { ttlMs: 60_000, cacheScope: "private" } } })),
    "/nolisten": createMcpHandler(factory(), { maxSubscriptions: 0 }),
  }
  const requests = []
  const server = createServer(async (req, res) => {
    try {
      if (req.method === "OPTIONS") {
        res.writeHead(204, CORS).end()
        return
      }
      const path = new URL(req.url, "http://x").pathname
      const handler = handlers[path]
      const { request, body } = await toRequest(req, `http://${req.headers.host}${req.url}`)
      let parsed
      try {
        parsed = body ? JSON.parse(body) : undefined
      } catch {
        parsed = body
      }
      const entry = { method: req.method, path, headers: req.headers, body: parsed }
      if (parsed?.method === "subscriptions/listen") {
        entry.closed = false
        res.on("close", () => (entry.closed = true))
      }
      requests.push(entry)
      if (!handler) {
        res.writeHead(404, CORS).end("no such route")
        return
      }
      if (parsed?.method === "tools/call" && parsed.params?.name === "frobnicate") {
        const unknown = { resultType: "input_required", inputRequests: { thing: { method: "frobnicate/now", params: {} } } }
        res.writeHead(200, { "content-type": "application/json", ...CORS }).end(JSON.stringify({ jsonrpc: "2.0", id: parsed.id, result: unknown }))
        return
      }
      const response = await handler.fetch(request, { parsedBody: parsed })
      res.writeHead(response.status, { ...Object.fromEntries(response.headers), ...CORS })
      if (!response.body) {
        res.end()
        return
      }
      for await (const chunk of response.body) res.write(chunk)
      res.end()
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, CORS)
      res.end(String(error))
    }
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address()
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    addTool: (name) => {
      added.push(name)
      handlers["/changing"].notify.toolsChanged()
    },
    close: async () => {
      await Promise.all(Object.values(handlers).map((h) => h.close()))
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
