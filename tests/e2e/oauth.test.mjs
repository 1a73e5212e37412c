// OAuth in a page, end to end in Chromium: tests/e2e/oauth-page/ (a page served on its own
// origin) uses an OAuth-protected MCP server (tests/js/support/oauth-peer.mjs: oidc-provider in
// front of the official SDK's server, each on its own origin) through createToolkit with an
// IndexedDbTokenStore, and a person (Playwright) signs in on the authorization server's own
// login and consent pages:
//   redirect  without waitFor the server is pending; the page goes to the sign-in, comes back to
//             a fresh load that resumes from IndexedDB, lists the tools and calls one; a later
//             load uses the stored token without signing in again.
//   popup     with waitFor the sign-in opens in a popup and createToolkit goes on by itself.
//   refused   a denied consent (error=access_denied) and a tampered state each end as a clear
//             error on the page, without a hang and without a token exchange.
// No token, refresh token or PKCE verifier (read back from the page's IndexedDB) appears in the
// page's console, its log, its error texts or the pending Request. Screenshots:
// target/e2e/oauth-*.png.
import assert from "node:assert/strict"
import { join } from "node:path"
import { after, before, describe, it } from "node:test"
import { openBrowser, repo, shots } from "./browser.mjs"
import { startServer } from "../../scripts/serve.mjs"
import { startOAuthPeer, USER } from "../js/support/oauth-peer.mjs"

/**
 * Starts the page's server, the peer (with `peerOptions(site)`) and a fresh browser; `ctx` gets
 * them, and every console line of the page and its popups.
 */
function harness(peerOptions = () => ({})) {
  const ctx = { console: [] }
  before(async () => {
    ctx.site = await startServer({ routes: { "/pkg/": join(repo, "pkg"), "/": join(repo, "tests", "e2e", "oauth-page") }, port: 0 })
    ;[ctx.peer, ctx.browser] = await Promise.all([startOAuthPeer(peerOptions(ctx.site)), openBrowser()])
    ctx.page = ctx.browser.page
    ctx.page.on("console", (m) => ctx.console.push(m.text()))
    ctx.page.context().on("page", (popup) => popup.on("console", (m) => ctx.console.push(m.text())))
  })
  after(async () => {
    await ctx.browser?.close()
    await ctx.site?.close()
    await ctx.peer?.close()
  })
  return ctx
}

const shot = (page, name) => page.screenshot({ path: join(shots, `oauth-${name}.png`), fullPage: true })
const statusOf = (page) => page.locator("#status").getAttribute("data-state")
/**
 * Waits for the page's status to settle (sign-in asked, ready or error; not `leaving`, the state
 * it is known to be moving on from) and asserts it is `state`, with the page's text and log.
 */
async function waitStatus(page, state, { leaving } = {}) {
  await page.waitForFunction(
    (leaving) => ["signin", "ready", "error"].filter((s) => s !== leaving).includes(document.querySelector("#status")?.dataset.state),
    leaving,
    { timeout: 30_000 },
  )
  assert.equal(await statusOf(page), state, `the page says: ${await page.textContent("#status")}\n${await page.textContent("#log")}`)
}
const count = (peer, event) => peer.as.events.filter((e) => e.event === event).length

/** Fills the authorization server's login page, then allows or denies on its consent page. */
async function signIn(page, ctx, name, consent = "allow") {
  await page.waitForURL((url) => url.href.startsWith(`${ctx.peer.issuer}/interaction/`), { timeout: 30_000 })
  // Signed in once already (the authorization server's session cookie), the login is skipped.
  await page.locator("#login, #allow").first().waitFor()
  if (await page.locator("#login").count()) {
    await shot(page, `${name}-login`)
    await page.fill("#login", USER.name)
    await page.fill("#password", USER.password)
    await page.click("#sign-in")
    await page.locator("#allow").waitFor()
  }
  assert.match(await page.textContent("#asks"), /mcp:tools on .*\/mcp/)
  await shot(page, `${name}-consent`)
  await page.click(consent === "deny" ? "#deny" : "#allow")
}

/** Every secret the page's IndexedDbTokenStore holds: string leaves under a key naming a token, verifier or secret. */
async function storedSecrets(page) {
  const values = await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open("oauth-page")
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains("tokens")) return resolve([])
          const all = db.transaction("tokens").objectStore("tokens").getAll()
          all.onsuccess = () => resolve(all.result)
          all.onerror = () => reject(all.error)
        }
      }),
  )
  const secrets = []
  const walk = (value, key = "") => {
    if (typeof value === "string" && /token|verifier|secret/i.test(key) && value.length >= 8) secrets.push(value)
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k)
  }
  for (const text of values) walk(JSON.parse(text))
  return secrets
}

/** Asserts none of `secrets` appears in any of `texts`. */
function assertNoSecrets(secrets, texts, where) {
  for (const secret of secrets) for (const text of texts) assert.ok(!String(text).includes(secret), `a stored secret appears in ${where}: ${String(text).slice(0, 200)}`)
}

describe("OAuth in a page: the redirect, a fresh load that resumes, and a stored token", () => {
  const ctx = harness()

  it("is sent to sign in, comes back to a fresh load that resumes from IndexedDB, and calls the tool", async () => {
    const { page, peer, site } = ctx
    await page.goto(`${site.url}?mode=redirect&mcp=${encodeURIComponent(peer.mcpUrl)}`)
    await waitStatus(page, "signin")
    const request = JSON.parse(await page.evaluate(() => sessionStorage.getItem("oauth-page:request")))
    assert.equal(request.kind, "authorization")
    assert.equal(new URL(request.url).origin, peer.issuer)
    assert.equal(new URL(request.url).searchParams.get("resource"), peer.mcpUrl)
    assert.equal(new URL(request.url).searchParams.get("code_challenge_method"), "S256")
    assert.deepEqual({ server: request.data.server, issuer: request.data.issuer, resource: request.data.resource }, { server: "notes", issuer: peer.issuer, resource: peer.mcpUrl })
    assert.equal(request.data.state, new URL(request.url).searchParams.get("state"))
    await shot(page, "redirect-1-pending")

    await page.click("#sign-in")
    await signIn(page, ctx, "redirect-2")
    await waitStatus(page, "ready")
    assert.equal(page.url(), site.url, "the code is gone from the address bar")
    assert.match(await page.textContent("#result"), /^signed in as ada \(client [\w-]+\)$/)
    assert.deepEqual((await page.textContent("#tools")).split("\n"), ["notes_whoami", "notes_add"])
    await shot(page, "redirect-3-resumed")
    assert.equal(count(peer, "token"), 1, "one code exchanged")
    assert.ok(peer.mcp.seen.some((s) => s.verdict === "active" && s.sub === "ada"))

    const secrets = await storedSecrets(page)
    assert.ok(secrets.length >= 1, "the token is in the page's IndexedDB")
    assertNoSecrets(secrets, [...ctx.console, await page.textContent("#log"), JSON.stringify(request)], "the page's console, log or Request")
  })

  it("a second load uses the stored token: no sign-in, no token request", async () => {
    const { page, peer, site } = ctx
    const [logins, tokens] = [count(peer, "login"), count(peer, "token")]
    const visited = []
    const onRequest = (r) => r.isNavigationRequest() && visited.push(r.url())
    page.on("request", onRequest)
    await page.goto(site.url)
    await waitStatus(page, "ready")
    page.off("request", onRequest)
    assert.match(await page.textContent("#result"), /^signed in as ada/)
    assert.deepEqual(visited, [site.url], "the page never left for the authorization server")
    assert.deepEqual([count(peer, "login"), count(peer, "token")], [logins, tokens])
    await shot(page, "redirect-4-stored-token")
    assertNoSecrets(await storedSecrets(page), ctx.console, "the page's console")
  })
})

describe("OAuth in a page: waitFor signs in through a popup", () => {
  const ctx = harness()

  it("createToolkit waits for the popup's sign-in, then lists and calls the tool", async () => {
    const { page, peer, site } = ctx
    await page.goto(`${site.url}?mode=popup&mcp=${encodeURIComponent(peer.mcpUrl)}`)
    await waitStatus(page, "signin")
    await shot(page, "popup-1-asked")
    const [popup] = await Promise.all([page.waitForEvent("popup"), page.click("#sign-in")])
    await signIn(popup, ctx, "popup-2")
    await waitStatus(page, "ready", { leaving: "signin" })
    assert.equal(popup.isClosed(), true, "the popup closed itself")
    assert.match(await page.textContent("#result"), /^signed in as ada \(client [\w-]+\)$/)
    await shot(page, "popup-3-ready")
    assertNoSecrets(await storedSecrets(page), [...ctx.console, await page.textContent("#log")], "the page's console or log")
  })
})

describe("OAuth in a page, a pre-registered client: no registration from the page, a denied consent and a tampered state end as clear errors", () => {
  // oidc-provider's own registration endpoint, without CORS: a page cannot register there.
  const CLIENT = "toolnexus-e2e-page"
  const ctx = harness((site) => ({
    registrationCors: false,
    preRegistered: [{ client_id: CLIENT, token_endpoint_auth_method: "none", redirect_uris: [site.url], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] }],
  }))

  it("an authorization server that refuses the page's registration: the server fails, saying so", async () => {
    const { page, peer, site } = ctx
    await page.goto(`${site.url}?mode=redirect&mcp=${encodeURIComponent(peer.mcpUrl)}`)
    await waitStatus(page, "error")
    assert.equal(await page.textContent("#status"), "failed: authorization failed: the client registration failed: Failed to fetch")
    await shot(page, "no-registration-error")
  })

  it("error=access_denied from the consent page: a clear error, no token exchange", async () => {
    const { page, peer, site } = ctx
    await page.goto(`${site.url}?mode=redirect&client=${CLIENT}&mcp=${encodeURIComponent(peer.mcpUrl)}`)
    await waitStatus(page, "signin")
    await page.click("#sign-in")
    await signIn(page, ctx, "denied", "deny")
    await waitStatus(page, "error")
    const text = await page.textContent("#status")
    assert.match(text, /access_denied/)
    assert.equal(count(peer, "denied"), 1)
    assert.equal(count(peer, "token"), 0)
    await shot(page, "denied-error")
  })

  it("a state that does not match the pending sign-in: refused, the code never exchanged", async () => {
    const { page, peer, site } = ctx
    await page.goto(site.url)
    await waitStatus(page, "signin")
    // The redirect back to the page arrives with its state changed, as a forged one would.
    peer.as.hooks.rewriteRedirect = (location) => {
      const tampered = new URL(location)
      tampered.searchParams.set("state", `${tampered.searchParams.get("state")}x`)
      return tampered.href
    }
    await page.click("#sign-in")
    await signIn(page, ctx, "tampered")
    await waitStatus(page, "error")
    const text = await page.textContent("#status")
    // The fresh load finds no sign-in waiting for that state (the redirect's state names the flow).
    assert.match(text, /^invalid_argument: mcpResume: no MCP server waits for the sign-in this answer is for \(request id "[\w-]+"\)$/)
    assert.equal(count(peer, "token"), 0, "the code was not exchanged")
    assert.equal(await statusOf(page), "error")
    await shot(page, "tampered-error")
    assertNoSecrets(await storedSecrets(page), [...ctx.console, text], "the page's console or error")
  })
})
