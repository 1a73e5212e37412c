// `httpTool(options)` (SPEC §7): an HTTP endpoint as a tool (`source: "http"`), sent with
// `fetch`. Plain JavaScript, not part of the wasm module: it is fetch, URL and string work,
// which the platform does natively (encodeURIComponent, URLSearchParams, JSON, AbortController)
// in a few hundred bytes here and cost 7.5 KiB gzip of the module's download as Rust. The tool
// itself is a `defineTool` tool of the module the entry gives (`httpToolWith(defineTool)`), so
// a toolkit checks its arguments against `inputSchema` before any request. This file checks
// the options; http-send.js, loaded when the first HTTP tool is made, builds and sends the
// requests. The entries export it as `httpTool`; the build ships both minified, and this one
// as CommonJS in http-tool.cjs too (which loads the same http-send.js).
import { errorText, storeError, typeName } from "./stores.js"

const BODIES = ["json", "form", "raw"]
const RESULTS = ["text", "json", "status+text"]

/** An `Error` with a stable `code`, its message prefixed as the rest of the API's are. */
const failure = (code, message) => storeError(code, `httpTool: ${message}`)

const invalid = (message) => failure("invalid_options", message)

/** The sending half (http-send.js), loaded when the first HTTP tool is made. */
let sending
function loadSend() {
  sending ??= import("./http-send.js").then((module) => module.sender({ errorText }), (thrown) => {
    sending = undefined
    throw failure("unsupported", `the HTTP tool's sender could not be loaded: ${errorText(thrown)}`)
  })
  return sending
}
const absent = (value) => value === undefined || value === null

/** The string option `key`, or `undefined`; anything else is refused. */
function stringOption(options, key) {
  const value = options[key]
  if (absent(value)) return undefined
  if (typeof value !== "string") throw invalid(`${key} must be a string, got ${typeName(value)}`)
  return value
}

function required(options, key) {
  const value = stringOption(options, key)
  if (value === undefined) throw invalid(`${key} is required`)
  return value
}

/** A JSON copy of `value` (as the module reads option values: `toJSON`, no `undefined`). */
function json(value) {
  const text = JSON.stringify(value)
  return text === undefined ? null : JSON.parse(text)
}

/** The option `key` as one of `allowed` (the first is the default). */
function choice(options, key, allowed) {
  const value = stringOption(options, key) ?? allowed[0]
  if (allowed.includes(value)) return value
  const listed = allowed.map((a) => `"${a}"`)
  throw invalid(`${key} must be ${listed.slice(0, -1).join(", ")} or ${listed.at(-1)}, got "${value}"`)
}

function headersOption(options) {
  let headers
  try {
    headers = json(options.headers)
  } catch {
    throw invalid("headers must be an object of strings")
  }
  if (headers === null) return []
  if (typeof headers !== "object" || Array.isArray(headers)) throw invalid("headers must be an object of strings")
  return Object.entries(headers).map(([name, value]) => {
    if (typeof value !== "string") throw invalid(`headers["${name}"] must be a string`)
    return [name, value]
  })
}

function queryOption(options) {
  let query
  try {
    query = json(options.query)
  } catch {
    query = undefined
  }
  if (query === null) return []
  if (!Array.isArray(query) || !query.every((name) => typeof name === "string")) {
    throw invalid("query must be an array of argument names")
  }
  return query
}

function timeoutOption(options) {
  const ms = options.timeout
  if (absent(ms)) return undefined
  if (typeof ms === "number" && Number.isFinite(ms) && ms >= 0) return ms
  throw invalid("timeout must be a non-negative number of milliseconds")
}

/** `${NAME}` from `env` (read at call time); `undefined`: from the runtime's environment. */
function envOption(options) {
  const env = options.env
  if (absent(env)) return undefined // the runtime's environment (http-send.js reads it)
  if (typeof env !== "object") throw invalid("env must be an object of strings")
  return (name) => {
    try {
      const value = env[name]
      return typeof value === "string" ? value : undefined
    } catch {
      return undefined
    }
  }
}

/**
 * The `httpTool` of one module: `defineTool` is that module's.
 *
 * ```js
 * const httpTool = httpToolWith(defineTool)
 * ```
 */
export function httpToolWith(defineTool) {
  /**
   * Declares an HTTP endpoint as a tool (`source: "http"`). `{placeholders}` in `url` are
   * filled from the arguments (URL-encoded) and left out of the body; `query` names go to the
   * query string (every argument on `GET`); the rest is the body (`"json"` by default, `"form"`,
   * or `"raw"`: the `body` argument). Header values expand `${NAME}` from `env` (by default
   * `process.env` / `Deno.env` where the runtime has one); they are never logged or echoed. A
   * non-2xx status resolves to `{isError: true, output: "HTTP <status>: <body>"}`; a 2xx to the
   * body with `metadata.status`. `timeout` (ms, default 30000) aborts the request.
   *
   * ```js
   * const issue = httpTool({
   *   name: "get_issue", description: "Reads a GitHub issue", method: "GET",
   *   url: "https://api.github.com/repos/{owner}/{repo}/issues/{number}",
   *   headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
   * })
   * ```
   */
  return function httpTool(options) {
    if (options === null || typeof options !== "object") throw invalid("options must be an object")
    let inputSchema = options.inputSchema
    if (!absent(inputSchema)) {
      try {
        inputSchema = json(inputSchema)
      } catch (thrown) {
        throw invalid(`inputSchema is not JSON: ${errorText(thrown)}`)
      }
    }
    const body = choice(options, "body", BODIES)
    const result = choice(options, "resultMode", RESULTS)
    const name = required(options, "name")
    const description = stringOption(options, "description") ?? ""
    const declared = {
      name,
      body,
      result,
      // A method is an ASCII token (fetch refuses anything else): upper case is all there is.
      method: required(options, "method").toUpperCase(),
      url: required(options, "url"),
      headers: headersOption(options),
      query: queryOption(options),
      timeout: timeoutOption(options),
    }
    const env = envOption(options)
    const given = options.fetch
    if (!absent(given) && typeof given !== "function") throw invalid(`fetch must be a function, got ${typeName(given)}`)
    const fetch = given ?? (typeof globalThis.fetch === "function" ? globalThis.fetch.bind(globalThis) : undefined)
    if (fetch === undefined) throw failure("unsupported", "this runtime has no fetch; pass one as the fetch option")
    loadSend().catch(() => {}) // fetched now, so the first call does not wait for it; a failure is reported by that call
    try {
      return defineTool({
        name,
        description,
        inputSchema: inputSchema ?? undefined,
        source: "http",
        run: async (args, ctx) => (await loadSend())(declared, fetch, args, ctx, env),
      })
    } catch (thrown) {
      if (typeof thrown?.message === "string") thrown.message = thrown.message.replace(/^defineTool: /, "httpTool: ")
      throw thrown
    }
  }
}
