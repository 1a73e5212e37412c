// A real OAuth-protected MCP server for the tests, on 127.0.0.1 (port 0): the official SDK's
// server behind a bearer-token gate, its protected resource metadata (RFC 9728), and a small
// authorization server in the same process (RFC 8414 metadata, dynamic registration, an
// authorization endpoint that redirects at once with a code, a state and `iss`, and a token
// endpoint that takes each code once, checks PKCE S256 and issues refresh tokens).
// `deny` makes the authorization endpoint refuse (error=access_denied); `tokenFailure`
// makes the token endpoint answer with that status and text. Every request is recorded.
import { createHash, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"

function mcpServer() {
  const server = new Server({ name: "oauth-protected", version: "1.0.0" }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "whoami", description: "Says who is signed in", inputSchema: { type: "object" } }],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => ({
    content: [{ type: "text", text: `signed in as ${extra.authInfo?.clientId ?? "nobody"}` }],
  }))
  return server
}

const readBody = (req) =>
  new Promise((resolve) => {
    let text = ""
    req.on("data", (c) => (text += c))
    req.on("end", () => resolve(text))
  })

const s256 = (verifier) => createHash("sha256").update(verifier).digest("base64url")

export async function startOAuthServer(options = {}) {
  const state = { requests: [], codes: new Map(), tokens: new Map(), clients: new Map(), deny: false, tokenFailure: undefined, ...options }
  let base = ""
  const json = (res, status, body, headers = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers })
    res.end(JSON.stringify(body))
  }
  const http = createServer(async (req, res) => {
    const url = new URL(req.url, base)
    const body = req.method === "POST" ? await readBody(req) : ""
    state.requests.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body })
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ["tools"] })
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
        authorization_response_iss_parameter_supported: true,
      })
    }
    if (url.pathname === "/register" && req.method === "POST") {
      const meta = JSON.parse(body)
      const client = { client_id: `client-${randomUUID()}`, client_secret: `secret-${randomUUID()}`, redirect_uris: meta.redirect_uris }
      state.clients.set(client.client_id, client)
      return json(res, 201, client)
    }
    if (url.pathname === "/authorize") {
      const q = url.searchParams
      const back = new URL(q.get("redirect_uri"))
      if (state.deny) {
        back.searchParams.set("error", "access_denied")
      } else {
        const code = `code-${randomUUID()}`
        state.codes.set(code, { challenge: q.get("code_challenge"), client: q.get("client_id"), resource: q.get("resource") })
        back.searchParams.set("code", code)
      }
      back.searchParams.set("state", q.get("state"))
      back.searchParams.set("iss", base)
      res.writeHead(302, { location: back.href })
      return res.end()
    }
    if (url.pathname === "/token" && req.method === "POST") {
      if (state.tokenFailure) {
        res.writeHead(state.tokenFailure.status, { "content-type": "text/plain" })
        return res.end(state.tokenFailure.text)
      }
      const form = new URLSearchParams(body)
      const basic = (req.headers.authorization ?? "").replace(/^Basic /, "")
      const [id, secret] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent)
      const client = state.clients.get(id)
      if (!client || client.client_secret !== secret) return json(res, 401, { error: "invalid_client" })
      let grant
      if (form.get("grant_type") === "authorization_code") {
        grant = state.codes.get(form.get("code"))
        state.codes.delete(form.get("code"))
        if (!grant || s256(form.get("code_verifier") ?? "") !== grant.challenge) return json(res, 400, { error: "invalid_grant" })
      } else if (form.get("grant_type") === "refresh_token") {
        grant = state.tokens.get(form.get("refresh_token"))
        if (!grant) return json(res, 400, { error: "invalid_grant" })
      } else return json(res, 400, { error: "unsupported_grant_type" })
      const access = `access-${randomUUID()}`
      const refresh = `refresh-${randomUUID()}`
      state.tokens.set(access, { ...grant, client: id })
      state.tokens.set(refresh, { ...grant, client: id })
      return json(res, 200, { access_token: access, token_type: "Bearer", expires_in: 3600, refresh_token: refresh })
    }
    if (url.pathname === "/mcp") {
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "")
      const grant = state.tokens.get(token)
      if (!grant) {
        return json(res, 401, { error: "invalid_token" }, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` })
      }
      req.auth = { token, clientId: grant.client, scopes: [] }
      const server = mcpServer()
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      res.on("close", () => {
        transport.close()
        server.close()
      })
      await server.connect(transport)
      return transport.handleRequest(req, res, body ? JSON.parse(body) : undefined)
    }
    res.writeHead(404)
    res.end()
  })
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${http.address().port}`
  state.url = `${base}/mcp`
  state.base = base
  state.close = () => new Promise((resolve) => { http.closeAllConnections?.(); http.close(resolve) })
  return state
}
