// Which model the page talks to: the built-in demo model (the default: scripted, in this page,
// no network) or a real OpenAI- or Anthropic-style endpoint. Settings live in localStorage; the
// API key lives in this page's memory, or in this tab's sessionStorage when the user says so.
import { agents, createClient } from "/pkg/index.js"
import { demoFetch } from "./demo-model.js"

const $ = (selector) => document.querySelector(selector)
const SETTINGS = "toolnexus-demo:settings"
const KEY = "toolnexus-demo:api-key"

const SYSTEM = `You are the assistant of the toolnexus demo, running entirely in the user's browser.
Use the tools: transfer_money to send money (the user approves each transfer), book_table to book a
restaurant (the user fills in a form), connect_calendar to read today's events (the user signs in),
ask_user when you need to ask the user something. Be brief and friendly.`

const DEFAULTS = { source: "demo", style: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini", rememberKey: false, browserAccess: false }

let keyInMemory = ""

export function loadSettings() {
  let saved = {}
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS) ?? "{}")
  } catch {
    saved = {}
  }
  const settings = { ...DEFAULTS, ...saved }
  settings.apiKey = settings.rememberKey ? sessionStorage.getItem(KEY) ?? "" : keyInMemory
  return settings
}

function saveSettings(settings) {
  const { apiKey, ...rest } = settings
  localStorage.setItem(SETTINGS, JSON.stringify(rest))
  keyInMemory = apiKey
  if (settings.rememberKey && apiKey) sessionStorage.setItem(KEY, apiKey)
  else sessionStorage.removeItem(KEY)
}

/** What the badge in the header says. */
export function describe(settings) {
  if (settings.source === "demo") return { title: "Demo model", detail: "scripted · runs in this page · no network" }
  let host = settings.baseUrl
  try {
    host = new URL(settings.baseUrl).host
  } catch {}
  return { title: settings.model, detail: `${settings.style} · ${host}` }
}

/** The agent client for `settings`, keeping conversations in `store`. */
/**
 * Compaction with a deliberately small budget, so a few turns show it: over `maxTokens` the
 * older transcript becomes one summary (its metadata says how many messages it stands for,
 * which the thread shows as "N earlier messages summarised") and a recent tail stays.
 */
export const COMPACTION = { maxTokens: 600, keepTail: 250 }

const SUMMARY_PREFIX = "[Summary of earlier conversation]\n"

/**
 * The demo's summary, made in the page without a model call: an earlier summary's lines, then
 * each earlier request of the user's, one line each.
 */
function summarize(older) {
  const lines = []
  for (const m of older) {
    if (m.metadata?.compacted && typeof m.content === "string") lines.push(m.content.replace(SUMMARY_PREFIX, ""))
    else if (m.role === "user" && typeof m.content === "string") lines.push(`- The user asked: ${m.content.slice(0, 100)}`)
  }
  return lines.join("\n") || "- (nothing the user asked)"
}

const hooks = agents.compactor({ ...COMPACTION, summarize })

export function makeClient(settings, store) {
  if (settings.source === "demo") {
    return createClient({ baseUrl: "https://demo-model.invalid/v1", style: "openai", model: "toolnexus-demo", fetch: demoFetch(), retries: 0, store, hooks })
  }
  return createClient({
    baseUrl: settings.baseUrl,
    style: settings.style,
    model: settings.model,
    apiKey: settings.apiKey || undefined,
    anthropicBrowserAccess: settings.style === "anthropic" && settings.browserAccess,
    systemPrompt: SYSTEM,
    store,
    hooks,
  })
}

function fill(settings) {
  for (const radio of document.querySelectorAll('input[name="source"]')) radio.checked = radio.value === settings.source
  $("#style").value = settings.style
  $("#base-url").value = settings.baseUrl
  $("#model").value = settings.model
  $("#api-key").value = settings.apiKey
  $("#remember-key").checked = settings.rememberKey
  $("#browser-access").checked = settings.browserAccess
  sync()
}

function read() {
  return {
    source: document.querySelector('input[name="source"]:checked')?.value ?? "demo",
    style: $("#style").value,
    baseUrl: $("#base-url").value.trim(),
    model: $("#model").value.trim(),
    apiKey: $("#api-key").value.trim(),
    rememberKey: $("#remember-key").checked,
    browserAccess: $("#browser-access").checked,
  }
}

/** Shows the endpoint fields only for an endpoint, and Anthropic's browser-access consent only for Anthropic. */
function sync() {
  const settings = read()
  $("#endpoint-fields").disabled = settings.source === "demo"
  $("#endpoint-fields").dataset.off = String(settings.source === "demo")
  $("#anthropic-access").hidden = settings.style !== "anthropic"
  $("#key-where").textContent = settings.rememberKey
    ? "Kept in this tab's sessionStorage: it survives a reload or a sign-in redirect and is gone when the tab closes."
    : "Kept in this page's memory only: a reload or a sign-in redirect forgets it."
  $("#settings-error").hidden = true
}

function problem(settings) {
  if (settings.source === "demo") return ""
  try {
    new URL(settings.baseUrl)
  } catch {
    return "The base URL must be a full URL, such as https://api.openai.com/v1."
  }
  if (!settings.model) return "Name the model to use."
  if (settings.style === "anthropic" && !settings.browserAccess) {
    return "Anthropic refuses calls from a web page unless you allow direct browser access (below the key)."
  }
  return ""
}

/** Wires the settings dialog; `onChange(settings)` runs after each save. */
export function setUpSettings(onChange) {
  const dialog = $("#settings-dialog")
  for (const input of dialog.querySelectorAll("input, select")) input.addEventListener("change", sync)
  $("#open-settings").addEventListener("click", () => {
    fill(loadSettings())
    dialog.showModal()
  })
  $("#settings-cancel").addEventListener("click", () => dialog.close())
  $("#settings-form").addEventListener("submit", (event) => {
    event.preventDefault()
    const settings = read()
    const why = problem(settings)
    if (why) {
      $("#settings-error").textContent = why
      $("#settings-error").hidden = false
      return
    }
    saveSettings(settings)
    dialog.close()
    onChange(loadSettings())
  })
}
