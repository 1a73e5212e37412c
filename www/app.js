// The demo: three tools made with defineTool, one toolkit, its provider schemas, and a form that
// runs a tool with JSON arguments. Everything the page shows comes from the toolkit itself.
import { createToolkit, defineTool } from "/pkg/index.js"

const calculator = defineTool({
  name: "calculator",
  description: "Applies an arithmetic operation to two numbers",
  inputSchema: {
    type: "object",
    properties: {
      a: { type: "number" },
      b: { type: "number" },
      op: { type: "string", enum: ["add", "subtract", "multiply", "divide"] },
    },
    required: ["a", "b", "op"],
    additionalProperties: false,
  },
  run: ({ a, b, op }) => {
    if (op === "divide" && b === 0) throw new Error("division by zero")
    const ops = { add: a + b, subtract: a - b, multiply: a * b, divide: a / b }
    return String(ops[op])
  },
})

const clock = defineTool({
  name: "clock",
  description: "The current date and time in an IANA time zone",
  inputSchema: {
    type: "object",
    properties: { timeZone: { type: "string", description: "For example Europe/Paris; UTC when absent" } },
  },
  run: ({ timeZone = "UTC" }) =>
    new Intl.DateTimeFormat("en-GB", { timeZone, dateStyle: "full", timeStyle: "long" }).format(new Date()),
})

const dice = defineTool({
  name: "roll_dice",
  description: "Rolls dice and returns each roll and the total",
  inputSchema: {
    type: "object",
    properties: {
      count: { type: "integer", minimum: 1, maximum: 20 },
      sides: { type: "integer", minimum: 2, maximum: 100 },
    },
    required: ["count", "sides"],
  },
  run: ({ count, sides }) => {
    const rolls = Array.from(crypto.getRandomValues(new Uint32Array(count)), (n) => 1 + (n % sides))
    return { rolls, total: rolls.reduce((s, r) => s + r, 0) }
  },
})

const EXAMPLES = {
  calculator: { a: 6, b: 7, op: "multiply" },
  clock: { timeZone: "Europe/Paris" },
  roll_dice: { count: 3, sides: 6 },
}

const $ = (selector) => document.querySelector(selector)
const pretty = (value) => JSON.stringify(value, null, 2)

function el(tag, { dataset = {}, ...props } = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props)
  Object.assign(node.dataset, dataset)
  node.append(...children)
  return node
}

function listTools(toolkit) {
  $("#tools").replaceChildren(
    ...toolkit.tools().map((tool) =>
      el(
        "li",
        { className: "tool", dataset: { tool: tool.name } },
        el("code", { className: "tool-name" }, tool.name),
        el("p", {}, tool.description),
        el("details", {}, el("summary", {}, "JSON Schema"), el("pre", { className: "code" }, pretty(tool.inputSchema))),
      ),
    ),
  )
}

function showSchemas(toolkit, adapter) {
  const schemas = { openai: toolkit.toOpenAI(), anthropic: toolkit.toAnthropic(), gemini: toolkit.toGemini() }
  for (const tab of document.querySelectorAll(".tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.adapter === adapter))
  }
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
    result.dataset.state = outcome.isError ? "error" : "ok"
    result.textContent = pretty(outcome)
  })
  $("#run").disabled = false
}

async function main() {
  const status = $("#status")
  try {
    const toolkit = await createToolkit({ extraTools: [calculator, clock, dice], builtins: false })
    listTools(toolkit)
    for (const tab of document.querySelectorAll(".tab")) {
      tab.addEventListener("click", () => showSchemas(toolkit, tab.dataset.adapter))
    }
    showSchemas(toolkit, "openai")
    setUpForm(toolkit)
    status.dataset.state = "ready"
    status.textContent = `Ready: ${toolkit.tools().length} tools`
  } catch (error) {
    status.dataset.state = "error"
    status.textContent = `Could not start: ${error.message}`
    console.error(error)
  }
}

main()
