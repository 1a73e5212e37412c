// `serve` on node:http (Node, Bun): each request becomes a light view (serve-exchange.js) the
// routes' dispatch reads, and the answer is written straight to Node's response: no WHATWG
// `Request`, `Headers` or `Response` per request, which cost more than the A2A work itself.
// The behaviour is the WHATWG handler's: the same routes, caps and answers; a small body with
// a declared length is read whole, any other streams so a cap can stop it; the call's signal
// fires when the client goes away before the answer is written.
import { ToolnexusError } from "./errors.js"
import { errorText } from "./stores.js"
import { readBodyText } from "./request-body.js"
import { textAnswer } from "./serve-exchange.js"

/** The largest declared body `serve` reads whole before calling the routes (64 KiB). */
const SMALL_BODY_BYTES = 65536

/** The routes' own paths: read as they are; any other request target goes through `URL`. */
const PLAIN_PATHS = new Set(["/", "/mcp", "/.well-known/agent-card.json"])

const decoder = new TextDecoder()

/** The reason a call's signal gives when its client went away before the answer was written. */
const GONE = "the client closed the connection"

/**
 * Listens with `http` on `host:port`, answering each request with `dispatch` (views to
 * answers); `check(host, origin)` (when given) refuses a request with a reason (403); `baseUrl`
 * makes the URL callers use. Resolves to `{url, stop(), close()}` once listening.
 */
export async function listenNode(http, dispatch, host, port, check, baseUrl) {
  let origin
  const server = http.createServer((req, res) => void answerNode(dispatch, req, res, origin, check))
  await new Promise((resolve, reject) => {
    const failed = (thrown) => reject(new ToolnexusError("network", `serve: cannot listen on ${host}:${port}: ${errorText(thrown)}`, { cause: thrown }))
    server.once("error", failed)
    server.listen(port, host, () => {
      server.off("error", failed)
      resolve()
    })
  })
  origin = baseUrl(host, server.address().port)
  const stop = () =>
    new Promise((resolve) => {
      // Requests in flight finish; idle keep-alive connections (a client's pool) end now.
      server.close(() => resolve())
      server.closeIdleConnections?.()
    })
  return { url: origin, stop, close: stop }
}

/**
 * A Node request's body as a WHATWG stream, read as the routes pull it (a route that caps a
 * body stops reading it). `drain()` drops what was left unread: read off the socket and
 * discarded, never buffered, so the answer is still written on this connection.
 */
function nodeBody(req) {
  let open = true
  const end = (how) => {
    if (!open) return
    open = false
    how()
  }
  const drain = () => {
    open = false
    req.removeAllListeners("data")
    req.resume()
  }
  const stream = new ReadableStream({
    start(controller) {
      req.on("data", (chunk) => {
        if (!open) return
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        if (controller.desiredSize <= 0) req.pause()
      })
      req.once("end", () => end(() => controller.close()))
      req.once("error", (thrown) => end(() => controller.error(thrown)))
      req.pause()
    },
    pull() {
      req.resume()
    },
    cancel: drain,
  })
  return { stream, drain }
}

/** A body of a declared length within `SMALL_BODY_BYTES`, read off the socket into one buffer. */
function smallBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on("data", (chunk) => chunks.push(chunk))
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
    req.once("error", reject)
  })
}

/** A header of Node's request as the WHATWG `Headers.get` gives it (repeats joined), or `undefined`. */
function headerOf(req, name) {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(", ") : value
}

/**
 * The view of Node's request (serve-exchange.js): `bytes` is a small body already read,
 * `streamed` a `nodeBody`, neither for a request without one.
 * A class, not an object of closures: one is made per request.
 */
class NodeView {
  #req
  #res
  #bytes
  #streamed
  #controller

  constructor(req, res, origin, bytes, streamed) {
    const target = req.url ?? "/"
    this.method = req.method
    this.path = PLAIN_PATHS.has(target) ? target : new URL(origin + (target.startsWith("/") ? target : "/")).pathname
    this.origin = origin
    this.#req = req
    this.#bytes = bytes
    this.#streamed = streamed
    this.#res = res
  }

  header(name) {
    return headerOf(this.#req, name)
  }

  readText(maxBytes) {
    const declared = Number(this.#req.headers["content-length"])
    if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ tooLarge: declared })
    if (this.#streamed !== undefined) return readBodyText({ headers: { get: () => null }, body: this.#streamed.stream }, maxBytes)
    const bytes = this.#bytes
    if (bytes === undefined) return Promise.resolve("")
    return Promise.resolve(bytes.length > maxBytes ? { tooLarge: bytes.length } : decoder.decode(bytes))
  }

  /**
   * The call's cancellation, made only when a route reads it (GetTask never does): aborted once
   * the client goes away before the answer is written, or made aborted when it already has.
   */
  get signal() {
    if (this.#controller !== undefined) return this.#controller.signal
    const controller = new AbortController()
    const res = this.#res
    if (res.closed || res.destroyed) controller.abort(GONE)
    else res.once("close", () => res.writableFinished || controller.abort(GONE))
    this.#controller = controller
    return controller.signal
  }
}

/**
 * Writes `answer` (`{status, headers, body}`) to `res`: text with its length, in one write; a
 * stream (an MCP call that asks the client before it answers) event by event as it comes.
 */
function writeAnswer(res, answer) {
  const body = answer.body ?? ""
  const headers = {}
  const given = answer.headers ?? {}
  if (Array.isArray(given)) {
    for (const [name, value] of given) {
      const key = name.toLowerCase()
      headers[key] = key in headers ? `${headers[key]}, ${value}` : value
    }
  } else {
    for (const name in given) headers[name.toLowerCase()] = given[name]
  }
  if (typeof body === "string") {
    headers["content-length"] = Buffer.byteLength(body)
    res.writeHead(answer.status, headers)
    res.end(body)
    return undefined
  }
  res.writeHead(answer.status, headers)
  res.flushHeaders()
  return writeStream(res, body)
}

/** Writes the chunks of `body` to `res` as they come, then ends it. */
async function writeStream(res, body) {
  for await (const chunk of body) res.write(chunk)
  res.end()
}

/** One Node exchange: the view to `dispatch`, its answer written to `res`. */
async function answerNode(dispatch, req, res, origin, check) {
  // (A routes' failure is a bare 500: what it threw may hold what a client must not read.)
  let streamed
  try {
    const hasBody = req.method !== "GET" && req.method !== "HEAD"
    // A small body with a declared length is read whole (the common JSON-RPC call: a
    // WHATWG stream costs more than the body); any other body streams, so a cap can stop it.
    const declared = Number(req.headers["content-length"])
    const small = hasBody && Number.isSafeInteger(declared) && declared <= SMALL_BODY_BYTES
    if (hasBody && !small) streamed = nodeBody(req)
    const bytes = small ? await smallBody(req) : undefined
    const why = check?.(req.headers.host, headerOf(req, "origin"))
    const answer = why !== undefined ? textAnswer(403, `forbidden: ${why}`) : await dispatch(new NodeView(req, res, origin, bytes, streamed))
    if (!req.complete) streamed?.drain()
    const streaming = writeAnswer(res, answer)
    if (streaming !== undefined) await streaming
  } catch {
    if (!req.complete) streamed?.drain()
    if (res.headersSent) return void res.destroy()
    res.writeHead(500, { "content-type": "text/plain; charset=utf-8" })
    res.end("internal error")
  }
}
