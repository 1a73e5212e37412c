// Serving a toolkit (SPEC §7C): what the platform does natively and Rust would only wrap. The
// MCP protocol itself (JSON-RPC dispatch, the tool list, result shapes, the HTTP statuses) is
// the module's (src/core/serve/); this file reads a WHATWG `Request` into the exchange the
// module takes and writes its answer into a `Response` (`fetchHandler`), adapts a server to an
// MCP SDK transport (`McpServer.connect`), and listens on a port where the runtime can
// (`listen`: `node:http` in Node and Bun, `Deno.serve` in Deno). Plain JavaScript, bundled
// into every entry (scripts/bundle-entry.mjs); nothing here is imported at the top level, so
// a page bundles it without Node's modules.
import { ToolnexusError } from "./errors.js"
import { errorText } from "./stores.js"
import { DISPATCH, handlerOf, jsonAnswer, responseOf, textAnswer } from "./serve-exchange.js"
import { listenNode } from "./serve-node.js"

/** The module's cap of an MCP message (`MAX_BODY_BYTES` in src/core/serve/http.rs): 4 MiB. */
const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024

const NOT_FOUND = () => textAnswer(404, "not found")

/** Calls the host's `onCall` with `event`; what it throws or rejects is its own (isolated). */
async function report(onCall, event) {
  if (typeof onCall !== "function" || event === undefined) return
  try {
    await onCall(event)
  } catch {
    // A host callback's failure never changes the answer.
  }
}

// Elicitation (a served tool's suspension asked of the client, SPEC §10 over §7C). The HTTP
// handler stays stateless for everything else; to know what a client can be asked, it keeps a
// small table of the clients that declared elicitation in `initialize`: their `initialize`
// answer carries an `Mcp-Session-Id` (only theirs), and a `tools/call` that names it, and
// accepts `text/event-stream`, may be asked. The question goes out as an `elicitation/create`
// event on that call's response stream (the response turns into a stream at the first
// question); the client POSTs its answer (a JSON-RPC response) to `/mcp`, which must reach the
// same handler (one process, one worker). The table forgets the oldest client past
// SESSION_LIMIT, and such a client's calls end as error results naming the suspension.

/** How many clients' declared modes a handler keeps. */
const SESSION_LIMIT = 1000

/** The modes `initialize` params declare: `capabilities.elicitation` (an empty object is form mode). */
export function elicitationModes(params) {
  const declared = params?.capabilities?.elicitation
  if (!declared || typeof declared !== "object") return undefined
  const form = Object.keys(declared).length === 0 || (declared.form !== undefined && declared.form !== null)
  const url = declared.url !== undefined && declared.url !== null
  return form || url ? { form, url } : undefined
}

/** `elicitation/create` requests sent and not yet answered, by their JSON-RPC id. */
class Questions {
  #open = new Map()

  /** Sends `params` (JSON text) through `send(id, text)`; resolves to the client's result. */
  ask(params, send, signal) {
    const id = `elicit-${crypto.randomUUID()}`
    return new Promise((resolve, reject) => {
      const done = () => this.#open.delete(id)
      const gone = () => (done(), reject(new Error("the client went away")))
      if (signal?.aborted) return gone()
      signal?.addEventListener("abort", gone, { once: true })
      this.#open.set(id, { resolve: (v) => (done(), resolve(v)), reject: (e) => (done(), reject(e)) })
      try {
        send(id, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"elicitation/create","params":${params}}`)
      } catch (thrown) {
        this.#open.get(id)?.reject(thrown)
      }
    })
  }

  get size() {
    return this.#open.size
  }

  /** Settles the question a JSON-RPC response answers; `false` when it answers none of ours. */
  answer(message) {
    if (!message || typeof message !== "object" || message.method !== undefined) return false
    const open = this.#open.get(message.id)
    if (!open) return false
    if (message.error !== undefined) open.reject(new Error(`the client answered an error: ${message.error?.code} ${message.error?.message}`))
    else open.resolve(message.result)
    return true
  }
}

/** The JSON-RPC response a body holds, when it is one (not a request or a notification). */
function responseIn(body) {
  try {
    const message = JSON.parse(body)
    return message && typeof message === "object" && message.method === undefined && message.id !== undefined ? message : undefined
  } catch {
    return undefined
  }
}

const encoder = new TextEncoder()
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" }

/**
 * The MCP route over an MCP server core (the module's `McpServerCore`) as a dispatch of request
 * views to answers (serve-exchange.js), or one that answers 404 to everything when `core` is
 * absent (no profile).
 */
export function mcpDispatch(core, onCall) {
  const sessions = new Map()
  const questions = new Questions()
  return async function dispatch(view) {
    if (core === undefined) return NOT_FOUND()
    const reads = view.method === "POST" && view.path === "/mcp"
    // Read up to the module's cap and no further: a larger body is refused as the module
    // refuses one (413, -32600) without being buffered whole.
    const body = reads ? await view.readText(MCP_MAX_BODY_BYTES) : ""
    if (typeof body !== "string") {
      const message = `Payload Too Large: a message is at most ${MCP_MAX_BODY_BYTES} bytes`
      return jsonAnswer({ jsonrpc: "2.0", id: null, error: { code: -32600, message } }, 413)
    }
    if (reads && questions.size > 0) {
      const response = responseIn(body)
      if (response && questions.answer(response)) return { status: 202, headers: [], body: null }
    }
    const session = sessions.size === 0 ? undefined : view.header("mcp-session-id")
    const modes = session === undefined ? undefined : sessions.get(session)
    if (modes !== undefined && /text\/event-stream/i.test(view.header("accept") ?? "")) return asking(core, onCall, view, body, modes, questions)
    const [status, headers, text, event] = await core.exchange(
      view.method,
      view.path,
      view.header("accept"),
      view.header("content-type"),
      view.header("mcp-protocol-version"),
      body,
      view.signal,
      undefined,
    )
    await report(onCall, event)
    const answer = { status, headers, body: text }
    if (reads && status === 200 && body.includes('"initialize"')) {
      const declared = declaredModes(body)
      if (declared) {
        const id = crypto.randomUUID()
        if (sessions.size >= SESSION_LIMIT) sessions.delete(sessions.keys().next().value)
        sessions.set(id, declared)
        answer.headers = [...headers, ["mcp-session-id", id]]
      }
    }
    return answer
  }
}

/**
 * A fetch handler `(request) => Promise<Response>` over an MCP server core (the module's
 * `McpServerCore`), or one that answers 404 to everything when `core` is absent (no profile).
 */
export function fetchHandler(core, onCall) {
  return handlerOf(mcpDispatch(core, onCall))
}

/**
 * One exchange of a client that can be asked: answered as usual, unless the call asks a
 * question first; then the answer is an event stream at once (its body a `ReadableStream`),
 * the question its first event and the call's answer its last.
 */
function asking(core, onCall, view, body, modes, questions) {
  const signal = view.signal
  return new Promise((resolve, reject) => {
    let stream
    const send = (_id, text) => {
      if (stream === undefined) {
        const readable = new ReadableStream({ start: (c) => void (stream = c) })
        resolve({ status: 200, headers: SSE_HEADERS, body: readable })
      }
      stream.enqueue(encoder.encode(`event: message\ndata: ${text}\n\n`))
    }
    const asker = { form: modes.form, url: modes.url, ask: (params) => questions.ask(params, send, signal) }
    core
      .exchange(view.method, view.path, view.header("accept"), view.header("content-type"), view.header("mcp-protocol-version"), body, signal, asker)
      .then(async ([status, headers, text, event]) => {
        await report(onCall, event)
        if (stream === undefined) return resolve({ status, headers, body: text })
        // The answer after the questions, on the same stream.
        const sse = headers.some(([name, value]) => name === "content-type" && value === "text/event-stream")
        stream.enqueue(encoder.encode(sse ? text : `event: message\ndata: ${text}\n\n`))
        stream.close()
      })
      .catch((thrown) => (stream === undefined ? reject(thrown) : stream.error(thrown)))
  })
}

/** The elicitation modes of an `initialize` request's body, when it declares any. */
function declaredModes(body) {
  try {
    const message = JSON.parse(body)
    return message?.method === "initialize" ? elicitationModes(message.params) : undefined
  } catch {
    return undefined
  }
}

/**
 * The tools an MCP profile exposes: all of them, or those named in `config.tools` (unknown
 * names ignored).
 */
export function exposedMcpTools(tools, config) {
  const wanted = config?.tools
  if (!Array.isArray(wanted)) return tools
  return tools.filter((tool) => wanted.includes(tool.name))
}

/** A request id as a map key (`1` and `"1"` are different ids). */
const idKey = (id) => `${typeof id}:${String(id)}`

/**
 * An MCP server over a set of tools, as `buildMcpServer` makes it: `handle` is its fetch
 * handler (streamable HTTP at `/mcp`, stateless), `handleMessage` answers one JSON-RPC message,
 * `connect` serves an MCP SDK transport (stdio, in-memory, …), `close` ends those.
 */
export class McpServer {
  #core
  #onCall
  #transports = new Set()
  #handler

  /** @internal Made by `buildMcpServer`. */
  constructor(core, onCall) {
    this.#core = core
    this.#onCall = onCall
    this.#handler = fetchHandler(core, onCall)
  }

  /** Answers one HTTP request (`POST /mcp`; other paths 404). */
  handle(request) {
    return this.#handler(request)
  }

  /**
   * Answers one JSON-RPC message object; `undefined` for a notification or a response.
   * `extra.ask` (`{form, url, ask(paramsText)}`) lets a suspended tool ask the client.
   */
  async handleMessage(message, extra) {
    const [reply, event] = await this.#core.message(JSON.stringify(message), extra?.signal, extra?.ask)
    await report(this.#onCall, event)
    return reply === undefined ? undefined : JSON.parse(reply)
  }

  /**
   * Serves `transport` (an MCP SDK `Transport`: `start`, `send`, `close`, `onmessage`): each
   * request is answered on it; a `notifications/cancelled` aborts the call it names (its
   * tool sees `ctx.signal` fire) and that call's answer is never sent; closing the transport
   * aborts every call still running. A client that declared elicitation in `initialize` is
   * asked a suspended tool's question on the transport (`elicitation/create`).
   */
  async connect(transport) {
    const running = new Map()
    const questions = new Questions()
    let modes
    const answer = async (message) => {
      if (questions.answer(message)) return
      if (message?.method === "initialize") modes = elicitationModes(message.params)
      if (message?.method === "notifications/cancelled") {
        running.get(idKey(message.params?.requestId))?.abort(message.params?.reason ?? "cancelled by the client")
        return
      }
      const isRequest = typeof message?.method === "string" && message.id !== undefined
      const controller = isRequest ? new AbortController() : undefined
      if (controller) running.set(idKey(message.id), controller)
      try {
        const send = (_id, text) => void transport.send(JSON.parse(text)).catch(() => {})
        const ask = modes && controller ? { ...modes, ask: (params) => questions.ask(params, send, controller.signal) } : undefined
        const reply = await this.handleMessage(message, { signal: controller?.signal, ask })
        if (reply !== undefined && !controller?.signal.aborted) await transport.send(reply)
      } catch (thrown) {
        transport.onerror?.(thrown instanceof Error ? thrown : new Error(errorText(thrown)))
      } finally {
        if (controller) running.delete(idKey(message.id))
      }
    }
    transport.onmessage = (message) => void answer(message)
    transport.onclose = () => {
      for (const controller of running.values()) controller.abort("the transport closed")
      running.clear()
      this.#transports.delete(transport)
    }
    this.#transports.add(transport)
    await transport.start()
  }

  /** Closes every transport `connect` serves. */
  async close() {
    const transports = [...this.#transports]
    this.#transports.clear()
    await Promise.all(transports.map((t) => t.close()))
  }
}

/** `host:port` split on the last colon (`[::1]:0` too); no host is 127.0.0.1. */
function splitAddr(addr) {
  if (typeof addr !== "string") throw new ToolnexusError("invalid_argument", `serve: addr must be a string "host:port", got ${typeof addr}`)
  const at = addr.lastIndexOf(":")
  const [host, port] = at === -1 ? ["", addr] : [addr.slice(0, at), addr.slice(at + 1)]
  const number = Number(port)
  if (port.trim() === "" || !Number.isInteger(number) || number < 0 || number > 65535) {
    throw new ToolnexusError("invalid_argument", `serve: addr must be "host:port" with a port from 0 to 65535, got "${addr}"`)
  }
  return [host.replace(/^\[(.*)\]$/, "$1") || "127.0.0.1", number]
}

/** The URL callers use: a wildcard address is reached on 127.0.0.1; IPv6 in brackets. */
function baseUrl(host, port) {
  const reachable = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`
}

const LOOPBACK = ["127.0.0.1", "localhost", "::1", "[::1]"]

/** The host name of a `Host` header or an origin, lower-cased; `undefined` when unreadable. */
function hostName(text, scheme) {
  try {
    return new URL(scheme ? `http://${text}` : text).hostname.toLowerCase()
  } catch {
    return undefined
  }
}

/**
 * On a loopback address, a check of each request's `Host` and `Origin` headers: only requests
 * addressed to a loopback name, from no page or a page of a loopback origin, pass (`undefined`);
 * others get the reason they are refused (answered 403). A page on another site whose name the
 * attacker made resolve to 127.0.0.1 (DNS rebinding) sends its own name as `Host` and is
 * turned away, as MCP's transport rules ask of a local server ("validate the Origin header").
 * Off loopback, no check (`undefined`). The verdicts of the last few header values are kept:
 * a client sends the same ones on every request.
 */
function loopbackCheck(host) {
  if (!LOOPBACK.includes(host.toLowerCase())) return undefined
  const seen = new Map()
  const loopbackName = (text, scheme) => {
    const key = scheme ? `h${text}` : `o${text}`
    let ok = seen.get(key)
    if (ok === undefined) {
      ok = LOOPBACK.includes(hostName(text, scheme))
      if (seen.size >= 64) seen.clear()
      seen.set(key, ok)
    }
    return ok
  }
  let lastHost
  return (hostHeader, origin) => {
    // A client sends the same Host on every request: the last one that passed is known good.
    if (origin === undefined && hostHeader !== undefined && hostHeader === lastHost) return undefined
    if (!loopbackName(hostHeader ?? "", true)) return "the request's Host is not a loopback name"
    if (origin !== undefined && !loopbackName(origin, false)) return "the request's Origin is not a local page"
    if (origin === undefined) lastHost = hostHeader
    return undefined
  }
}

/** The 403 answer of a request `loopbackCheck` refused. */
const forbidden = (why) => textAnswer(403, `forbidden: ${why}`)

const BROWSER_REFUSAL =
  "serve: this runtime cannot listen on a port (no node:http, no Deno.serve). Mount the same handler where requests arrive: " +
  "in a Service Worker, `self.addEventListener(\"fetch\", (e) => { if (new URL(e.request.url).pathname === \"/mcp\") e.respondWith(handler(e.request)) })` " +
  "with `const handler = toolkit.handler({ mcp: {} })`; in a Worker, " +
  "`export default { fetch: toolkit.handler({ mcp: {} }) }`. An A2A agent (`toolkit.handler({ client, a2a })`) answers at `/` " +
  "and `/.well-known/agent-card.json`: in a Service Worker mount it under a path of its own, with `a2a.url` naming it " +
  "(docs/serving.md, \"An A2A agent in a Service Worker\")"

/** Node's `node:http`, where there is one (Node, Bun); `undefined` elsewhere. */
async function nodeHttp() {
  const process = globalThis.process
  if (typeof process?.versions?.node !== "string") return undefined
  const builtin = process.getBuiltinModule?.("node:http")
  if (builtin) return builtin
  const name = "node:http" // a name bundlers leave alone: pages never reach this line
  return import(/* @vite-ignore */ name)
}

/**
 * Listens on `addr` (`host:port`; port 0 picks a free one) and answers every request with
 * `handler`, a handler made by `handlerOf` (serve-exchange.js): Deno calls it with its
 * `Request`, node:http calls its dispatch with a view of Node's request. Resolves to `{url, stop(), close()}` once listening.
 */
export async function listen(handler, addr) {
  const [host, port] = splitAddr(addr)
  if (typeof handler?.[DISPATCH] !== "function") throw new ToolnexusError("invalid_argument", "serve: the handler must be one toolkit.handler made")
  const check = loopbackCheck(host)
  if (typeof globalThis.Deno?.serve === "function") return listenDeno(loopbackOnly(handler, check), host, port)
  const http = await nodeHttp()
  if (!http) throw new ToolnexusError("unsupported", BROWSER_REFUSAL)
  // Node answers through the handler's dispatch and writes to its own response (serve-node.js).
  return listenNode(http, handler[DISPATCH], host, port, check, baseUrl)
}

/** `handler` behind `check` (`loopbackCheck`): a refused request is answered 403. */
function loopbackOnly(handler, check) {
  if (check === undefined) return handler
  return (request) => {
    const why = check(request.headers.get("host") ?? undefined, request.headers.get("origin") ?? undefined)
    return why === undefined ? handler(request) : Promise.resolve(responseOf(forbidden(why)))
  }
}

function listenDeno(handler, host, port) {
  let server
  try {
    server = globalThis.Deno.serve({ hostname: host, port, onListen() {} }, (request) => answerDeno(handler, request))
  } catch (thrown) {
    throw new ToolnexusError("network", `serve: cannot listen on ${host}:${port}: ${errorText(thrown)}`, { cause: thrown })
  }
  const stop = () => server.shutdown()
  return { url: baseUrl(host, server.addr.port), stop, close: stop }
}

/**
 * One Deno exchange: the call's signal is the request's only until the answer is made (Deno
 * also fires a request's signal after a successful response, which a tool must not read as a
 * cancellation).
 */
function answerDeno(handler, request) {
  const controller = new AbortController()
  let answered = false
  request.signal.addEventListener("abort", () => answered || controller.abort(request.signal.reason), { once: true })
  return handler(new Request(request, { signal: controller.signal })).finally(() => {
    answered = true
  })
}
