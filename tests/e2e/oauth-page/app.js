// A page that uses an OAuth-protected MCP server (tests/e2e/oauth.test.mjs drives it). The
// toolkit keeps its tokens, registered client and pending sign-ins in IndexedDB
// (IndexedDbTokenStore), so they outlive a reload and the trip to the sign-in page. Two ways
// to sign in, chosen by `?mode=` on the first load (kept in localStorage with `?mcp=`, the
// server's URL, and `?client=`, a pre-registered client id, since the authorization server
// sends the page back without them):
//   popup     createToolkit's `waitFor` answers the "authorization" Request: a "Sign in" button
//             opens request.url in a popup; callback.html hands back the URL the sign-in ended
//             at, and createToolkit goes on (token exchange, connect) in the same page load.
//   redirect  no waitFor: the server is pending after createToolkit; the page keeps the Request
//             (plain JSON) in sessionStorage and links to request.url. The authorization server
//             sends the page back here with ?code&state&iss (or ?error); this fresh load
//             answers the kept Request with that URL through toolkit.mcpResume.
// Either way it then lists the tools and calls `notes_whoami`. Nothing here ever sees a token;
// the log shows steps, never the code.
import { createToolkit, IndexedDbTokenStore } from "/pkg/index.js"

const $ = (selector) => document.querySelector(selector)
const SERVER = "notes"

const here = new URL(location.href)
if (here.searchParams.has("mcp")) {
  localStorage.setItem("oauth-page:mcp", here.searchParams.get("mcp"))
  localStorage.setItem("oauth-page:mode", here.searchParams.get("mode") ?? "redirect")
  localStorage.setItem("oauth-page:client", here.searchParams.get("client") ?? "")
}
const mcpUrl = localStorage.getItem("oauth-page:mcp")
const mode = localStorage.getItem("oauth-page:mode") ?? "redirect"
/** A pre-registered client id (`?client=`), else the page registers itself (RFC 7591). */
const clientId = localStorage.getItem("oauth-page:client") || undefined
const returned = here.searchParams.has("state") && (here.searchParams.has("code") || here.searchParams.has("error"))

function log(line) {
  console.log(`[oauth-page] ${line}`)
  $("#log").textContent += `${line}\n`
}

function status(state, text) {
  $("#status").dataset.state = state
  $("#status").textContent = text
}

/** The pending sign-in Requests of the toolkit's servers. */
function pendingRequests(toolkit) {
  const pending = toolkit.mcpPending()
  return Array.isArray(pending) ? pending : Object.values(pending ?? {})
}

/** waitFor (popup mode): a "Sign in" button that opens the sign-in in a popup; resolves with where it came back to. */
function popupSignIn(request) {
  if (request.kind !== "authorization") return { id: request.id, ok: false, reason: "declined" }
  log(`asked to sign in: ${request.prompt}`)
  status("signin", request.prompt)
  const button = $("#sign-in")
  button.textContent = request.prompt
  button.hidden = false
  return new Promise((resolve) => {
    button.onclick = (event) => {
      event.preventDefault()
      button.hidden = true
      const popup = window.open(request.url, "oauth-sign-in", "popup,width=520,height=680")
      const done = (answer) => {
        window.removeEventListener("message", onMessage)
        clearInterval(watch)
        resolve(answer)
      }
      const onMessage = (message) => {
        if (message.origin !== location.origin || typeof message.data?.oauthRedirect !== "string") return
        log("the popup came back")
        popup?.close()
        done({ id: request.id, ok: true, data: { url: message.data.oauthRedirect } })
      }
      window.addEventListener("message", onMessage)
      // A popup the person closes without finishing is a cancelled sign-in, not a wait forever
      // (callback.html never closes itself: the popup is closed here once its URL arrived).
      const watch = setInterval(() => popup?.closed && done({ id: request.id, ok: false, reason: "cancelled" }), 500)
    }
  })
}

async function useTools(toolkit) {
  const names = toolkit.tools().map((t) => t.name)
  $("#tools").textContent = names.join("\n")
  log(`tools: ${names.join(", ")}`)
  const result = await toolkit.execute(`${SERVER}_whoami`, {})
  $("#result").textContent = result.output
  $("#result").dataset.state = result.isError ? "error" : "ok"
  log(`whoami: ${result.output}`)
  status("ready", `Connected: ${names.length} tools`)
}

async function main() {
  $("#mode").textContent = mode
  $("#server").textContent = mcpUrl ?? "(none)"
  if (!mcpUrl) return status("error", "no ?mcp= server given")
  const tokenStore = new IndexedDbTokenStore("oauth-page")
  const redirectUrl = mode === "popup" ? `${location.origin}/callback.html` : `${location.origin}/`
  const mcpConfig = { mcpServers: { [SERVER]: { url: mcpUrl, timeout: 15_000, auth: { redirectUrl, clientName: "toolnexus e2e page", clientId } } } }
  const toolkit = await createToolkit({ builtins: false, mcpConfig, tokenStore, ...(mode === "popup" ? { waitFor: popupSignIn } : {}) })
  window.toolkit = toolkit
  if (mode === "redirect" && returned) {
    const kept = JSON.parse(sessionStorage.getItem("oauth-page:request") ?? "null")
    sessionStorage.removeItem("oauth-page:request")
    // The code is single-use and no business of the address bar or the history.
    history.replaceState(null, "", location.pathname)
    if (!kept) return status("error", "came back from sign-in, but no sign-in was pending in this tab")
    log("came back from the sign-in: resuming")
    await toolkit.mcpResume({ id: kept.id, ok: true, data: { url: here.href } })
  } else if (toolkit.mcpStatus()[SERVER] === "pending") {
    const [request] = pendingRequests(toolkit)
    sessionStorage.setItem("oauth-page:request", JSON.stringify(request))
    log(`asked to sign in: ${request.prompt}`)
    status("signin", request.prompt)
    const link = $("#sign-in")
    link.href = request.url
    link.textContent = request.prompt
    link.hidden = false
    return
  }
  const state = toolkit.mcpStatus()[SERVER]
  log(`server ${SERVER}: ${state}`)
  if (state !== "connected") return status("error", `${state}: ${toolkit.mcpErrors()[SERVER] ?? "no reason given"}`)
  await useTools(toolkit)
}

main().catch((error) => {
  log(`failed: ${error.code ?? "error"}: ${error.message}`)
  status("error", `${error.code ?? "error"}: ${error.message}`)
})
