// The chat page: the agent loop, its tools and (by default) its model all run in this page.
// Every run halts on a suspension (there is no waitFor): the halted RunResult goes to IndexedDB
// *before* the page asks the user, so a reload or a sign-in redirect never loses it, and the
// answer resumes it with runWithAnswer. Transcripts live in IndexedDB too (the client's store).
import { createToolkit, image, IndexedDbConversationStore, isToolnexusError } from "/pkg/index.js"
import { ALL_TOOLS } from "./demo-tools.js"
import { askFor, haltedArgs } from "./suspend.js"
import { describe, loadSettings, makeClient, setUpSettings } from "./settings.js"
import { setUpToolkitPanel } from "./toolkit-panel.js"
import { LiveTurn, renderTranscript, scrollDown } from "./transcript.js"

const $ = (selector) => document.querySelector(selector)
const CONVERSATION = "toolnexus-demo:conversation"

const store = new IndexedDbConversationStore("toolnexus-demo", "conversations")
let toolkit
let settings = loadSettings()
let client
let conversation

/** A transcript belongs to one model source: switching starts a new conversation. */
const dialectOf = (s) => (s.source === "demo" ? "demo" : s.style)

/** The current conversation `{id, dialect}`; a new one when the dialect changed. */
function currentConversation(fresh = false) {
  let saved = null
  try {
    saved = JSON.parse(localStorage.getItem(CONVERSATION) ?? "null")
  } catch {}
  if (fresh || !saved?.id || saved.dialect !== dialectOf(settings)) {
    saved = { id: `chat-${crypto.randomUUID()}`, dialect: dialectOf(settings) }
    localStorage.setItem(CONVERSATION, JSON.stringify(saved))
  }
  return saved
}

function setState(state) {
  document.body.dataset.state = state
  const busy = state !== "idle"
  $("#send").disabled = busy
  $("#prompt").disabled = busy
  for (const chip of document.querySelectorAll(".suggestion")) chip.disabled = busy
}

function showError(error) {
  console.warn(error)
  $("#error-text").textContent = `${error.code ? `${error.code}: ` : ""}${error.message ?? String(error)}`
  $("#error").hidden = false
  scrollDown($("#thread"))
}

function showBadge() {
  const { title, detail } = describe(settings)
  $("#model-title").textContent = title
  $("#model-detail").textContent = detail
  $("#open-settings").dataset.source = settings.source
}

function render(messages, pending) {
  renderTranscript($("#thread"), messages, pending)
}

/** Shows a settled result; a halt is stored first, then asked, then resumed (and so on). */
async function settle(result) {
  render(result.messages, result.pending)
  if (result.status !== "pending") {
    await store.deletePending(conversation.id)
    setState("idle")
    return
  }
  setState("waiting")
  await store.savePending(conversation.id, result)
  const answer = await askFor(result.pending, haltedArgs(result))
  await resume(result, answer)
}

async function resume(halted, answer) {
  $("#pending-banner").hidden = true
  setState("running")
  const next = await client.runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer })
  await store.save(conversation.id, next.messages)
  await settle(next)
}

async function guarded(work) {
  $("#error").hidden = true
  try {
    await work()
  } catch (error) {
    showError(error)
    const messages = (await store.get(conversation.id).catch(() => undefined)) ?? []
    const halted = await store.loadPending(conversation.id).catch(() => undefined)
    render(messages, halted?.pending)
    if (halted) offerResume(halted)
    setState("idle")
  }
}

async function send(prompt) {
  setState("running")
  const live = new LiveTurn($("#thread"))
  live.user(prompt)
  let result
  for await (const event of client.stream(prompt, { toolkit, id: conversation.id })) {
    if (event.type === "text") live.delta(event.delta)
    else if (event.type === "tool_call") live.toolCall(event)
    else if (event.type === "tool_result") live.toolResult(event)
    else if (event.type === "pending") live.pending(event.request)
    else if (event.type === "done") result = event.result
  }
  await settle(result)
}

/** After a reload: the run still waits; offer to answer it now (or to decline it). */
function offerResume(halted) {
  $("#pending-prompt").textContent = halted.pending.prompt
  $("#pending-banner").hidden = false
  scrollDown($("#thread"))
  setState("idle")
  $("#resume-pending").onclick = () =>
    guarded(async () => {
      $("#pending-banner").hidden = true
      setState("waiting")
      await resume(halted, await askFor(halted.pending, haltedArgs(halted)))
    })
  $("#discard-pending").onclick = () => guarded(() => resume(halted, { id: halted.pending.id, ok: false, reason: "cancelled" }))
}

/** Back from the login page with `?state&code` (or `?state&error`): resume the stored run. */
async function returnFromLogin(params, halted) {
  history.replaceState(null, "", location.pathname)
  if (!halted) throw Object.assign(new Error("This sign-in has no waiting request: it was answered or discarded already."), { code: "no_pending" })
  const code = params.get("code")
  const answer = code
    ? { id: params.get("state"), ok: true, data: { code } }
    : { id: params.get("state"), ok: false, reason: params.get("error") ?? "declined" }
  await resume(halted, answer)
}

async function boot() {
  toolkit = await createToolkit({ extraTools: ALL_TOOLS, builtins: false })
  client = makeClient(settings, store)
  conversation = currentConversation()
  setUpToolkitPanel(toolkit)
  showBadge()
  setUpSettings((next) => {
    const dialect = dialectOf(settings)
    settings = next
    client = makeClient(settings, store)
    showBadge()
    if (dialectOf(next) !== dialect) startOver()
  })
  const messages = (await store.get(conversation.id)) ?? []
  const halted = await store.loadPending(conversation.id)
  render(messages, halted?.pending)
  $("#status").dataset.state = "ready"
  $("#status").textContent = `Ready · ${toolkit.tools().length} tools`
  setState("idle")
  const params = new URLSearchParams(location.search)
  if (params.has("state")) await guarded(() => returnFromLogin(params, halted))
  else if (halted) offerResume(halted)
}

async function startOver() {
  await store.deletePending(conversation.id).catch(() => {})
  conversation = currentConversation(true)
  $("#pending-banner").hidden = true
  $("#error").hidden = true
  render([], undefined)
}

/** Images waiting to go with the next message: content parts, made as they are dropped. */
let attachments = []

function showAttachments() {
  const box = $("#attachments")
  box.replaceChildren(
    ...attachments.map((part, i) => {
      const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "×", ariaLabel: `Remove ${part.name ?? "image"}` })
      remove.addEventListener("click", () => (attachments.splice(i, 1), showAttachments()))
      const img = Object.assign(document.createElement("img"), { src: `data:${part.mimeType};base64,${part.data}`, alt: part.name ?? "image" })
      const item = Object.assign(document.createElement("div"), { className: "attachment" })
      item.append(img, remove)
      return item
    }),
  )
  box.hidden = attachments.length === 0
}

/** Files dropped, pasted or picked: each image becomes a part (a bad one is reported, not sent). */
async function attach(files) {
  for (const file of files) {
    if (!file.type.startsWith("image/")) continue
    try {
      attachments.push(await image(file, { maxPartBytes: 5_000_000 }))
    } catch (error) {
      showError(isToolnexusError(error) ? error : new Error(String(error)))
    }
  }
  showAttachments()
}

$("#attach").addEventListener("change", (event) => attach([...event.target.files]).then(() => (event.target.value = "")))
$("#composer").addEventListener("dragover", (event) => (event.preventDefault(), $("#composer").classList.add("dropping")))
$("#composer").addEventListener("dragleave", () => $("#composer").classList.remove("dropping"))
$("#composer").addEventListener("drop", (event) => {
  event.preventDefault()
  $("#composer").classList.remove("dropping")
  attach([...(event.dataTransfer?.files ?? [])])
})
$("#prompt").addEventListener("paste", (event) => {
  const files = [...(event.clipboardData?.files ?? [])]
  if (files.length) (event.preventDefault(), attach(files))
})

$("#composer").addEventListener("submit", (event) => {
  event.preventDefault()
  const text = $("#prompt").value.trim()
  if ((!text && attachments.length === 0) || document.body.dataset.state !== "idle") return
  // With images, the prompt is content parts: the text first, then each image.
  const prompt = attachments.length ? [...(text ? [text] : []), ...attachments] : text
  $("#prompt").value = ""
  attachments = []
  showAttachments()
  guarded(() => send(prompt))
})
$("#prompt").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault()
    $("#composer").requestSubmit()
  }
})
for (const chip of document.querySelectorAll(".suggestion")) {
  chip.addEventListener("click", () => {
    $("#prompt").value = chip.dataset.prompt
    $("#composer").requestSubmit()
  })
}
$("#new-chat").addEventListener("click", () => document.body.dataset.state === "idle" && startOver())
$("#about-toolkit").addEventListener("click", (event) => (event.preventDefault(), $("#nav-toolkit").click()))
$("#error-close").addEventListener("click", () => ($("#error").hidden = true))
for (const tab of document.querySelectorAll(".nav-tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".nav-tab")) t.setAttribute("aria-selected", String(t === tab))
    $(".layout").hidden = tab.dataset.view !== "chat"
    $("#toolkit-view").hidden = tab.dataset.view !== "toolkit"
  })
}

boot().catch((error) => {
  $("#status").dataset.state = "error"
  $("#status").textContent = `Could not start: ${error.message}`
  console.error(error)
})
