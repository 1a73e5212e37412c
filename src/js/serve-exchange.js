// The internal shape the serving routes speak (SPEC §7B, §7C), so one dispatch serves two hosts:
// a route reads a light request view and answers `{status, headers, body}`; the WHATWG handler
// (`toolkit.handler`) makes the view from a `Request` and wraps the answer in a `Response`,
// and `serve` on node:http makes it from Node's request and writes the answer straight to
// Node's response (no `Request`, `Headers` or `Response` per request: serve-node.js).
//
// A view: `{method, path, origin, header(name), readText(maxBytes), signal}`; `header` takes a
// lower-case name and gives a string or `undefined`; `readText` resolves to the body's text or
// `{tooLarge: bytes}` (request-body.js), and rejects when the body cannot be read.
import { readBodyText } from "./request-body.js"

/** The property of a handler made by `toolkit.handler` holding its dispatch over views. */
export const DISPATCH = Symbol.for("toolnexus.serve.dispatch")

/**
 * A WHATWG `Request` as a view.
 *
 * ```js
 * const view = viewOfRequest(new Request("http://127.0.0.1/mcp", { method: "POST", body: "{}" }))
 * view.path // "/mcp"
 * ```
 */
export function viewOfRequest(request) {
  const url = new URL(request.url)
  return {
    method: request.method,
    path: url.pathname,
    origin: url.origin,
    header: (name) => request.headers.get(name) ?? undefined,
    readText: (maxBytes) => readBodyText(request, maxBytes),
    signal: request.signal ?? undefined,
  }
}

/**
 * An answer as a WHATWG `Response` (an empty body is no body).
 *
 * ```js
 * responseOf({ status: 404, headers: { "content-type": "text/plain" }, body: "not found" }).status // 404
 * ```
 */
export function responseOf(answer) {
  return new Response(answer.body === "" || answer.body === undefined ? null : answer.body, { status: answer.status, headers: answer.headers })
}

/**
 * A WHATWG handler `(request) => Promise<Response>` over `dispatch` (views to answers), which
 * carries `dispatch` under {@link DISPATCH} for `serve`.
 *
 * ```js
 * const handler = handlerOf(async (view) => ({ status: 200, headers: {}, body: view.path }))
 * await (await handler(new Request("http://127.0.0.1/x"))).text() // "/x"
 * ```
 */
export function handlerOf(dispatch) {
  const handler = async (request) => responseOf(await dispatch(viewOfRequest(request)))
  handler[DISPATCH] = dispatch
  return handler
}

const PLAIN = { "content-type": "text/plain; charset=utf-8" }
const JSON_TYPE = { "content-type": "application/json" }

/** A plain-text answer. */
export const textAnswer = (status, text) => ({ status, headers: PLAIN, body: text })

/** A JSON answer of `value`. */
export const jsonAnswer = (value, status = 200) => ({ status, headers: JSON_TYPE, body: JSON.stringify(value) })
