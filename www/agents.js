// A team of agents in the page (SPEC §7D): a lead delegates to a researcher and a writer at
// once; the researcher's `fetch_page` asks for approval. The runtime has no waitFor, so the run
// halts: its state (`runtime.savedState()`, plain JSON) and the tool counts go to IndexedDB, the
// transcripts through an IndexedDbConversationStore. After a reload the page rebuilds the
// runtime with `AgentRuntime.restore` and shows the same request; Approve or Decline resumes it.
import { agents, defineTool, IndexedDbConversationStore, pending } from "/pkg/index.js"
import { MODELS, INDEX, teamFetch } from "./agents-model.js"

const { AgentRuntime, agent } = agents
const $ = (selector) => document.querySelector(selector)

// ---- what the page keeps in IndexedDB: one record, the current run --------------------------

const DB = "toolnexus-agents-demo"
const RUNS = "runs"
const KEY = "current"

function idb(mode, work) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1)
    open.onupgradeneeded = () => open.result.createObjectStore(RUNS)
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const db = open.result
      const tx = db.transaction(RUNS, mode)
      const request = work(tx.objectStore(RUNS))
      tx.oncomplete = () => (db.close(), resolve(request.result))
      tx.onerror = tx.onabort = () => (db.close(), reject(tx.error))
    }
  })
}
const loadRun = () => idb("readonly", (s) => s.get(KEY))
const saveRun = (record) => idb("readwrite", (s) => s.put(record, KEY))
const clearRun = () => idb("readwrite", (s) => s.delete(KEY))

/** Each run's transcripts under its own prefix (handle ids repeat from run to run). */
const transcripts = new IndexedDbConversationStore("toolnexus-agents-demo-transcripts")
function storeFor(runId) {
  return {
    get: (id) => transcripts.get(`${runId}/${id}`),
    save: (id, messages) => transcripts.save(`${runId}/${id}`, messages),
  }
}

// ---- the counts: every model call and tool run, shown and persisted ---------------------------

const ZERO = () => ({ lead: 0, researcher: 0, writer: 0, search: 0, fetchAsked: 0, fetchRan: 0 })
let counts = ZERO()
const AGENT_OF = Object.fromEntries(Object.entries(MODELS).map(([name, model]) => [model, name]))

function showCounts() {
  for (const [key, value] of Object.entries(counts)) {
    const cell = document.querySelector(`[data-count="${key}"]`)
    cell.textContent = String(value)
  }
}
function count(key) {
  counts[key]++
  showCounts()
}

// ---- the team ----------------------------------------------------------------------------------

const search = defineTool({
  name: "search",
  description: "Searches the web (here: a fixed index) and returns the hits as JSON",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  run: () => (count("search"), JSON.stringify(INDEX)),
})

const fetchPage = defineTool({
  name: "fetch_page",
  description: "Reads a web page; asks the user first",
  inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  run: ({ url }, ctx) => {
    if (!ctx.answer?.ok) {
      count("fetchAsked")
      return pending({ kind: "approval", prompt: `Fetch ${url}?`, data: { url } })
    }
    count("fetchRan")
    return `${new URL(url).host} says components are built from WIT interfaces and composed without shared memory.`
  },
})

const researcher = agent("researcher", { does: "finds and reads sources", model: MODELS.researcher, uses: { tools: [search, fetchPage] } })
const writer = agent("writer", { does: "drafts prose", model: MODELS.writer })
const lead = agent("lead", { does: "plans a brief and delegates", model: MODELS.lead, team: [researcher, writer] })

/** The runtime's options for one run (`runId` names its transcripts). No waitFor: it halts. */
function options(runId) {
  return {
    registry: lead.registry(),
    llm: { baseUrl: "https://demo.invalid/v1", style: "openai" },
    fetch: teamFetch({ onCall: (model) => count(AGENT_OF[model]) }),
    store: storeFor(runId),
  }
}

// ---- the page ----------------------------------------------------------------------------------

let runtime
let record

function setAnswer(state, text) {
  $("#answer").dataset.state = state
  $("#answer").textContent = text
}

function showTrace() {
  $("#trace").textContent = runtime ? runtime.trace.join("\n") : ""
}

/** `root/lead.1/researcher.1` → `["lead", "researcher"]`. */
const chainOf = (handleId) => handleId.split("/").slice(1).map((segment) => segment.replace(/\.\d+$/, ""))
const callText = (tool, args) => `${tool}({${Object.entries(args ?? {}).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")}})`

/** Shows the request the run halted on, as the inner tool's own: who asks, which call. */
function showPending(request) {
  const halted = runtime.haltedCall(request.id)
  const chain = chainOf(halted.handle.id)
  const asker = chain.at(-1)
  $("#approval-chain").textContent = chain.join(" → ")
  $("#approval-who").textContent = `${asker} → ${halted.tool}`
  $("#approval-call").textContent = callText(halted.tool, halted.args)
  $("#approval-prompt").textContent = request.prompt
  $("#approval-path").textContent = JSON.stringify({ "data.path": request.data?.path, asker: halted.handle.id, tool: halted.tool, args: halted.args }, null, 2)
  $("#approval").hidden = false
  $("#approval").dataset.requestId = request.id
  setAnswer("pending", `Halted: ${asker} is waiting for your approval (saved in IndexedDB; you may reload the page).`)
}

async function finish(result) {
  $("#approval").hidden = true
  record = { ...record, phase: result.status, result: { status: result.status, text: result.text }, state: undefined, counts }
  await saveRun(record)
  setAnswer(result.status === "done" ? "done" : "error", result.text)
  $("#saved").textContent = "Finished: the result and the counts are kept in IndexedDB."
  $("#status").textContent = "Ready"
  $("#start").disabled = false
  showTrace()
}

async function settle(result) {
  if (result.status === "pending") {
    record = { ...record, phase: "pending", pending: result.pending, state: runtime.savedState(), counts }
    await saveRun(record)
    $("#saved").textContent = `Saved ${record.state.handles.length} handles to IndexedDB.`
    showPending(result.pending)
    showTrace()
    return
  }
  await finish(result)
}

async function start(prompt) {
  $("#start").disabled = true
  $("#approval").hidden = true
  $("#saved").textContent = ""
  counts = ZERO()
  showCounts()
  const runId = `run-${Date.now().toString(36)}`
  record = { runId, prompt, phase: "running", counts }
  await saveRun(record)
  setAnswer("running", "The lead is delegating…")
  runtime = new AgentRuntime(options(runId))
  const h = runtime.spawn(runtime.root, "lead")
  runtime.wake(h, prompt)
  await settle(await runtime.wait(h))
}

async function answer(ok) {
  const id = $("#approval").dataset.requestId
  $("#approve").disabled = $("#decline").disabled = true
  setAnswer("running", ok ? "Approved: resuming the team…" : "Declined: resuming the team…")
  try {
    const result = await runtime.resume(ok ? { id, ok: true } : { id, ok: false, reason: "declined in the page" })
    await settle(result)
  } finally {
    $("#approve").disabled = $("#decline").disabled = false
  }
}

/** What the page finds in IndexedDB on load: a halted run is rebuilt from its saved state. */
async function restore() {
  record = await loadRun()
  if (record === undefined) return
  counts = { ...ZERO(), ...record.counts }
  showCounts()
  $("#prompt").value = record.prompt
  if (record.phase === "pending") {
    runtime = AgentRuntime.restore(options(record.runId), record.state)
    $("#saved").textContent = `Restored ${record.state.handles.length} handles from IndexedDB.`
    $("#start").disabled = true
    showPending(record.pending)
    showTrace()
  } else if (record.result) {
    setAnswer(record.result.status === "done" ? "done" : "error", record.result.text)
  }
}

$("#run-form").addEventListener("submit", (event) => {
  event.preventDefault()
  start($("#prompt").value).catch(failed)
})
$("#approve").addEventListener("click", () => answer(true).catch(failed))
$("#decline").addEventListener("click", () => answer(false).catch(failed))
$("#reset").addEventListener("click", async () => {
  await clearRun()
  location.reload()
})

function failed(error) {
  setAnswer("error", `${error.code ?? "error"}: ${error.message}`)
  $("#start").disabled = false
}

try {
  await restore()
  $("#status").dataset.state = "ready"
  $("#status").textContent = record?.phase === "pending" ? "Ready: restored a halted run" : "Ready"
  if (record?.phase !== "pending") $("#start").disabled = false
} catch (error) {
  $("#status").dataset.state = "error"
  $("#status").textContent = `${error.code ?? "error"}: ${error.message}`
}
