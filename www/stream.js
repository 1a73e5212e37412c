// Streams a run into the page: each text delta is appended as it arrives, other events are
// listed, Stop aborts the run through an AbortController. The endpoint comes from the query
// string (?base=...&style=openai|anthropic&model=...).
import { createClient, createToolkit } from "/pkg/index.js"

const $ = (selector) => document.querySelector(selector)
const params = new URLSearchParams(location.search)
const client = createClient({
  baseUrl: params.get("base") ?? "http://127.0.0.1:11434/v1",
  style: params.get("style") ?? "openai",
  model: params.get("model") ?? "llama3.2",
  retries: 0,
})
const toolkit = await createToolkit({})
let controller

/** When each delta was rendered and what the answer read then (for tests and curiosity). */
window.renders = []

$("#stream-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  controller = new AbortController()
  const output = $("#output")
  output.textContent = ""
  output.dataset.deltas = "0"
  output.dataset.state = "streaming"
  $("#error").hidden = true
  $("#events").textContent = ""
  window.renders = []
  $("#send").disabled = true
  $("#stop").disabled = false
  try {
    for await (const e of client.stream($("#prompt").value, { toolkit, signal: controller.signal })) {
      if (e.type === "text") {
        output.append(e.delta)
        output.dataset.deltas = String(Number(output.dataset.deltas) + 1)
        window.renders.push({ at: performance.now(), text: output.textContent })
      } else {
        $("#events").textContent += `${e.type}${e.type === "done" ? ` (${e.result.status})` : ""}\n`
      }
      if (e.type === "done") output.dataset.state = "done"
    }
  } catch (error) {
    output.dataset.state = "error"
    $("#error").hidden = false
    $("#error").textContent = `${error.name} ${error.code}: ${error.message}`
  } finally {
    $("#send").disabled = false
    $("#stop").disabled = true
  }
})

$("#stop").addEventListener("click", () => controller?.abort())

$("#status").dataset.state = "ready"
$("#status").textContent = "Ready"
$("#send").disabled = false
