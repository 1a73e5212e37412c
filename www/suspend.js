// How the page answers each suspension shape (SPEC §10): an approval dialog with the prompt and
// the arguments, a form rendered from an input request's data.schema, a question with optional
// choices, and an authorization that leaves the page for its url (the run is already stored).
import { el } from "./transcript.js"

const $ = (selector) => document.querySelector(selector)

/** Opens `dialog` and resolves with its returnValue when it closes (Escape gives ""). */
function open(dialog) {
  dialog.returnValue = ""
  dialog.showModal()
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true }))
}

const declined = (request, reason = "declined") => ({ id: request.id, ok: false, reason })

function keyValues(target, data) {
  const rows = Object.entries(data ?? {}).map(([k, v]) =>
    el("div", { className: "kv", dataset: { key: k } }, el("dt", {}, k), el("dd", {}, typeof v === "string" ? v : JSON.stringify(v))),
  )
  target.replaceChildren(...(rows.length ? rows : [el("div", { className: "kv" }, el("dd", {}, "No arguments"))]))
}

async function approve(request, args) {
  $("#approval-prompt").textContent = request.prompt
  keyValues($("#approval-args"), args ?? request.data)
  const choice = await open($("#approval"))
  return choice === "approve" ? { id: request.id, ok: true } : declined(request)
}

/** One form control for a JSON Schema property: enum → select, boolean → checkbox, number → number. */
function control(name, schema, required) {
  const label = schema.title ?? name
  const common = { name, id: `field-${name}`, required }
  let input
  if (Array.isArray(schema.enum)) {
    input = el("select", common, ...schema.enum.map((v) => el("option", { value: String(v), selected: v === schema.default }, String(v))))
  } else if (schema.type === "boolean") {
    input = el("input", { ...common, type: "checkbox", checked: schema.default === true, required: false })
    return el("label", { className: "field check", htmlFor: common.id }, input, el("span", {}, label))
  } else if (schema.type === "number" || schema.type === "integer") {
    input = el("input", { ...common, type: "number", step: schema.type === "integer" ? "1" : "any", value: schema.default ?? "" })
    if (schema.minimum !== undefined) input.min = String(schema.minimum)
    if (schema.maximum !== undefined) input.max = String(schema.maximum)
  } else {
    input = el("input", { ...common, type: "text", value: schema.default ?? "", autocomplete: "off" })
    if (schema.minLength !== undefined) input.minLength = schema.minLength
    if (schema.maxLength !== undefined) input.maxLength = schema.maxLength
  }
  const hint = schema.description ? el("small", {}, schema.description) : null
  return el("label", { className: "field", htmlFor: common.id }, el("span", {}, label, required ? el("b", { ariaHidden: "true" }, " *") : null), input, hint)
}

/** The form's values, typed by the schema. */
function values(form, schema) {
  const data = {}
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const input = form.elements.namedItem(name)
    if (!input) continue
    if (prop.type === "boolean") data[name] = input.checked
    else if (input.value === "") continue
    else if (Array.isArray(prop.enum)) data[name] = prop.enum.find((v) => String(v) === input.value) ?? input.value
    else if (prop.type === "integer") data[name] = Number.parseInt(input.value, 10)
    else if (prop.type === "number") data[name] = Number(input.value)
    else data[name] = input.value
  }
  return data
}

async function input(request) {
  const schema = request.data?.schema ?? { type: "object", properties: { value: { type: "string", title: "Answer" } } }
  const required = new Set(schema.required ?? [])
  $("#input-prompt").textContent = request.prompt
  const fields = $("#input-fields")
  fields.replaceChildren(...Object.entries(schema.properties ?? {}).map(([n, p]) => control(n, p, required.has(n))))
  const choice = await open($("#input-dialog"))
  return choice === "submit" ? { id: request.id, ok: true, data: values($("#input-form"), schema) } : declined(request)
}

async function question(request) {
  $("#question-prompt").textContent = request.prompt
  const answer = $("#question-answer")
  answer.value = ""
  const options = Array.isArray(request.data?.options) ? request.data.options : []
  $("#question-options").replaceChildren(
    ...options.map((o) => {
      const b = el("button", { type: "button", className: "chip option", value: String(o) }, String(o))
      b.addEventListener("click", () => $("#question-dialog").close(`option:${o}`))
      return b
    }),
  )
  const choice = await open($("#question-dialog"))
  const text = choice.startsWith("option:") ? choice.slice(7) : choice === "send" ? answer.value.trim() : ""
  return text ? { id: request.id, ok: true, data: { answer: text } } : declined(request, "cancelled")
}

async function authorize(request) {
  const url = new URL(request.url ?? "", location.href)
  $("#auth-prompt").textContent = request.prompt
  $("#auth-url").textContent = `${url.host}${url.pathname}`
  const choice = await open($("#auth-dialog"))
  if (choice !== "continue") return declined(request)
  // The halted run is in IndexedDB already: leave for the provider; the page resumes on return.
  location.assign(url.href)
  return new Promise(() => {})
}

/**
 * Shows what `request` asks for and resolves with the `Answer` (never, for an authorization
 * the user continues with: the page navigates away). `args` are the halted call's arguments.
 */
export function askFor(request, args) {
  if (request.kind === "input") return input(request)
  if (request.kind === "question") return question(request)
  if (request.kind === "authorization" && request.url) return authorize(request)
  return approve(request, args)
}

/** The halted call's arguments, from the run's tool-call records. */
export function haltedArgs(result) {
  return result.toolCalls?.at(-1)?.args
}
