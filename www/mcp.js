// An MCP client in the page: createToolkit({mcpConfig}) connects to the server over
// streamable HTTP through fetch, lists its tools, and calls them. An elicitation (the server
// asking for input in the middle of a call) goes to waitFor, which shows a <dialog>.
import { createToolkit } from "/pkg/index.js"

const $ = (selector) => document.querySelector(selector)
let toolkit

/** waitFor: form elicitations ask for one value (the schema's first property), URL ones for consent. */
function askInDialog(request) {
  const dialog = $("#elicit")
  const field = Object.keys(request.data?.schema?.properties ?? {})[0]
  $("#elicit-prompt").textContent = request.prompt
  $("#elicit-url").textContent = request.url ?? ""
  $("#elicit-field").hidden = request.kind !== "input"
  $("#elicit-input").value = ""
  dialog.showModal()
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        if (dialog.returnValue !== "accept") return resolve({ id: request.id, ok: false, reason: "declined" })
        const data = field ? { [field]: $("#elicit-input").value } : {}
        resolve({ id: request.id, ok: true, data })
      },
      { once: true },
    )
  })
}

function showTools(tools) {
  const list = $("#mcp-tools")
  list.replaceChildren()
  $("#call-tool").replaceChildren()
  for (const tool of tools) {
    const item = document.createElement("li")
    item.className = "tool"
    const name = document.createElement("div")
    name.className = "tool-name"
    name.textContent = tool.name
    const about = document.createElement("p")
    about.textContent = tool.description
    item.append(name, about)
    list.append(item)
    $("#call-tool").append(new Option(tool.name, tool.name))
  }
}

$("#connect-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  $("#connect").disabled = true
  $("#mcp-status").textContent = "Connecting…"
  try {
    await toolkit?.close()
    const auth = $("#server-auth").value.trim()
    const server = { url: $("#server-url").value.trim(), timeout: 10_000, ...(auth ? { headers: { Authorization: auth } } : {}) }
    toolkit = await createToolkit({ builtins: false, mcpConfig: { mcpServers: { demo: server } }, waitFor: askInDialog })
    const status = toolkit.mcpStatus()
    $("#mcp-status").textContent = JSON.stringify({ status, errors: toolkit.mcpErrors() }, null, 2)
    $("#mcp-status").dataset.state = status.demo
    showTools(toolkit.tools())
    $("#call").disabled = toolkit.tools().length === 0
  } catch (error) {
    $("#mcp-status").textContent = `${error.code ?? "error"}: ${error.message}`
    $("#mcp-status").dataset.state = "error"
  } finally {
    $("#connect").disabled = false
  }
})

$("#call-form").addEventListener("submit", async (event) => {
  event.preventDefault()
  const out = $("#call-result")
  $("#call").disabled = true
  out.dataset.state = "running"
  out.textContent = "Calling…"
  try {
    const result = await toolkit.execute($("#call-tool").value, JSON.parse($("#call-args").value || "{}"))
    out.dataset.state = result.isError ? "error" : "ok"
    out.textContent = JSON.stringify(result, null, 2)
  } catch (error) {
    out.dataset.state = "error"
    out.textContent = String(error)
  } finally {
    $("#call").disabled = false
  }
})

const fromQuery = new URLSearchParams(location.search).get("server")
if (fromQuery) $("#server-url").value = fromQuery
$("#status").dataset.state = "ready"
$("#status").textContent = "Ready"
$("#connect").disabled = false
