// The Toolkit panel: every tool of the agent's toolkit with its JSON Schema, a form that runs a
// tool with JSON arguments (validated by the toolkit before it runs), and the provider schemas.
import { EXAMPLES } from "./demo-tools.js"
import { el } from "./transcript.js"

const $ = (selector) => document.querySelector(selector)
const pretty = (value) => JSON.stringify(value, null, 2)

const KIND = { transfer_money: "approval", book_table: "input", connect_calendar: "authorization", ask_user: "question" }

function listTools(toolkit) {
  $("#tools").replaceChildren(
    ...toolkit.tools().map((tool) =>
      el(
        "li",
        { className: "tool", dataset: { tool: tool.name } },
        el("div", { className: "tool-title" }, el("code", { className: "tool-name" }, tool.name), KIND[tool.name] ? el("span", { className: `badge kind-${KIND[tool.name]}` }, KIND[tool.name]) : null),
        el("p", {}, tool.description),
        el("details", {}, el("summary", {}, "JSON Schema"), el("pre", { className: "code" }, pretty(tool.inputSchema))),
      ),
    ),
  )
}

function showSchemas(toolkit, adapter) {
  const schemas = { openai: toolkit.toOpenAI(), anthropic: toolkit.toAnthropic(), gemini: toolkit.toGemini() }
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-selected", String(tab.dataset.adapter === adapter))
  $("#schema-json").textContent = pretty(schemas[adapter])
}

function setUpForm(toolkit) {
  const select = $("#tool-select")
  const args = $("#tool-args")
  select.replaceChildren(...toolkit.tools().map((t) => el("option", { value: t.name }, t.name)))
  const fillExample = () => (args.value = JSON.stringify(EXAMPLES[select.value] ?? {}))
  select.addEventListener("change", fillExample)
  fillExample()
  const result = $("#result")
  $("#run-form").addEventListener("submit", async (event) => {
    event.preventDefault()
    let parsed
    try {
      parsed = JSON.parse(args.value || "{}")
    } catch (error) {
      result.dataset.state = "error"
      result.textContent = `The arguments are not valid JSON: ${error.message}`
      return
    }
    result.dataset.state = "running"
    const outcome = await toolkit.execute(select.value, parsed)
    result.dataset.state = outcome.metadata?.pending ? "pending" : outcome.isError ? "error" : "ok"
    result.textContent = pretty(outcome)
  })
  $("#run").disabled = false
}

export function setUpToolkitPanel(toolkit) {
  listTools(toolkit)
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showSchemas(toolkit, tab.dataset.adapter))
  showSchemas(toolkit, "openai")
  setUpForm(toolkit)
}
