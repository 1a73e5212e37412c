// The few hot paths of the wasm glue written as plain JavaScript, so each costs one call across
// the JS↔wasm boundary instead of one per property: an HTTP exchange (`fetchText`) and a tool
// call (`callTool`). Neither ever throws or rejects: every outcome comes back as a small array
// `[tag, ...parts]`, its tag one of `OUTCOME` (src/js/outcome.rs names the same tags and reads
// the arrays; tests/wasm/outcome.rs checks the two agree).

/** The tags of the outcome arrays, by name. */
const OUTCOME = Object.freeze({
  VALUE: 0,
  THREW: 1,
  RESPONSE: 2,
  BODY_FAILED: 3,
  NOT_A_RESPONSE: 4,
  DONE: 5,
  NO_READER: 6,
  NOT_A_STEP: 7,
  TOOL_RESULT: 8,
})
const { VALUE, THREW, RESPONSE, BODY_FAILED, NOT_A_RESPONSE, DONE, NO_READER, NOT_A_STEP, TOOL_RESULT } = OUTCOME

/** `OUTCOME`, for the test that holds it against the Rust side's names. */
export function outcomeTags() {
  return OUTCOME
}

const isThenable = (value) => {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return false
  try {
    return typeof value.then === "function"
  } catch {
    return false
  }
}

/** `object[key]` (`convert::get`): `undefined` for a primitive or a throwing getter, in one crossing. */
export function field(object, key) {
  if (object === null || (typeof object !== "object" && typeof object !== "function")) return undefined
  try {
    return object[key]
  } catch {
    return undefined
  }
}

/**
 * `fetch(url, {method, headers, body?, signal?})`, then the whole body as text.
 * `headers` is a flat `[name, value, name, value, ...]` array. With `splice` (a string the
 * module never held: a long history), the body is `body + splice + after`. Resolves to the
 * text alone for a 200 without `Retry-After`, `[RESPONSE, status, retryAfter | undefined,
 * text]` on any other response, `[THREW, thrown]` when `fetch` failed, `[BODY_FAILED, thrown]`
 * when reading the body failed, `[NOT_A_RESPONSE]` when `fetch` gave no `Response`; that
 * outcome goes to `settle(slot, outcome)` (see src/js/slot.rs), later, never synchronously.
 * `headers` is the client's own array, reused: it is only read.
 */
export function fetchText(fetch, url, method, headers, body, splice, after, signal, settle, slot) {
  // A rejection (a throwing `status` getter, a `text()` value whose `toString` throws) is a
  // failure of the exchange, like any other: the slot is always settled.
  exchange(fetch, url, method, headers, body, splice, after, signal).then(
    (outcome) => settle(slot, outcome),
    (thrown) => settle(slot, [THREW, thrown]),
  )
}

function exchange(fetch, url, method, headers, body, splice, after, signal) {
  const init = { method, headers: {} }
  for (let i = 0; i + 1 < headers.length; i += 2) init.headers[headers[i]] = headers[i + 1]
  if (body !== undefined) init.body = splice === undefined ? body : body + splice + after
  if (signal !== undefined) init.signal = signal
  let started
  try {
    started = fetch(url, init)
  } catch (thrown) {
    return Promise.resolve([THREW, thrown])
  }
  return Promise.resolve(started).then(
    (response) => {
      if (response === null || typeof response !== "object" || typeof response.text !== "function") return [NOT_A_RESPONSE]
      let retryAfter
      try {
        retryAfter = response.headers?.get?.("retry-after") ?? undefined
      } catch {
        retryAfter = undefined
      }
      const status = Number(response.status) || 0
      let reading
      try {
        reading = response.text()
      } catch (thrown) {
        return [BODY_FAILED, thrown]
      }
      const after = typeof retryAfter === "string" ? retryAfter : undefined
      return Promise.resolve(reading).then(
        (text) => (status === 200 && after === undefined ? String(text ?? "") : [RESPONSE, status, after, String(text ?? "")]),
        (thrown) => [BODY_FAILED, thrown],
      )
    },
    (thrown) => [THREW, thrown],
  )
}

/**
 * The next chunk of a response body: `reader.read()`, its outcome given to
 * `settle(slot, outcome)` later, never synchronously: `[VALUE, value]` for a chunk, `[DONE]` once
 * the stream is done, `[THREW, thrown]` when `read` threw, rejected, or its result could not be
 * read (a throwing getter), `[NO_READER]` when the reader has no `read`, `[NOT_A_STEP]` when
 * `read` gave no object (a
 * reader that would otherwise be read forever). One shared callback instead of a Promise's two closures per chunk.
 */
export function readChunk(reader, settle, slot) {
  const failed = (thrown) => settle(slot, [THREW, thrown])
  let reading
  try {
    if (typeof reader.read !== "function") {
      Promise.resolve().then(() => settle(slot, [NO_READER]))
      return
    }
    reading = reader.read()
  } catch (thrown) {
    Promise.resolve().then(() => failed(thrown))
    return
  }
  Promise.resolve(reading).then((step) => {
    let outcome
    try {
      if (step === null || typeof step !== "object") outcome = [NOT_A_STEP]
      else outcome = step.done === true ? [DONE] : [VALUE, step.value]
    } catch (thrown) {
      outcome = [THREW, thrown]
    }
    settle(slot, outcome)
  }, failed)
}

/** A stream's text event, as `client.stream()` yields it (src/js/run_stream.rs). */
export function textEvent(delta) {
  return { type: "text", delta }
}

/** An async iterator's result. */
export function iteratorStep(value, done) {
  return { value, done }
}

/**
 * A tool definition's `name`, `description`, `source` and `inputSchema` in one crossing, as
 * the JSON text `[name, description, source, inputSchema]` (an absent field `null`), when
 * `name` is a string, `description` and `source` strings or absent, and `inputSchema` absent or
 * a non-array object `JSON.stringify` takes; `undefined` for anything else (a throwing getter
 * too), and the caller reads the fields one by one for the precise error.
 */
export function toolFields(tool) {
  try {
    const { name, description, source, inputSchema } = tool
    if (typeof name !== "string") return undefined
    if (description != null && typeof description !== "string") return undefined
    if (source != null && typeof source !== "string") return undefined
    if (inputSchema != null && (typeof inputSchema !== "object" || Array.isArray(inputSchema))) return undefined
    return JSON.stringify([name, description ?? null, source ?? null, inputSchema ?? null])
  } catch {
    return undefined
  }
}

/** Each `Toolkit` object this module instance made: `[marker, id]` (see src/js/toolkit.rs). */
const toolkits = new WeakMap()

/** Remembers a `Toolkit` object `createToolkit` made, with its instance's marker and its id. */
export function rememberToolkit(toolkit, marker, id) {
  toolkits.set(toolkit, [marker, id])
}

/** The id of `toolkit` when it is a `Toolkit` the instance with `marker` made, else `undefined`. */
export function toolkitId(toolkit, marker) {
  const found = toolkits.get(toolkit)
  return found !== undefined && found[0] === marker ? found[1] : undefined
}

const NO_OPTIONS = [undefined, undefined, undefined, undefined, undefined]

/**
 * What a run reads of its options `ctx`, in one crossing: `[toolkitId, signal, history, id,
 * onText]` (`onText`, else its deprecated spelling `on_text`), or `toolkitId` alone when the rest are all `undefined`. `toolkitId` is the id of
 * `ctx.toolkit` when it is a `Toolkit` the instance with `marker` made, else `undefined`; a
 * missing field, a throwing getter or a `ctx` that is no object gives `undefined` there.
 */
export function runOptions(ctx, marker) {
  if (ctx === null || (typeof ctx !== "object" && typeof ctx !== "function")) return NO_OPTIONS
  const field = (key) => {
    try {
      return ctx[key]
    } catch {
      return undefined
    }
  }
  const toolkit = toolkits.get(field("toolkit"))
  const toolkitId = toolkit !== undefined && toolkit[0] === marker ? toolkit[1] : undefined
  const [signal, history, id, onText] = [field("signal"), field("history"), field("id"), field("onText") ?? field("on_text")]
  // The usual run gives a toolkit and nothing else: its id alone, read in one crossing.
  const alone = toolkitId !== undefined && signal === undefined && history === undefined && id === undefined && onText === undefined
  return alone ? toolkitId : [toolkitId, signal, history, id, onText]
}

/**
 * The `signal` of a context whose run has none to give: an own enumerable accessor, shared by
 * every such context, that makes a signal on first read (one that never fires) and leaves it
 * as the context's data property.
 */
const LAZY_SIGNAL = {
  enumerable: true,
  configurable: true,
  get() {
    const signal = new AbortController().signal
    Object.defineProperty(this, "signal", { value: signal, writable: true, enumerable: true, configurable: true })
    return signal
  },
}

/** A context whose `signal` is made on first read (see {@link LAZY_SIGNAL}). */
const lazyContext = () => Object.defineProperty({}, "signal", LAZY_SIGNAL)

/**
 * A settled tool value: a string as it is; a plain ToolResult `{output: string, isError?:
 * boolean}` without metadata or parts as `[TOOL_RESULT, output, isError]` (read without a crossing per
 * field); anything else as `[VALUE, value]`, for the Rust side to decode.
 */
const settled = (value) => {
  if (typeof value === "string") return value
  if (value !== null && typeof value === "object" && !(value instanceof Error)) {
    try {
      const { output, isError, metadata, parts } = value
      if (typeof output === "string" && (isError === undefined || typeof isError === "boolean") && metadata == null && parts == null) {
        return [TOOL_RESULT, output, isError === true]
      }
    } catch {
      // A throwing getter: the Rust side decodes the value and reports it.
    }
  }
  return [VALUE, value]
}
const failed = (thrown) => [THREW, thrown]

/**
 * Calls a tool function `func.call(self, JSON.parse(args), ctx)`. A string result comes back
 * as it is, any other value as `[VALUE, value]`, a throw as `[THREW, thrown]`; for a thenable result
 * `undefined` comes back and `settle(slot, outcome)` gets the same shapes when it settles. `signal` is the `AbortSignal` for `ctx.signal`, `true` for one
 * made on first read (a run nothing can abort), or `undefined` for none. `answer` is the JSON
 * text of `ctx.answer` when there is one.
 */
export function callTool(func, self, args, signal, timeout, answer, settle, slot) {
  const lazy = signal === true && typeof AbortController === "function"
  const ctx = lazy ? lazyContext() : {}
  if (signal !== undefined && signal !== true) ctx.signal = signal
  if (timeout !== undefined) ctx.timeout = timeout
  if (answer !== undefined) ctx.answer = JSON.parse(answer)
  let out
  try {
    out = func.call(self, JSON.parse(args), ctx)
  } catch (thrown) {
    return [THREW, thrown]
  }
  if (!isThenable(out)) return settled(out)
  let pending
  try {
    pending = Promise.resolve(out)
  } catch (thrown) {
    return [THREW, thrown]
  }
  pending.then(settled, failed).then(
    (outcome) => settle(slot, outcome),
    (thrown) => settle(slot, [THREW, thrown]),
  )
  return undefined
}

/**
 * The JSON text of the items of `history` (its `JSON.stringify` without the brackets) when it
 * is a non-empty array that stringifies; `undefined` otherwise, for the Rust side to decode the
 * ordinary way (and report what is wrong with it). A history whose text names a `"metadata"`
 * key is decoded too: the core takes a message's `metadata` off each request, which a text it
 * only copies could not have.
 */
export function historyItems(history) {
  if (!Array.isArray(history) || history.length === 0) return undefined
  let text
  try {
    text = JSON.stringify(history)
  } catch {
    return undefined
  }
  if (typeof text !== "string" || text.length <= 2 || text.includes('"metadata"')) return undefined
  return text.slice(1, -1)
}

/** Makes `object[key]` the data property `value` (in place of its accessor); gives `value`. */
const settle = (object, key, value) => {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  return value
}

/**
 * The JSON texts behind a result's lists until they are read or replaced: `{messages,
 * toolCalls, history}`, in a non-enumerable symbol-keyed slot of the result (keys, JSON,
 * spread and `structuredClone` never see it; a `WeakMap` entry cost more than the rest of the
 * result).
 */
const TEXTS = Symbol("toolnexus.listTexts")

/** The result an accessor was read through: `object` itself, or the one it inherits from. */
const resultOf = (object) => {
  let at = object
  while (at !== null && typeof at === "object" && !Object.hasOwn(at, TEXTS)) at = Object.getPrototypeOf(at)
  return at !== null && typeof at === "object" ? at : object
}

/** Takes the text of a result's list `key` out of its slot (`undefined` once taken). */
const takeText = (result, key) => {
  const texts = Object.hasOwn(result, TEXTS) ? result[TEXTS] : undefined
  if (texts === undefined) return undefined
  const text = texts[key]
  texts[key] = undefined
  if (texts.messages === undefined && texts.toolCalls === undefined) result[TEXTS] = undefined
  return text
}

/** An accessor pair for the list `key`, shared by every result (so a result costs no closures). */
const listAccessor = (key, parse) => ({
  enumerable: true,
  configurable: true,
  get() {
    const result = resultOf(this)
    const history = Object.hasOwn(result, TEXTS) ? result[TEXTS]?.history : undefined
    return settle(result, key, parse(takeText(result, key) ?? "[]", history))
  },
  set(value) {
    // Assigning through an object that inherits from the result gives that object its own list.
    if (Object.hasOwn(this, TEXTS)) takeText(this, key)
    settle(this, key, value)
  },
})

// The first read parses the list and leaves an ordinary data property; assigning first skips
// the parse.
const MESSAGES = listAccessor("messages", (text, history) => {
  const own = JSON.parse(text)
  return history === undefined ? own : JSON.parse(`[${history}]`).concat(own)
})
const TOOL_CALLS = listAccessor("toolCalls", (text) => JSON.parse(text))

/**
 * A run's result, in the key order of the contract: `messages` and `toolCalls` come as JSON
 * text parsed when first read; `history`, when given, is the JSON text of the items of the
 * history the run continued, put before the run's own messages. `counts` is `[toolCallCount,
 * turns, promptTokens, completionTokens, totalTokens]`; `extra` the JSON text of `{pending?,
 * limit?, saveError?}` when the result has any of them.
 */
export function runResult(text, messages, toolCalls, history, counts, model, status, extra) {
  const result = { text }
  Object.defineProperty(result, "messages", MESSAGES)
  Object.defineProperty(result, "toolCalls", TOOL_CALLS)
  result.toolCallCount = counts[0]
  result.turns = counts[1]
  result.usage = { promptTokens: counts[2], completionTokens: counts[3], totalTokens: counts[4] }
  result.model = model
  result.status = status
  Object.defineProperty(result, TEXTS, { value: { messages, toolCalls, history }, writable: true })
  return extra === undefined ? result : Object.assign(result, JSON.parse(extra))
}
