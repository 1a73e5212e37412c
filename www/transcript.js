// The chat thread: a transcript (either dialect) read back as user / assistant / tool items and
// rendered, plus the live view of a streamed turn (text deltas, tool calls, results, a pending).

const KIND_LABEL = { approval: "Needs your approval", input: "Needs a few details", authorization: "Needs you to sign in", question: "Has a question for you" }
const STATE_LABEL = { running: "Running…", done: "Done", declined: "Declined", error: "Failed", waiting: "Waiting for you" }

export function el(tag, props = {}, ...children) {
  const { dataset = {}, ...rest } = props
  const node = Object.assign(document.createElement(tag), rest)
  Object.assign(node.dataset, dataset)
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false))
  return node
}

const parse = (text) => {
  try {
    return JSON.parse(text || "{}")
  } catch {
    return { raw: text }
  }
}
const textOf = (content) => (Array.isArray(content) ? content.map((b) => b.text ?? "").join("") : String(content ?? ""))
/** A content part's image as a URL an <img> shows: its own URL, or its data as a data: URL. */
const imageSrc = (part) => part.url ?? `data:${part.mimeType};base64,${part.data}`
/** A user's turn as an item: its text and the images it carries (content parts). */
const userItem = (content) =>
  Array.isArray(content)
    ? { kind: "user", text: textOf(content.filter((b) => b.type === "text")), images: content.filter((b) => b.type === "image").map(imageSrc) }
    : { kind: "user", text: String(content ?? "") }
const refused = (output) => /^(declined\/expired|unresolved): /.test(output)

/**
 * The transcript as items: `{kind: "user"|"assistant", text}`, `{kind: "tool", id, name, args,
 * output?, state}` and `{kind: "summary", messages, tokens, text}` (a compaction summary).
 */
export function itemsOf(messages, pending) {
  const items = []
  const tools = new Map()
  const attach = (id, output, isError) => {
    const item = tools.get(id)
    if (!item) return
    item.output = output
    if (pending && output === pending.prompt) item.state = "waiting"
    else if (refused(output)) item.state = "declined"
    else item.state = isError ? "error" : "done"
  }
  for (const m of messages ?? []) {
    // A compaction summary (agents.compactor) says in its metadata what it stands for.
    const compacted = m.metadata?.compacted
    if (compacted) items.push({ kind: "summary", messages: compacted.messages, tokens: compacted.tokens, text: textOf(m.content).replace(/^\[Summary of earlier conversation\]\n/, "") })
    else if (m.role === "tool") attach(m.tool_call_id, String(m.content ?? ""), false)
    else if (m.role === "user" && Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result")) {
      for (const b of m.content) if (b.type === "tool_result") attach(b.tool_use_id, textOf(b.content), b.is_error === true)
    } else if (m.role === "user") items.push(userItem(m.content))
    else if (m.role === "assistant") {
      const blocks = Array.isArray(m.content) ? m.content : []
      const text = Array.isArray(m.content) ? textOf(blocks.filter((b) => b.type === "text")) : String(m.content ?? "")
      if (text.trim()) items.push({ kind: "assistant", text })
      const calls = m.tool_calls
        ? m.tool_calls.map((c) => ({ id: c.id, name: c.function?.name, args: parse(c.function?.arguments) }))
        : blocks.filter((b) => b.type === "tool_use").map((b) => ({ id: b.id, name: b.name, args: b.input ?? {} }))
      for (const call of calls) {
        const item = { kind: "tool", ...call, state: "running" }
        items.push(item)
        tools.set(call.id, item)
      }
    }
  }
  return items
}

function toolCard(item) {
  const state = el("span", { className: "tool-state" }, STATE_LABEL[item.state] ?? item.state)
  const output = item.output === undefined ? null : el("pre", { className: "tool-output" }, item.output)
  const args = Object.keys(item.args ?? {}).length ? JSON.stringify(item.args, null, 2) : "(no arguments)"
  return el(
    "div",
    { className: "tool-card", dataset: { tool: item.name, state: item.state, callId: item.id ?? "" } },
    el(
      "details",
      {},
      el("summary", {}, el("span", { className: "tool-icon", ariaHidden: "true" }), el("code", { className: "tool-name" }, item.name), state),
      el("div", { className: "tool-body" }, el("h4", {}, "Arguments"), el("pre", { className: "tool-args" }, args), output && el("h4", {}, "Result"), output),
    ),
  )
}

/** The marker where earlier messages were summarised: their count, and the summary behind it. */
function summaryMarker(item) {
  const label = `${item.messages} earlier message${item.messages === 1 ? "" : "s"} summarised`
  return el(
    "div",
    { className: "summary-marker", dataset: { messages: String(item.messages), tokens: String(item.tokens) } },
    el("details", {}, el("summary", {}, el("span", { className: "summary-label" }, label), el("span", { className: "summary-tokens" }, ` · about ${item.tokens} tokens`)), el("pre", { className: "summary-text" }, item.text)),
  )
}

function bubble(item) {
  if (item.kind === "tool") return toolCard(item)
  if (item.kind === "summary") return summaryMarker(item)
  const who = item.kind === "user" ? "You" : "Assistant"
  return el(
    "div",
    { className: `msg ${item.kind}` },
    item.kind === "assistant" ? el("div", { className: "avatar", ariaHidden: "true" }, "tn") : null,
    el("div", { className: "bubble", ariaLabel: who }, item.text, ...(item.images ?? []).map((src) => el("img", { className: "part", src, alt: "attached image" }))),
  )
}

/** Replaces the thread with the transcript; an empty one shows the welcome card. */
export function renderTranscript(thread, messages, pending) {
  const items = itemsOf(messages, pending)
  const shown = thread.children.length
  const nodes = items.map(bubble)
  nodes.slice(shown).forEach((node) => node.classList.add("fresh"))
  thread.replaceChildren(...nodes)
  thread.dataset.items = String(items.length)
  document.querySelector("#welcome").hidden = items.length > 0
  scrollDown(thread)
  return items
}

/** Scrolls the thread to its end, now and once the layout settles (banners change its height). */
export function scrollDown(thread) {
  thread.scrollTop = thread.scrollHeight
  requestAnimationFrame(() => (thread.scrollTop = thread.scrollHeight))
}

/** A streamed turn as it happens; `renderTranscript` replaces it once the run settles. */
export class LiveTurn {
  constructor(thread) {
    this.thread = thread
    this.text = null
    this.args = new Map()
    document.querySelector("#welcome").hidden = true
  }

  add(node) {
    node.classList.add("fresh")
    this.thread.append(node)
    scrollDown(this.thread)
    return node
  }

  user(prompt) {
    this.add(bubble(userItem(prompt)))
    this.typing = this.add(el("div", { className: "msg assistant typing" }, el("div", { className: "avatar" }, "tn"), el("div", { className: "bubble" }, el("span", { className: "dots" }, el("i"), el("i"), el("i")))))
  }

  delta(text) {
    this.typing?.remove()
    if (!this.text) {
      this.text = el("div", { className: "bubble streaming" })
      this.add(el("div", { className: "msg assistant live" }, el("div", { className: "avatar" }, "tn"), this.text))
    }
    this.text.append(text)
    scrollDown(this.thread)
  }

  toolCall({ id, name, args }) {
    this.typing?.remove()
    this.text = null
    this.args.set(id, args)
    this.add(toolCard({ id, name, args, state: "running" }))
  }

  toolResult({ id, output, isError }) {
    const card = this.thread.querySelector(`.tool-card[data-call-id="${CSS.escape(id)}"]`)
    if (!card) return
    const state = refused(output) ? "declined" : isError ? "error" : "done"
    card.replaceWith(toolCard({ id, name: card.dataset.tool, args: this.args.get(id), output, state }))
  }

  pending(request) {
    const cards = this.thread.querySelectorAll('.tool-card[data-state="running"]')
    const card = cards[cards.length - 1]
    if (card) {
      card.dataset.state = "waiting"
      card.querySelector(".tool-state").textContent = KIND_LABEL[request.kind] ?? STATE_LABEL.waiting
    }
  }
}
