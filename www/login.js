// The demo's identity provider: reads ?state&return, and sends the browser back to `return`
// (a path on this site only) with ?state&code on Allow, or ?state&error=access_denied on Deny.
const $ = (selector) => document.querySelector(selector)
const params = new URLSearchParams(location.search)
const state = params.get("state") ?? ""
const back = params.get("return") ?? "/"
// Only a same-site path: never an open redirect to another origin.
const safe = back.startsWith("/") && !back.startsWith("//") && !back.includes("\\") ? back : "/"
$("#return-to").textContent = `${location.host}${safe}`

function leave(query) {
  const url = new URL(safe, location.origin)
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
  location.replace(url.href)
}

if (!state) {
  $("#login-error").textContent = "This sign-in link has no state: start again from the agent."
  $("#login-error").hidden = false
  $("#login-allow").disabled = true
}

$("#login-form").addEventListener("submit", (event) => {
  event.preventDefault()
  const code = `dc_${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("")}`
  leave({ state, code })
})
$("#login-deny").addEventListener("click", () => leave({ state, error: "access_denied" }))
