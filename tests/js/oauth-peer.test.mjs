// The OAuth test peer (support/oauth-peer.mjs) proven with the official SDK's own OAuth client,
// before this package's client is pointed at it: the MCP server answers 401 with
// WWW-Authenticate naming its protected-resource metadata, the SDK discovers the authorization
// server, registers dynamically, sends the person to sign in with PKCE and the resource
// parameter, exchanges the code (the redirect carries `iss`), and lists and calls the tools
// with the token, which is bound to the MCP server (introspected: active, audience the server).
// A denied consent comes back as error=access_denied; a replayed code, a wrong verifier and a
// token for another resource are refused by the authorization server; a bad token is a 401.
import { after, before, describe, test } from "node:test"
import assert from "node:assert/strict"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { SCOPE, signInOverHttp, startOAuthPeer } from "./support/oauth-peer.mjs"

const REDIRECT = "http://127.0.0.1:9/callback"

/** The SDK's OAuthClientProvider, in memory; `authorizationUrl` is where it sent the person. */
class MemoryProvider {
  authorizationUrl = undefined
  #client
  #tokens
  #verifier
  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata() {
    return { client_name: "SDK proof", redirect_uris: [REDIRECT], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }
  }
  clientInformation() {
    return this.#client
  }
  saveClientInformation(info) {
    this.#client = info
  }
  tokens() {
    return this.#tokens
  }
  saveTokens(tokens) {
    this.#tokens = tokens
  }
  redirectToAuthorization(url) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier) {
    this.#verifier = verifier
  }
  codeVerifier() {
    return this.#verifier
  }
}

describe("the OAuth peer, through the official SDK's OAuth client", () => {
  let peer
  before(async () => {
    peer = await startOAuthPeer()
  })
  after(() => peer?.close())

  test("without a token: 401 with WWW-Authenticate naming the protected-resource metadata, which names the AS", async () => {
    const res = await fetch(peer.mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" })
    assert.equal(res.status, 401)
    assert.equal(
      res.headers.get("www-authenticate"),
      `Bearer error="invalid_token", error_description="Missing Authorization header", scope="${SCOPE}", resource_metadata="${peer.prmUrl}"`,
    )
    const prm = await (await fetch(peer.prmUrl)).json()
    assert.deepEqual(prm.authorization_servers, [peer.issuer])
    assert.equal(prm.resource, peer.mcpUrl)
    const as = await (await fetch(`${peer.issuer}/.well-known/oauth-authorization-server`)).json()
    assert.equal(as.issuer, peer.issuer)
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"])
    assert.equal(as.authorization_response_iss_parameter_supported, true)
    assert.ok(as.registration_endpoint, "dynamic registration is offered")
    const bad = await fetch(peer.mcpUrl, { method: "POST", headers: { authorization: "Bearer not-a-token", "content-type": "application/json" }, body: "{}" })
    assert.equal(bad.status, 401)
    assert.match(bad.headers.get("www-authenticate"), /error="invalid_token", error_description="The token is not active"/)
  })

  test("the SDK signs in (dynamic registration, PKCE, resource), then lists and calls the tools", async () => {
    const provider = new MemoryProvider()
    const first = new Client({ name: "sdk-proof", version: "1.0.0" })
    await assert.rejects(first.connect(new StreamableHTTPClientTransport(new URL(peer.mcpUrl), { authProvider: provider })), UnauthorizedError)
    const asked = provider.authorizationUrl
    assert.equal(asked.origin, peer.issuer)
    assert.equal(asked.searchParams.get("code_challenge_method"), "S256")
    assert.equal(asked.searchParams.get("resource"), peer.mcpUrl)
    assert.equal(asked.searchParams.get("client_id"), provider.clientInformation().client_id)
    assert.ok(peer.as.events.some((e) => e.event === "registered" && e.clientId === provider.clientInformation().client_id))

    const back = new URL(await signInOverHttp(asked.href, { stopAt: REDIRECT }))
    assert.equal(back.searchParams.get("iss"), peer.issuer)
    assert.equal(back.searchParams.get("state"), asked.searchParams.get("state"))
    const code = back.searchParams.get("code")
    const transport = new StreamableHTTPClientTransport(new URL(peer.mcpUrl), { authProvider: provider })
    await transport.finishAuth(code)
    assert.equal(provider.tokens().token_type.toLowerCase(), "bearer")

    const client = new Client({ name: "sdk-proof", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(peer.mcpUrl), { authProvider: provider }))
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ["whoami", "add"])
    const who = await client.callTool({ name: "whoami", arguments: {} })
    assert.equal(who.content[0].text, `signed in as ada (client ${provider.clientInformation().client_id})`)
    assert.equal((await client.callTool({ name: "add", arguments: { a: 40, b: 2 } })).content[0].text, "42")
    await client.close()
    assert.ok(peer.mcp.seen.some((s) => s.verdict === "active" && s.sub === "ada" && s.scope.split(" ").includes(SCOPE)))

    // The code was used once: the authorization server refuses it again.
    const again = await fetch(`${peer.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: provider.clientInformation().client_id, code_verifier: provider.codeVerifier() }),
    })
    assert.equal(again.status, 400)
    assert.equal((await again.json()).error, "invalid_grant")
  })

  test("a denied consent comes back as error=access_denied; a wrong verifier and another resource are refused", async () => {
    const provider = new MemoryProvider()
    await assert.rejects(new Client({ name: "deny", version: "1.0.0" }).connect(new StreamableHTTPClientTransport(new URL(peer.mcpUrl), { authProvider: provider })), UnauthorizedError)
    const denied = new URL(await signInOverHttp(provider.authorizationUrl.href, { stopAt: REDIRECT, consent: "deny" }))
    assert.equal(denied.searchParams.get("error"), "access_denied")
    assert.equal(denied.searchParams.get("code"), null)
    assert.equal(denied.searchParams.get("iss"), peer.issuer)

    const back = new URL(await signInOverHttp(provider.authorizationUrl.href, { stopAt: REDIRECT }))
    const token = (params) =>
      fetch(`${peer.issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code"), redirect_uri: REDIRECT, client_id: provider.clientInformation().client_id, ...params }),
      }).then(async (r) => ({ status: r.status, error: (await r.json()).error }))
    assert.deepEqual(await token({ code_verifier: "a".repeat(43) }), { status: 400, error: "invalid_grant" })

    const other = new URL(provider.authorizationUrl)
    other.searchParams.set("resource", "http://127.0.0.1:9/elsewhere")
    const refused = new URL(await signInOverHttp(other.href, { stopAt: REDIRECT }).catch((e) => `${REDIRECT}?thrown=${encodeURIComponent(e.message)}`))
    assert.equal(refused.searchParams.get("error"), "invalid_target")
  })
})
