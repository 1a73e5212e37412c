// A real OAuth-protected MCP server for the tests, on 127.0.0.1, two origins:
//   the authorization server: `oidc-provider` (OpenID Foundation-certified), with dynamic client
//     registration (RFC 7591), PKCE required (S256), resource indicators (RFC 8707: every access
//     token is bound to the MCP server's URL as its audience, and a token asked for another
//     resource is refused), the `iss` authorization response parameter (RFC 9207), token
//     introspection (RFC 7662) for the resource server, refresh tokens with `offline_access`,
//     CORS for public clients from their redirect URIs' origins (and at the registration
//     endpoint, unless `registrationCors: false`), and a login and consent of its
//     own (below) that a person, Playwright, or `signInOverHttp` fills in: user "ada", password
//     "lovelace"; the consent page has "Allow" and "Deny" (which ends in error=access_denied).
//   the MCP server: the official SDK's McpServer behind StreamableHTTPServerTransport, behind the
//     SDK's `requireBearerAuth`, which answers 401 with `WWW-Authenticate: Bearer ...
//     resource_metadata="<PRM URL>"` and verifies each bearer token by introspecting it at the
//     authorization server (active, audience this server, scope `mcp:tools`); the protected
//     resource metadata (RFC 9728) at /.well-known/oauth-protected-resource/mcp. CORS as a page
//     needs it (Authorization allowed; WWW-Authenticate and Mcp-Session-Id exposed).
// Tools: `whoami` (the signed-in subject and the client the token was issued to) and `add`.
// Nothing here logs or records a token: `mcp.seen` keeps what each request's verification
// decided, without the token.
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import express from "express"
import Provider, { errors } from "oidc-provider"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js"
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js"
import { z } from "zod"

export const USER = { name: "ada", password: "lovelace" }
export const SCOPE = "mcp:tools"
const RESOURCE_SERVER = { id: "mcp-resource-server", secret: randomBytes(24).toString("base64url") }

const listen = (server) => new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`)))
const close = (server) => {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(resolve))
}
const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The sign-in pages: one HTML document with a heading, a form posting to `action`, and its buttons. */
function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,"><style>
body{font:16px system-ui,sans-serif;background:#f3f4f8;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;padding:28px 32px;box-shadow:0 4px 24px #0002;width:360px}
h1{font-size:20px;margin:0 0 6px}p{color:#555;margin:0 0 16px}label{display:block;margin:10px 0}
input{display:block;width:100%;box-sizing:border-box;padding:8px;margin-top:4px;font:inherit}
.buttons{display:flex;gap:10px;justify-content:flex-end;margin-top:18px}
button{font:inherit;padding:8px 16px;border-radius:8px;border:1px solid #888;background:#fff}
button.primary{background:#2d5bd7;border-color:#2d5bd7;color:#fff}.error{color:#b00020}
</style></head><body><main>${body}</main></body></html>`
}

function loginPage(uid, client, error) {
  return page(
    "Sign in · Test AS",
    `<h1>Sign in</h1><p>to continue to <strong>${escapeHtml(client)}</strong></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${uid}/login" autocomplete="off">
<label>User <input name="login" id="login" required></label>
<label>Password <input name="password" id="password" type="password" required></label>
<div class="buttons"><button type="submit" class="primary" id="sign-in">Sign in</button></div></form>`,
  )
}

function consentPage(uid, client, resources) {
  const asks = Object.entries(resources)
    .map(([resource, scopes]) => `<li><code>${escapeHtml(scopes.join(" "))}</code> on <code>${escapeHtml(resource)}</code></li>`)
    .join("")
  return page(
    "Allow access · Test AS",
    `<h1>Allow access?</h1><p><strong>${escapeHtml(client)}</strong> asks for:</p><ul id="asks">${asks}</ul>
<form method="post" action="/interaction/${uid}/confirm"><div class="buttons">
<button type="submit" formaction="/interaction/${uid}/abort" id="deny">Deny</button>
<button type="submit" class="primary" id="allow">Allow</button></div></form>`,
  )
}

async function formBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"))
}

/**
 * Starts the authorization server for one protected resource (`resource`, the MCP server's URL,
 * known before it listens: `startOAuthPeer` reserves both ports first). Resolves to
 * {issuer, provider, close()}; `events` lists what it did ("registered", "login", "consent",
 * "denied", "token", "introspection") with no secret in them.
 */
async function startAuthorizationServer(http, issuer, resource, { preRegistered = [], registrationCors = true } = {}) {
  const events = []
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: RESOURCE_SERVER.id,
        client_secret: RESOURCE_SERVER.secret,
        redirect_uris: [],
        response_types: [],
        grant_types: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
      ...preRegistered,
    ],
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    jwks: { keys: [{ ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256", kid: "test" }] },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, ClientCredentials: 600, Grant: 3600, IdToken: 3600, Interaction: 600, RefreshToken: 86400, Session: 3600 },
    findAccount: async (_ctx, sub) => (sub === USER.name ? { accountId: sub, claims: async () => ({ sub }) } : undefined),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Dynamic registration checks a client's `scope` against these; the resource server's own is SCOPE.
    scopes: ["openid", "offline_access", SCOPE],
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: {
        enabled: true,
        // Only the resource server learns what a token is.
        allowedPolicy: async (_ctx, client) => client.clientId === RESOURCE_SERVER.id,
      },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets a token for the MCP server (the only one here).
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`unknown resource ${indicator}`)
          return { scope: SCOPE, audience: resource, accessTokenTTL: 3600, accessTokenFormat: "opaque" }
        },
      },
    },
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access"),
  })
  // oidc-provider answers no CORS at its registration endpoint; an authorization server that
  // lets pages register (as MCP's dynamic registration from a browser needs) does. Without
  // (`registrationCors: false`) a page cannot register and must use a pre-registered client.
  if (registrationCors) {
    provider.use(async (ctx, next) => {
      if (ctx.path !== "/reg") return next()
      ctx.set("access-control-allow-origin", "*")
      if (ctx.method !== "OPTIONS") return next()
      ctx.set("access-control-allow-methods", "POST")
      ctx.set("access-control-allow-headers", "content-type, authorization")
      ctx.status = 204
    })
  }
  // A test's man in the middle: `hooks.rewriteRedirect(url)`, once set, rewrites the next
  // redirect that carries an authorization code back to the client (then unsets itself).
  const hooks = { rewriteRedirect: undefined }
  provider.use(async (ctx, next) => {
    await next()
    const location = ctx.response.get("location")
    if (!hooks.rewriteRedirect || !location || !URL.parse(location)?.searchParams.has("code")) return
    const rewrite = hooks.rewriteRedirect
    hooks.rewriteRedirect = undefined
    ctx.set("location", rewrite(location))
  })
  provider.on("registration_create.success", (_ctx, client) => events.push({ event: "registered", clientId: client.clientId, redirectUris: client.redirectUris }))
  const grants = new Set()
  provider.on("grant.success", (ctx) => {
    const grantId = ctx.oidc.entities.AccessToken?.grantId
    if (grantId) grants.add(grantId)
    events.push({ event: "token", grant: ctx.oidc.params.grant_type, resource: ctx.oidc.params.resource ?? null })
  })
  provider.on("grant.error", (ctx, error) => events.push({ event: "token-refused", grant: ctx.oidc.params?.grant_type, error: error.error }))
  provider.on("introspection.success", () => events.push({ event: "introspection" }))

  const interaction = async (req, res, path) => {
    const [, uid, action] = path.split("/").slice(1)
    const details = await provider.interactionDetails(req, res)
    if (details.uid !== uid) throw new Error("interaction mismatch")
    const client = (await provider.Client.find(details.params.client_id))?.clientName ?? details.params.client_id
    const html = (body) => res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(body)
    if (req.method === "GET" && action === undefined) {
      if (details.prompt.name === "login") return html(loginPage(uid, client))
      return html(consentPage(uid, client, details.prompt.details.missingResourceScopes ?? {}))
    }
    if (req.method !== "POST") return res.writeHead(405).end()
    if (action === "login") {
      const form = await formBody(req)
      if (form.get("login") !== USER.name || form.get("password") !== USER.password) return html(loginPage(uid, client, "Wrong user or password"))
      events.push({ event: "login", user: USER.name })
      return provider.interactionFinished(req, res, { login: { accountId: USER.name } }, { mergeWithLastSubmission: false })
    }
    if (action === "abort") {
      events.push({ event: "denied" })
      return provider.interactionFinished(req, res, { error: "access_denied", error_description: "The user denied access" }, { mergeWithLastSubmission: false })
    }
    if (action === "confirm") {
      const { prompt, params, session, grantId } = details
      const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session.accountId, clientId: params.client_id })
      if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(" "))
      if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims)
      for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "))
      const saved = await grant.save()
      events.push({ event: "consent", resources: Object.keys(prompt.details.missingResourceScopes ?? {}) })
      return provider.interactionFinished(req, res, { consent: grantId ? {} : { grantId: saved } }, { mergeWithLastSubmission: true })
    }
    return res.writeHead(404).end()
  }

  const handler = provider.callback()
  http.on("request", (req, res) => {
    const path = new URL(req.url ?? "/", issuer).pathname
    if (!path.startsWith("/interaction/")) return handler(req, res)
    interaction(req, res, path).catch((error) => {
      if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end(`sign-in failed: ${error.message}`)
    })
  })
  /** Revokes every grant (as a person withdrawing the app's access would): its tokens stop working. */
  const revokeAll = async () => {
    for (const id of grants) await (await provider.Grant.find(id))?.destroy()
    grants.clear()
  }
  return { issuer, provider, events, hooks, revokeAll }
}

/** What introspection at `issuer` says of `token`, as the SDK's AuthInfo, else InvalidTokenError. */
async function introspect(issuer, resource, token, seen) {
  const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()
  const answer = await fetch(metadata.introspection_endpoint, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${RESOURCE_SERVER.id}:${RESOURCE_SERVER.secret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ token }),
  })
  const info = await answer.json()
  const audiences = [info.aud ?? []].flat()
  const verdict = !info.active ? "inactive" : !audiences.includes(resource) ? "wrong-audience" : "active"
  seen.push({ verdict, client: info.client_id ?? null, sub: info.sub ?? null, scope: info.scope ?? null })
  if (verdict !== "active") throw new InvalidTokenError(verdict === "inactive" ? "The token is not active" : "The token was not issued for this resource")
  return { token, clientId: info.client_id, scopes: String(info.scope ?? "").split(" ").filter(Boolean), expiresAt: info.exp, resource: new URL(resource), extra: { sub: info.sub } }
}

/** The MCP tools behind the bearer check. */
function toolServer() {
  const mcp = new McpServer({ name: "protected-notes", version: "1.0.0" })
  mcp.registerTool("whoami", { description: "Who the bearer token was issued to" }, async (extra) => ({
    content: [{ type: "text", text: `signed in as ${extra.authInfo?.extra?.sub} (client ${extra.authInfo?.clientId})` }],
  }))
  mcp.registerTool("add", { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }))
  return mcp.server
}

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id",
  "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
}

/**
 * Starts the authorization server and the protected MCP server. Resolves to
 * {issuer, mcpUrl, prmUrl, as: {events, provider}, mcp: {seen, requests}, close()}.
 * `options.preRegistered`: extra oidc-provider client records (a pre-registered public client);
 * `options.registrationCors: false`: no CORS at the registration endpoint (oidc-provider's own).
 */
export async function startOAuthPeer(options = {}) {
  const asHttp = createServer()
  const mcpHttp = createServer()
  const [issuer, mcpBase] = await Promise.all([listen(asHttp), listen(mcpHttp)])
  const mcpUrl = `${mcpBase}/mcp`
  const prmUrl = `${mcpBase}/.well-known/oauth-protected-resource/mcp`
  const as = await startAuthorizationServer(asHttp, issuer, mcpUrl, options)

  const seen = []
  const requests = []
  const transports = new Map()
  const app = express()
  app.use((req, res, next) => {
    res.set(CORS)
    requests.push({ method: req.method, path: req.path, bearer: /^Bearer /i.test(req.headers.authorization ?? "") })
    if (req.method === "OPTIONS") return res.status(204).end()
    next()
  })
  app.get("/.well-known/oauth-protected-resource/mcp", (_req, res) =>
    res.json({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: [SCOPE, "offline_access"], bearer_methods_supported: ["header"], resource_name: "Protected notes" }),
  )
  const verifier = { verifyAccessToken: (token) => introspect(issuer, mcpUrl, token, seen) }
  app.all("/mcp", requireBearerAuth({ verifier, requiredScopes: [SCOPE], resourceMetadataUrl: prmUrl, expectedResource: new URL(mcpUrl) }), express.json(), async (req, res) => {
    const id = req.headers["mcp-session-id"]
    let transport = id ? transports.get(id) : undefined
    if (!transport) {
      if (id) return res.status(404).json({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null })
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => transports.set(sid, transport) })
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId)
      await toolServer().connect(transport)
    }
    await transport.handleRequest(req, res, req.body)
  })
  mcpHttp.on("request", app)

  return {
    issuer,
    mcpUrl,
    prmUrl,
    as,
    mcp: { seen, requests },
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {})
      await Promise.all([close(asHttp), close(mcpHttp)])
    },
  }
}

/**
 * Signs in as a person would, over plain HTTP (cookies kept, redirects followed by hand): opens
 * `authorizationUrl`, logs in as `user`, then allows (or, with `consent: "deny"`, denies) and
 * resolves to the URL the authorization server sent the browser back to (the client's redirect
 * URI with `code`, `state` and `iss`, or `error`). `stopAt` is that redirect URI's prefix.
 */
export async function signInOverHttp(authorizationUrl, { stopAt, user = USER, consent = "allow" }) {
  const jar = new Map()
  const send = async (url, init = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
    const res = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, ...(cookie ? { cookie } : {}) } })
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair.indexOf("=")
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim())
    }
    return res
  }
  let url = authorizationUrl
  let init = {}
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(stopAt)) return url
    const res = await send(url, init)
    init = {}
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location"), url).href
      await res.arrayBuffer()
      continue
    }
    const html = await res.text()
    if (res.status !== 200) throw new Error(`sign-in: ${url} answered ${res.status}: ${html.slice(0, 200)}`)
    const form = { "content-type": "application/x-www-form-urlencoded" }
    if (html.includes('id="sign-in"')) {
      url = new URL(html.match(/action="([^"]+\/login)"/)[1], url).href
      init = { method: "POST", headers: form, body: new URLSearchParams({ login: user.name, password: user.password }).toString() }
    } else if (html.includes('id="allow"')) {
      const action = html.match(/action="([^"]+\/confirm)"/)[1]
      url = new URL(consent === "deny" ? action.replace(/\/confirm$/, "/abort") : action, url).href
      init = { method: "POST", headers: form, body: "" }
    } else {
      throw new Error(`sign-in: unexpected page at ${url}: ${html.slice(0, 200)}`)
    }
  }
  throw new Error("sign-in: too many steps")
}
