// The few hot paths of the wasm glue written as plain JavaScript, so each costs one call across
// the JS↔wasm boundary instead of one per property: an HTTP exchange (`fetchText`) and a tool
// call (`callTool`). Neither ever throws or rejects: every outcome comes back as a small array
// the Rust side reads by position (see src/js/http.rs and src/js/tool.rs).

const isThenable = (value) => {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return false
  try {
    return typeof value.then === "function"
  } catch {
    return false
  }
}

/**
 * `fetch(url, {method, headers, body?, signal?})`, then the whole body as text.
 * `headers` is a flat `[name, value, name, value, ...]` array. Resolves to
 * `[0, status, retryAfter | undefined, text]` on a response, `[1, thrown]` when `fetch` failed,
 * `[2, thrown]` when reading the body failed, `[3]` when `fetch` gave no `Response`.
 */
export function fetchText(fetch, url, method, headers, body, signal) {
  const init = { method, headers: {} }
  for (let i = 0; i + 1 < headers.length; i += 2) init.headers[headers[i]] = headers[i + 1]
  if (body !== undefined) init.body = body
  if (signal !== undefined) init.signal = signal
  let started
  try {
    started = fetch(url, init)
  } catch (thrown) {
    return Promise.resolve([1, thrown])
  }
  return Promise.resolve(started).then(
    (response) => {
      if (response === null || typeof response !== "object" || typeof response.text !== "function") return [3]
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
        return [2, thrown]
      }
      return Promise.resolve(reading).then(
        (text) => [0, status, typeof retryAfter === "string" ? retryAfter : undefined, String(text ?? "")],
        (thrown) => [2, thrown],
      )
    },
    (thrown) => [1, thrown],
  )
}

/** `new RegExp(pattern)`, or `[1, thrown]` when the pattern is invalid. */
export function compileRegExp(pattern) {
  try {
    return new RegExp(pattern)
  } catch (thrown) {
    return [1, thrown]
  }
}

/** The indices of the lines of `text` (split on "\n") that `re.test` accepts, at most `limit`. */
export function matchingLines(re, text, limit) {
  const out = []
  const lines = text.split("\n")
  for (let i = 0; i < lines.length && out.length < limit; i++) {
    if (re.test(lines[i])) out.push(i)
  }
  return Uint32Array.from(out)
}

/** A context whose `signal` (the run has none to give) is made on first read, never fired. */
function lazyContext() {
  let signal
  return {
    get signal() {
      if (signal === undefined) signal = new AbortController().signal
      return signal
    },
  }
}

/**
 * A settled tool value: a string as it is; a plain ToolResult `{output: string, isError?:
 * boolean}` without metadata as `[2, output, isError]` (read without a crossing per field);
 * anything else as `[0, value]`, for the Rust side to decode.
 */
const settled = (value) => {
  if (typeof value === "string") return value
  if (value !== null && typeof value === "object" && !(value instanceof Error)) {
    try {
      const { output, isError, metadata } = value
      if (typeof output === "string" && (isError === undefined || typeof isError === "boolean") && metadata == null) {
        return [2, output, isError === true]
      }
    } catch {
      // A throwing getter: the Rust side decodes the value and reports it.
    }
  }
  return [0, value]
}
const failed = (thrown) => [1, thrown]

/**
 * Calls a tool function `func.call(self, JSON.parse(args), ctx)`. A string result comes back
 * as it is, any other value as `[0, value]`, a throw as `[1, thrown]`; a thenable result gives a
 * Promise of the same shapes. `signal` is the `AbortSignal` for `ctx.signal`, `true` for one
 * made on first read (a run nothing can abort), or `undefined` for none. `answer` is the JSON
 * text of `ctx.answer` when there is one.
 */
export function callTool(func, self, args, signal, timeout, answer) {
  const lazy = signal === true && typeof AbortController === "function"
  const ctx = lazy ? lazyContext() : {}
  if (signal !== undefined && signal !== true) ctx.signal = signal
  if (timeout !== undefined) ctx.timeout = timeout
  if (answer !== undefined) ctx.answer = JSON.parse(answer)
  let out
  try {
    out = func.call(self, JSON.parse(args), ctx)
  } catch (thrown) {
    return [1, thrown]
  }
  if (!isThenable(out)) return settled(out)
  try {
    return Promise.resolve(out).then(settled, failed)
  } catch (thrown) {
    return [1, thrown]
  }
}

/**
 * A run's result whose `messages` hold only the run's own messages, completed with the history
 * it continued (`history` is the history's JSON text, so the result holds a fresh copy).
 */
export function prependHistory(result, history) {
  if (result !== null && typeof result === "object" && Array.isArray(result.messages)) {
    result.messages = JSON.parse(history).concat(result.messages)
  }
  return result
}
