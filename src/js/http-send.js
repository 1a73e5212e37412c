// The sending half of `httpTool` (http-tool.js checks the options and loads this module when
// the first HTTP tool is made): builds each call's request from the declaration and the
// arguments, sends it with the call's timeout and signal, and shapes the response as a
// `ToolResult`. A page without HTTP tools never downloads it. The one helper it shares with
// stores.js comes from the caller (`sender(helpers)`), so loading it fetches nothing else.

/**
 * The function that sends one call, over `errorText` from stores.js.
 *
 * ```js
 * const send = (await import("./http-send.js")).sender({ errorText })
 * const result = await send(declared, fetch, args, ctx, env)
 * ```
 */
export function sender({ errorText }) {
  const DEFAULT_TIMEOUT_MS = 30000
  const absent = (value) => value === undefined || value === null

  /**
   * One environment variable: `process.env` where there is one, else `Deno.env` when reading it
   * is already allowed (asking would prompt in a terminal); empty counts as unset.
   */
  function runtimeEnv(name) {
    try {
      const fromProcess = globalThis.process?.env?.[name]
      if (typeof fromProcess === "string") return fromProcess || undefined
      const deno = globalThis.Deno
      if (deno?.permissions?.querySync?.({ name: "env", variable: name })?.state !== "granted") return undefined
      return deno.env.get(name) || undefined
    } catch {
      return undefined
    }
  }

  /** Every `<open>NAME}` (NAME of letters, digits and `_`) replaced with `fill(NAME)`. */
  const braced = (text, open, fill) =>
    text.replace(open === "{" ? /\{([A-Za-z0-9_]+)\}/g : /\$\{([A-Za-z0-9_]+)\}/g, (_, name) => fill(name))

  /** `String(value)` for argument values (`null` as "null", objects as JavaScript writes them). */
  const text = (value) => String(value)

  /** The request of one call: `[url, init]` for `fetch`. */
  function request(declared, args, env) {
    const rest = { ...(args !== null && typeof args === "object" && !Array.isArray(args) ? args : {}) }
    let url = braced(declared.url, "{", (name) => {
      const value = rest[name]
      delete rest[name]
      return absent(value) ? "" : encodeURIComponent(text(value))
    })
    const { method } = declared
    const query = new URLSearchParams()
    for (const name of Object.keys(rest)) {
      if (method === "GET" || declared.query.includes(name)) {
        query.append(name, text(rest[name]))
        delete rest[name]
      }
    }
    const search = query.toString()
    if (search) url += (url.includes("?") ? "&" : "?") + search
    const headers = Object.fromEntries(declared.headers.map(([name, value]) => [name, braced(value, "${", (n) => env(n) ?? "")]))
    const init = { method, headers }
    if (method !== "GET" && method !== "HEAD" && Object.keys(rest).length > 0) {
      const typed = Object.keys(headers).some((name) => name.toLowerCase() === "content-type")
      let type
      if (declared.body === "json") {
        type = "application/json"
        init.body = JSON.stringify(rest)
      } else if (declared.body === "form") {
        type = "application/x-www-form-urlencoded"
        init.body = new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, text(v)])).toString()
      } else {
        init.body = absent(rest.body) ? "" : text(rest.body)
      }
      if (type && !typed) headers["Content-Type"] = type
    }
    return [url, init]
  }

  /** A rejected `fetch` as its message, with the cause's code where there is one (`ECONNREFUSED`). */
  function networkText(thrown, context) {
    const cause = thrown?.cause
    const detail = absent(cause) ? "" : ` (${typeof cause.code === "string" ? cause.code : errorText(cause)})`
    return `${context}${errorText(thrown)}${detail}`
  }

  const TIMED_OUT = Symbol("timed out")

  /**
   * Sends one call's request; resolves to its `ToolResult`. `env` reads `${NAME}` (`undefined`:
   * the runtime's environment).
   */
  async function send(declared, fetch, args, ctx, env) {
    const [url, init] = request(declared, args, env ?? runtimeEnv)
    const timeout = typeof ctx?.timeout === "number" ? ctx.timeout : declared.timeout ?? DEFAULT_TIMEOUT_MS
    // Aborted when the call gives up (its timeout) or its caller's signal fires.
    const controller = new AbortController()
    const caller = ctx?.signal
    init.signal = caller && typeof AbortSignal.any === "function" ? AbortSignal.any([controller.signal, caller]) : controller.signal
    let timer
    const late = new Promise((resolve) => {
      timer = setTimeout(resolve, timeout, TIMED_OUT)
    })
    let stage = ""
    try {
      const exchange = (async () => {
        const response = await fetch(url, init)
        stage = "reading the response failed: "
        return [response.status, await response.text()]
      })()
      exchange.catch(() => {}) // after a timeout, its rejection is nobody's
      const outcome = await Promise.race([exchange, late])
      if (outcome === TIMED_OUT) {
        controller.abort()
        return { output: `HTTP tool "${declared.name}" timed out after ${timeout} ms`, isError: true }
      }
      const [status, body] = outcome
      if (status < 200 || status > 299) return { output: `HTTP ${status}: ${body}`, isError: true, metadata: { status } }
      let output = body
      if (declared.result === "status+text") output = `${status}\n${body}`
      else if (declared.result === "json") {
        try {
          output = JSON.stringify(JSON.parse(body))
        } catch {
          output = JSON.stringify(body)
        }
      }
      return { output, isError: false, metadata: { status } }
    } catch (thrown) {
      const output = caller?.aborted ? `aborted: ${errorText(caller.reason)}` : networkText(thrown, stage)
      return { output, isError: true }
    } finally {
      clearTimeout(timer)
    }
  }

  return send
}
