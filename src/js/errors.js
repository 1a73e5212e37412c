// The package's one error class. Every failure the library reports (a run that fails, an option
// refused, a store that cannot write) is a `ToolnexusError`: `code` says what kind (the
// `ErrorCode` union in index.d.ts, the table in README.md), `status` is the HTTP status of an
// `http_status` failure, `retryable` whether trying the same call later may succeed. The wasm
// module makes its errors with this class once the facade has handed it over (src/ts/core/index.ts),
// and the plain-JavaScript parts (stores, httpTool, createInProcessClient) make theirs here.
// Plain JavaScript, bundled into every entry (scripts/bundle-entry.mjs).

/** Marks a `ToolnexusError` so one made by another copy of the package is still recognised. */
const BRAND = Symbol.for("toolnexus.error")

/** Codes whose failure may pass when the same call is tried again later. */
const RETRYABLE_CODES = ["network", "timeout"]

/** HTTP statuses the run loop itself retries: 429 and the gateway 5xx. */
const RETRYABLE_STATUSES = [429, 500, 502, 503, 504]

/**
 * A failure reported by toolnexus-wasm.
 *
 * ```js
 * try { await client.run("hi") } catch (e) {
 *   if (isToolnexusError(e) && e.code === "http_status" && e.status === 401) askForKey()
 * }
 * ```
 */
export class ToolnexusError extends Error {
  /**
   * @param {string} code what kind of failure (an `ErrorCode`)
   * @param {string} message what happened, never holding a key or a header value
   * @param {{status?: number, retryable?: boolean, cause?: unknown, name?: string}} [options]
   */
  constructor(code, message, options) {
    const { status, retryable, cause, name } = options ?? {}
    super(message, cause === undefined ? undefined : { cause })
    this.code = code
    if (typeof status === "number") this.status = status
    this.retryable =
      typeof retryable === "boolean"
        ? retryable
        : RETRYABLE_CODES.includes(code) || (code === "http_status" && RETRYABLE_STATUSES.includes(status))
    // An aborted run stays an `AbortError` by name, as fetch's and AbortSignal's are.
    if (typeof name === "string") Object.defineProperty(this, "name", { value: name, writable: true, configurable: true })
  }
}
Object.defineProperty(ToolnexusError.prototype, "name", { value: "ToolnexusError", writable: true, configurable: true })
Object.defineProperty(ToolnexusError.prototype, BRAND, { value: true })

/**
 * Whether `value` is a `ToolnexusError`, also one made by another copy of the package (two
 * bundles, a worker): narrows `e` to read `e.code`.
 *
 * ```js
 * catch (e) { if (isToolnexusError(e)) console.log(e.code, e.retryable) }
 * ```
 */
export function isToolnexusError(value) {
  try {
    return typeof value === "object" && value !== null && value[BRAND] === true && typeof value.code === "string"
  } catch {
    return false
  }
}
