// The `agents` namespace (SPEC §7D–§7F): compaction (§7F, here) and the harness
// (harness.js: guardrails, the completion gate, `Loop`). Compaction: `compactor(options)`
// makes a `beforeLLM` hook that, once the transcript's token estimate is over `maxTokens`, swaps
// the older body for one summary message (a system message after a leading system prompt, else a
// user turn) and keeps a recent tail; `estimateTokens` is its default estimator. Plain
// JavaScript beside the module: the hook already holds the transcript as JavaScript values, and
// a split over them needs no crossing into the wasm module and back each turn. The entries
// export this module's exports as `agents`.
import { ToolnexusError } from "./errors.js"
import { errorText, typeName } from "./stores.js"

export { allTodosDone, guardedHooks, harness, Loop, runGated } from "./harness.js"

/** Starts the summary system message; a host (or a test) recognises a compaction by it. */
const SUMMARY_PREFIX = "[Summary of earlier conversation]\n"

/** The system reminder `flushToMemory` puts between the summary and the tail. */
const FLUSH_REMINDER =
  "Before continuing: if anything from earlier is worth keeping, save it with the memory tool now — the earlier transcript is about to be summarized."

/** Milliseconds on a monotonic clock where there is one. */
const now = () => globalThis.performance?.now() ?? Date.now()

/** Calls a host's callback; a throw is the host's problem, never the run's. */
function quietly(call) {
  try {
    call()
  } catch {
    // the host's callback must not fail the run
  }
}

/**
 * The estimate of one message: a quarter of its JSON text's length, rounded up. A message's
 * `metadata` never reaches the provider (the client takes it off each request), so it is not
 * counted.
 */
function messageTokens(message) {
  const sent = message !== null && typeof message === "object" && Object.hasOwn(message, "metadata") ? withoutMetadata(message) : message
  const text = JSON.stringify(sent)
  return text === undefined ? 0 : Math.ceil(text.length / 4)
}

/** A copy of `message` without its `metadata` (what the provider is sent). */
function withoutMetadata(message) {
  const { metadata, ...sent } = message
  return sent
}

/**
 * What a summary stands for: each older message counts once, with its estimate, except an
 * earlier summary, which counts as what it recorded, and the flush reminder, which counts as
 * nothing (it was never the conversation's).
 */
function replaced(older, tokensOf) {
  let messages = 0
  const plain = []
  let tokens = 0
  for (const message of older) {
    const earlier = message?.metadata?.compacted
    if (earlier !== undefined && Number.isFinite(earlier.messages) && Number.isFinite(earlier.tokens)) {
      messages += earlier.messages
      tokens += earlier.tokens
    } else if (message?.content !== FLUSH_REMINDER) {
      messages += 1
      plain.push(message)
    }
  }
  return { messages, tokens: tokens + (plain.length > 0 ? tokensOf(plain) : 0) }
}

/** How many messages one JSON text of the no-op check covers (see {@link overBudget}). */
const CHUNK = 64

/**
 * Whether `estimateTokens(messages)` is over `limit`, from bounds rather than the sum itself
 * (which is a sum of each message's rounded-up quarter): `false` or `true` when the bounds
 * decide, `undefined` when they do not (the exact sum then does). The messages are read from
 * the end in runs of {@link CHUNK}, each run's text made by one `JSON.stringify` of the run
 * (faster than one per message); the text less its brackets and commas is the sum of the run's
 * JSON lengths, and the run's estimate lies between that sum / 4 and (that sum + 3 per message)
 * / 4. It stops as soon as what it has read is surely over: a transcript over budget, about to be
 * compacted, is not read whole first.
 */
function overBudget(messages, limit) {
  let least = 0
  let most = 0
  for (let end = messages.length; end > 0; end -= CHUNK) {
    const run = runBounds(messages, Math.max(0, end - CHUNK), end)
    if (run === undefined) return undefined
    least += run.least
    most += run.most
    if (least > limit) return true
  }
  return most > limit ? undefined : false
}

/**
 * The bounds of the estimate of `messages[start..end)` (see {@link overBudget}). A message with
 * `metadata` is measured alone, without it. `undefined` when the run's text would not be the
 * messages' texts side by side: an item `JSON.stringify` gives no text for (`undefined`, a
 * function), one with its own `toJSON` (it may answer the array's index differently), or a throw
 * (the exact estimate then says it).
 */
function runBounds(messages, start, end) {
  let alone = 0
  const run = []
  for (let i = start; i < end; i++) {
    const message = messages[i]
    if (message !== null && typeof message === "object") {
      if (typeof message.toJSON === "function") return undefined
      if (Object.hasOwn(message, "metadata")) {
        alone += messageTokens(message)
        continue
      }
    } else if (message === undefined || typeof message === "function" || typeof message === "symbol") {
      return undefined
    }
    run.push(message)
  }
  if (typeof run.toJSON === "function") return undefined
  let text
  try {
    text = JSON.stringify(run)
  } catch {
    return undefined
  }
  const sum = text.length - 2 - Math.max(run.length - 1, 0)
  return { least: alone + sum / 4, most: alone + (sum + 3 * run.length) / 4 }
}

/**
 * The default token estimate of a transcript: per message, ceil(length of its JSON text / 4),
 * summed; a message's `metadata` (never sent to the provider) is left out. An estimator, not a
 * tokenizer.
 */
export function estimateTokens(messages) {
  if (!Array.isArray(messages)) {
    throw new ToolnexusError("invalid_argument", `estimateTokens: messages must be an array, got ${typeName(messages)}`)
  }
  let total = 0
  for (const message of messages) total += messageTokens(message)
  return total
}

/**
 * Where the tail may start: a `user` message that is not an Anthropic tool-result carrier (a
 * `user` message whose content holds a `tool_result` block belongs to the tool group before it).
 */
function isBoundary(message) {
  if (message === null || typeof message !== "object" || message.role !== "user") return false
  const content = message.content
  return !(Array.isArray(content) && content.some((block) => block !== null && typeof block === "object" && block.type === "tool_result"))
}

/**
 * The index the kept tail starts at, a boundary after the first message past the head (`from`;
 * a tail from there would leave nothing to summarize): the earliest whose tail still fits
 * `keepTail`; when none fits, the latest (safety over size); with none, `messages.length`
 * (everything after the head is summarized).
 * `tailTokens(i)` is the estimate of `messages.slice(i)`.
 */
function tailStart(messages, from, keepTail, tailTokens) {
  let start = messages.length
  for (let i = messages.length - 1; i > from && !(tailTokens(i) > keepTail); i--) {
    if (isBoundary(messages[i])) start = i
  }
  if (start < messages.length) return start
  for (let i = messages.length - 1; i > from; i--) if (isBoundary(messages[i])) return i
  return messages.length
}

/**
 * A `beforeLLM` hook (SPEC §7F, §8) that keeps a long-lived agent under budget. At or below
 * `maxTokens` it returns nothing (the run is byte-identical to one without it); above, the
 * transcript becomes `[leading system prompt, summary, (flush reminder), ...tail]`, the tail
 * starting at a real user turn so no tool result loses its call. The hook also carries itself as
 * `beforeLLM`, so it is a hooks object too: `hooks: compactor(...)` or `hooks: {beforeLLM: compactor(...)}`.
 */
export function compactor(options) {
  if (options === null || typeof options !== "object") {
    throw new ToolnexusError("invalid_options", `compactor: options must be {maxTokens, summarize, keepTail?, countTokens?, flushToMemory?, onError?, onMetric?}, got ${typeName(options)}`)
  }
  const { maxTokens, keepTail, summarize, countTokens, flushToMemory, onError, onMetric } = options
  if (typeof maxTokens !== "number" || Number.isNaN(maxTokens)) {
    throw new ToolnexusError("invalid_options", `compactor: maxTokens must be a number, got ${typeName(maxTokens)}`)
  }
  if (!(maxTokens > 0)) throw new ToolnexusError("invalid_options", `compactor: maxTokens must be positive, got ${maxTokens}`)
  if (keepTail !== undefined && (typeof keepTail !== "number" || Number.isNaN(keepTail))) {
    throw new ToolnexusError("invalid_options", `compactor: keepTail must be a number, got ${typeName(keepTail)}`)
  }
  if (keepTail !== undefined && !(keepTail >= 0 && keepTail <= maxTokens)) {
    throw new ToolnexusError("invalid_options", `compactor: keepTail must be from 0 to maxTokens (${maxTokens}), got ${keepTail}`)
  }
  if (onError !== undefined && typeof onError !== "function") {
    throw new ToolnexusError("invalid_options", `compactor: onError must be a function, got ${typeName(onError)}`)
  }
  if (onMetric !== undefined && typeof onMetric !== "function") {
    throw new ToolnexusError("invalid_options", `compactor: onMetric must be a function, got ${typeName(onMetric)}`)
  }
  if (typeof summarize !== "function") {
    throw new ToolnexusError("invalid_options", `compactor: summarize must be a function, got ${typeName(summarize)}`)
  }
  if (countTokens !== undefined && typeof countTokens !== "function") {
    throw new ToolnexusError("invalid_options", `compactor: countTokens must be a function, got ${typeName(countTokens)}`)
  }
  const keep = keepTail ?? Math.floor(maxTokens / 2)

  async function beforeLLM(event) {
    const messages = event?.messages
    if (!Array.isArray(messages)) {
      throw new ToolnexusError("invalid_argument", `compactor: the beforeLLM event's messages must be an array, got ${typeName(messages)}`)
    }
    // The default estimate is a sum over messages: the no-op check (the common case) reads the
    // bounds a few JSON texts of the transcript give (see overBudget); when they do not
    // decide, each message is measured once, from the end, as far as the tail search asks, and
    // a tail's estimate is a running sum. A host's countTokens is asked about each candidate tail.
    let tailTokens
    let over
    if (countTokens === undefined) {
      const sums = [0] // sums[k]: the estimate of the last k messages
      tailTokens = (i) => {
        for (let k = sums.length; k <= messages.length - i; k++) sums.push(sums[k - 1] + messageTokens(messages[messages.length - k]))
        return sums[messages.length - i]
      }
      over = overBudget(messages, maxTokens) ?? tailTokens(0) > maxTokens
    } else {
      tailTokens = (i) => countTokens(messages.slice(i))
      over = countTokens(messages) > maxTokens
    }
    if (!over) return undefined
    const head = messages.length > 0 && messages[0]?.role === "system" ? 1 : 0
    const start = tailStart(messages, head, keep, tailTokens)
    if (start <= head) return undefined
    const older = messages.slice(head, start)
    const stands = replaced(older, countTokens ?? estimateTokens)
    const began = now()
    let summary
    let failure
    try {
      summary = await summarize(older)
      if (typeof summary !== "string") failure = new ToolnexusError("hook", `compactor: summarize gave ${typeName(summary)}, not a string; this call goes uncompacted`)
    } catch (thrown) {
      failure = new ToolnexusError("hook", `compactor: summarize failed, this call goes uncompacted: ${errorText(thrown)}`, { cause: thrown })
    }
    const metric = { event: "compaction", status: failure === undefined ? "ok" : "error", model: String(event.model ?? ""), ...stands, ms: now() - began }
    if (failure !== undefined) metric.error = failure.message
    if (onMetric !== undefined) quietly(() => onMetric(metric))
    if (failure !== undefined) {
      // The run goes on with the whole transcript: a summary is an optimisation, the transcript is not.
      console.warn(`[toolnexus] ${failure.message}`)
      if (onError !== undefined) quietly(() => onError(failure))
      return undefined
    }
    const compacted = messages.slice(0, head)
    // A transcript that leads with a system prompt (OpenAI) takes the summary as system messages,
    // as the reference writes it. One without (Anthropic keeps its prompt in the request's
    // `system`, and its API refuses a system role inside `messages`) takes them as user turns,
    // which both APIs accept before the tail's own user turn.
    const role = head === 1 ? "system" : "user"
    // `metadata` says what the summary stands for (a UI's "12 earlier messages summarised");
    // the client never sends it to the provider, and the transcript and stores keep it.
    compacted.push({ role, content: SUMMARY_PREFIX + summary, metadata: { compacted: stands } })
    if (flushToMemory) compacted.push({ role, content: FLUSH_REMINDER })
    for (let i = start; i < messages.length; i++) compacted.push(messages[i])
    return { messages: compacted }
  }
  beforeLLM.beforeLLM = beforeLLM
  return beforeLLM
}
