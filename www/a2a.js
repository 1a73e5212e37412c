// The page half of the A2A demo: registers a2a-sw.js (an agent served by the page's own Service
// Worker), then builds an agent in the page whose toolkit has that remote agent as a tool
// (`agent({card})`). Its model is scripted too: it hands every question to the worker's agent
// and reports the answer. The page shows the delegated call, the answer, the task as the
// worker's store keeps it (`GetTask`), and every request the worker answered.
import { agent, createInProcessClient, createToolkit } from "/pkg/index.js"

const $ = (selector) => document.querySelector(selector)
const ENDPOINT = new URL("/a2a-agent/", location.origin).href
const CARD_URL = new URL(".well-known/agent-card.json", ENDPOINT).href
const WORKER = "/a2a-sw.js"

function setStatus(state, text) {
  $("#status").dataset.state = state
  $("#status").textContent = text
}

/** Registers the worker for this page and waits until it is the page's controller. */
async function workerInCharge() {
  const registration = await navigator.serviceWorker.register(WORKER, { type: "module", scope: "/a2a" })
  await navigator.serviceWorker.ready
  const ours = () => navigator.serviceWorker.controller?.scriptURL === new URL(WORKER, location.origin).href
  while (!ours()) await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }))
  return registration
}

/** The worker's totals: requests it answered (by method) and the tasks it ran. */
function workerStats() {
  const { port1, port2 } = new MessageChannel()
  return new Promise((resolve) => {
    port1.onmessage = (event) => resolve(event.data)
    navigator.serviceWorker.controller.postMessage({ type: "a2a-stats" }, [port2])
  })
}

async function showStats() {
  const stats = await workerStats()
  $("#sw-count").dataset.count = String(stats.requests)
  const methods = Object.entries(stats.methods).map(([what, n]) => `${what} ${n}`).join(", ")
  $("#sw-count").textContent = `(${stats.requests} requests: ${methods})`
  return stats
}

/** One line of the worker's log, as it posts them. */
function logServed({ n, what, status, taskId, state }) {
  const item = document.createElement("li")
  item.value = n
  item.textContent = `${what} → ${status}${taskId ? ` task ${taskId.slice(0, 8)}` : ""} `
  if (state) {
    const badge = document.createElement("span")
    badge.className = "state"
    badge.textContent = state
    item.append(badge)
  }
  $("#sw-log").append(item)
}

/** The task as the worker's store has it, read with a GetTask of the reference's wire. */
async function getTask(id) {
  const body = { jsonrpc: "2.0", id: "page", method: "GetTask", params: { id } }
  const response = await fetch(ENDPOINT, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  return (await response.json()).result
}

/** The page's model: every question goes to the remote agent's tool; its answer is reported. */
function delegatingModel(toolName, agentName) {
  return ({ messages }) => {
    const last = messages.at(-1)
    if (last.role === "tool") return { content: `${agentName} (in the Service Worker) says: ${last.content}` }
    return { toolCalls: [{ name: toolName, arguments: { task: String(last.content) } }] }
  }
}

function showTools(tools) {
  $("#tools").replaceChildren(
    ...tools.map((tool) => {
      const item = document.createElement("li")
      item.className = "tool"
      const name = document.createElement("div")
      name.className = "tool-name"
      name.textContent = `${tool.name} (${tool.source})`
      const about = document.createElement("p")
      about.textContent = tool.description
      item.append(name, about)
      return item
    }),
  )
}

async function start() {
  if (!("serviceWorker" in navigator)) throw new Error("this browser has no Service Workers (or the page is not on a secure origin)")
  navigator.serviceWorker.addEventListener("message", (event) => event.data?.type === "a2a-served" && logServed(event.data))
  navigator.serviceWorker.startMessages()
  const registration = await workerInCharge()
  $("#sw-status").textContent = `${WORKER}: scope ${registration.scope}, controls this page`
  $("#card-url").textContent = CARD_URL
  const card = await (await fetch(CARD_URL)).json()
  $("#card").textContent = JSON.stringify(card, null, 2)

  const toolkit = await createToolkit({ builtins: false, agents: [agent({ card: CARD_URL, pollEvery: 50 })] })
  if (toolkit.agentStatus()[CARD_URL] !== "connected") throw new Error(toolkit.agentErrors()[CARD_URL])
  showTools(toolkit.tools())
  const remote = toolkit.tools().find((tool) => tool.source === "a2a")
  let delegated
  const client = createInProcessClient({
    model: "delegating-demo",
    generate: delegatingModel(remote.name, card.name),
    hooks: {
      beforeTool: ({ name, args }) => {
        $("#delegation").dataset.state = "running"
        $("#delegation").textContent = `page agent → ${name} ${JSON.stringify(args)}\n  (SendMessage, then GetTask every 50 ms)`
      },
      afterTool: ({ name, result }) => {
        delegated = { name, ...result.metadata, output: result.output, isError: result.isError }
        const { taskId, state, polls, ms } = result.metadata ?? {}
        $("#delegation").textContent += `\n${card.name} → task ${taskId} ${state} after ${polls} poll${polls === 1 ? "" : "s"}, ${ms} ms\n  ${JSON.stringify(result.output)}`
        $("#delegation").dataset.state = result.isError ? "error" : "ok"
        $("#delegation").dataset.taskId = taskId ?? ""
      },
    },
  })
  await showStats()

  $("#ask-form").addEventListener("submit", async (event) => {
    event.preventDefault()
    $("#ask").disabled = true
    $("#answer").dataset.state = "running"
    $("#answer").textContent = "Working…"
    $("#task").textContent = "…"
    delegated = undefined
    try {
      const run = await client.run($("#prompt").value, { toolkit })
      $("#answer").textContent = run.text
      $("#answer").dataset.state = run.status === "done" && !delegated?.isError ? "done" : "error"
      if (delegated?.taskId) {
        const task = await getTask(delegated.taskId)
        $("#task").textContent = JSON.stringify(task, null, 2)
        $("#task").dataset.state = task?.status?.state ?? "missing"
      }
    } catch (error) {
      $("#answer").dataset.state = "error"
      $("#answer").textContent = `${error.code ?? "error"}: ${error.message}`
    } finally {
      await showStats()
      $("#ask").disabled = false
    }
  })
  for (const example of document.querySelectorAll(".example")) {
    example.addEventListener("click", () => {
      $("#prompt").value = example.textContent
      $("#ask-form").requestSubmit()
    })
  }
  $("#ask").disabled = false
  setStatus("ready", navigator.onLine ? "Ready: the worker's agent is in charge of /a2a-agent/" : "Ready, offline: both agents run here")
}

start().catch((error) => {
  setStatus("error", `${error.code ?? "error"}: ${error.message}`)
  console.error(error)
})
