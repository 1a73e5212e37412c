// The machine-to-machine OAuth grants through the public API: an authorization server and a
// protected MCP server (the official SDK's, behind a bearer gate) on 127.0.0.1; the client
// credentials grant with a secret and with a private key (the client assertion verified here
// with node:crypto, independently of WebCrypto), the JWT bearer grant; bad input (a token
// endpoint answering 500 or garbage, a key that cannot sign, a missing credential) failing only
// that server, its reason in mcpErrors() and never a secret. Also WebCrypto's signer
// (src/js/webcrypto.js) checked against node:crypto's verification.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { createServer } from "node:http"
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from "node:crypto"
import { createToolkit } from "../../pkg/node.mjs"
import { generateSigningKey, importSigningKey, signJws } from "../../src/js/webcrypto.js"
import { startMcpServer } from "./support/mcp-server.mjs"

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
const privateJwk = privateKey.export({ format: "jwk" })
const privatePem = privateKey.export({ format: "pem", type: "pkcs8" })
const SECRET = "m2m-secret-do-not-leak"

const b64url = (text) => Buffer.from(text, "base64url")
const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(typeof body === "string" ? body : JSON.stringify(body))
}

/** Checks a compact ES256 JWS with `key`; its claims, or a reason. */
function checkJws(jwt, key) {
  const [h, c, s] = String(jwt).split(".")
  const ok = verify("sha256", Buffer.from(`${h}.${c}`), { key, dsaEncoding: "ieee-p1363" }, b64url(s))
  return ok ? { header: JSON.parse(b64url(h)), claims: JSON.parse(b64url(c)) } : { error: "bad signature" }
}

let mcp
let gate
let tokenAnswer = null
const tokenRequests = []
const issued = new Set()

before(async () => {
  mcp = await startMcpServer()
  gate = createServer(async (req, res) => {
    const base = `http://127.0.0.1:${gate.address().port}`
    const chunks = []
    for await (const chunk of req) chunks.push(chunk)
    const body = Buffer.concat(chunks).toString()
    if (req.url === "/.well-known/oauth-protected-resource/mcp") return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] })
    if (req.url === "/.well-known/oauth-authorization-server") {
      // A server for grants without a person: no authorization endpoint (RFC 8414 §2).
      return json(res, 200, { issuer: base, token_endpoint: `${base}/token`, grant_types_supported: ["client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"], token_endpoint_auth_methods_supported: ["client_secret_basic", "private_key_jwt"] })
    }
    if (req.url === "/token") {
      const form = Object.fromEntries(new URLSearchParams(body))
      tokenRequests.push({ form, authorization: req.headers.authorization })
      if (tokenAnswer) return tokenAnswer(res)
      let who
      if (form.client_assertion) {
        const checked = checkJws(form.client_assertion, publicKey)
        if (checked.error || checked.claims.aud !== base || checked.claims.iss !== "svc") return json(res, 401, { error: "invalid_client" })
        who = checked.claims.sub
      } else if (form.grant_type === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
        who = form.assertion === "workload.jwt.value" ? "workload" : null
      } else {
        const [id, secret] = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString().split(":")
        who = secret === SECRET ? id : null
      }
      if (!who) return json(res, 401, { error: "invalid_client" })
      const token = `tok-${who}-${issued.size}`
      issued.add(token)
      return json(res, 200, { access_token: token, token_type: "Bearer", expires_in: 3600 })
    }
    if (req.url === "/mcp") {
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "")
      if (!issued.has(token)) return json(res, 401, { error: "invalid_token" }, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` })
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "content-length", "authorization", "connection"].includes(k)))
      const answer = await fetch(mcp.url("/json"), { method: req.method, headers, body: req.method === "POST" ? body : undefined })
      res.writeHead(answer.status, Object.fromEntries(answer.headers))
      return res.end(Buffer.from(await answer.arrayBuffer()))
    }
    json(res, 404, { error: "not found" })
  })
  await new Promise((resolve) => gate.listen(0, "127.0.0.1", resolve))
})

after(async () => {
  await new Promise((resolve) => gate.close(resolve))
  await mcp.close()
})

const url = () => `http://127.0.0.1:${gate.address().port}/mcp`

async function connect(auth) {
  return createToolkit({ builtins: false, mcpConfig: { mcpServers: { svc: { url: url(), timeout: 10_000, auth }, other: { url: mcp.url("/mcp") } } } })
}

test("client credentials with a secret: Basic at the token endpoint, the tool called with the token", async () => {
  tokenRequests.length = 0
  const toolkit = await connect({ grant: "client_credentials", clientId: "svc", clientSecret: SECRET })
  try {
    assert.deepEqual(toolkit.mcpStatus(), { svc: "connected", other: "connected" })
    assert.equal((await toolkit.execute("svc_echo", { text: "hi" })).output, "echo: hi")
    assert.equal(tokenRequests.length, 1)
    assert.equal(tokenRequests[0].form.grant_type, "client_credentials")
    assert.equal(tokenRequests[0].form.resource, url())
  } finally {
    await toolkit.close()
  }
})

test("client credentials with a private key (JWK and PEM): the assertion verifies with node:crypto", async () => {
  for (const key of [privateJwk, privatePem]) {
    tokenRequests.length = 0
    const toolkit = await connect({ grant: "client_credentials", clientId: "svc", privateKey: key })
    try {
      assert.equal(toolkit.mcpStatus().svc, "connected", toolkit.mcpErrors().svc)
      const { form } = tokenRequests[0]
      assert.equal(form.client_assertion_type, "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
      const { header, claims } = checkJws(form.client_assertion, publicKey)
      assert.equal(header.alg, "ES256")
      assert.equal(claims.sub, "svc")
      assert.equal(claims.exp - claims.iat, 300)
    } finally {
      await toolkit.close()
    }
  }
})

test("the JWT bearer grant sends the workload's assertion", async () => {
  tokenRequests.length = 0
  const toolkit = await connect({ grant: "jwt_bearer", clientId: "wl", assertion: "workload.jwt.value" })
  try {
    assert.equal(toolkit.mcpStatus().svc, "connected", toolkit.mcpErrors().svc)
    assert.equal(tokenRequests[0].form.assertion, "workload.jwt.value")
  } finally {
    await toolkit.close()
  }
})

test("bad input fails that server only, with a reason and no secret", async () => {
  const cases = [
    [(res) => json(res, 500, `<html>oops ${SECRET}</html>`), /the token endpoint answered HTTP 500/],
    [(res) => json(res, 200, "not json at all"), /not a JSON object/],
    [(res) => json(res, 401, { error: "invalid_client", error_description: `wrong secret ${SECRET}` }), /invalid_client \(wrong secret \[redacted\]\)/],
  ]
  for (const [answer, reason] of cases) {
    tokenAnswer = answer
    const toolkit = await connect({ grant: "client_credentials", clientId: "svc", clientSecret: SECRET })
    try {
      assert.deepEqual(toolkit.mcpStatus(), { svc: "failed", other: "connected" })
      assert.match(toolkit.mcpErrors().svc, reason)
      assert.doesNotMatch(JSON.stringify(toolkit.mcpErrors()), new RegExp(SECRET))
      assert.equal((await toolkit.execute("other_echo", { text: "still" })).output, "echo: still")
    } finally {
      await toolkit.close()
      tokenAnswer = null
    }
  }
  const broken = { ...privateJwk, d: Buffer.alloc(32, 0xff).toString("base64url") }
  const bad = [
    [{ grant: "client_credentials", clientId: "svc", privateKey: broken }, /"auth.privateKey" cannot sign ES256/],
    [{ grant: "client_credentials", clientId: "svc" }, /needs "auth.clientSecret" or "auth.privateKey"/],
    [{ grant: "client_credentials", clientId: "svc", privateKey: { kty: "EC", crv: "P-256", x: privateJwk.x, y: privateJwk.y } }, /is a public JWK/],
  ]
  for (const [auth, reason] of bad) {
    const toolkit = await connect(auth)
    try {
      assert.equal(toolkit.mcpStatus().svc, "failed")
      assert.match(toolkit.mcpErrors().svc, reason)
      assert.doesNotMatch(toolkit.mcpErrors().svc, new RegExp(privateJwk.d))
      assert.equal(toolkit.mcpStatus().other, "connected")
    } finally {
      await toolkit.close()
    }
  }
})

test("WebCrypto signing (src/js/webcrypto.js) verifies with node:crypto", async () => {
  const input = new TextEncoder().encode("header.claims")
  const jwkKey = await importSigningKey("jwk", privateJwk, "ES256")
  const der = createPrivateKey(privatePem).export({ format: "der", type: "pkcs8" })
  const pemKey = await importSigningKey("pkcs8", new Uint8Array(der), "ES256")
  for (const key of [jwkKey, pemKey]) {
    const signature = await signJws(key, "ES256", input)
    assert.equal(signature.length, 64, "r || s")
    assert.ok(verify("sha256", input, { key: publicKey, dsaEncoding: "ieee-p1363" }, signature))
    assert.ok(!verify("sha256", new TextEncoder().encode("header.claimz"), { key: publicKey, dsaEncoding: "ieee-p1363" }, signature))
  }
  const [dpopKey, publicJwk] = await generateSigningKey("ES256")
  const jwk = JSON.parse(publicJwk)
  assert.equal(jwk.d, undefined)
  const signature = await signJws(dpopKey, "ES256", input)
  assert.ok(verify("sha256", input, { key: createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" }, signature))
  await assert.rejects(importSigningKey("jwk", { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y }, "ES256"), (error) => !String(error.message).includes(jwk.x))
  await assert.rejects(importSigningKey("jwk", privateJwk, "HS256"), /unsupported signing algorithm HS256/)
})
