// A scripted streaming model endpoint on 127.0.0.1 (port 0) for the stream, resilience and metrics
// tests: it answers `POST /v1/chat/completions` and `POST /v1/messages` from one queue, writing
// SSE bodies in chunks of any size (one byte at a time, seeded random sizes), with a gap between
// chunks, and then ending, stalling or dropping the connection. It records every request, when it
// arrived, and whether the client closed the connection before the response was complete.
//
//   const stub = await startSseStub()
//   stub.script(sse(openaiStream(["Hel", "lo"]), { cut: "bytes" }))
//   createClient({ baseUrl: stub.openaiBaseUrl, style: "openai", model: "m" })
import http from "node:http"

const ROUTES = new Set(["/v1/chat/completions", "/v1/messages"])

/** Chunk sizes for `cut`: "whole", "bytes", an array of sizes (repeated), or `{random: seed}`. */
export function cutSizes(length, cut = "whole") {
  if (cut === "whole") return [length]
  if (cut === "bytes") return new Array(length).fill(1)
  let pick
  if (Array.isArray(cut)) {
    let i = 0
    pick = () => cut[i++ % cut.length]
  } else {
    let seed = cut.random >>> 0 || 1
    pick = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return 1 + (seed % (cut.max ?? 17))
    }
  }
  const sizes = []
  for (let left = length; left > 0;) {
    const n = Math.min(left, Math.max(1, pick()))
    sizes.push(n)
    left -= n
  }
  return sizes
}

const pause = (ms) => new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)))

/**
 * A streamed response: `text` written in chunks (`cut`), `gapMs` apart, then `then`:
 * "end" (complete), "stall" (never ends) or "drop" (the socket is destroyed).
 */
export function sse(text, { cut = "whole", gapMs = 0, then = "end", status = 200, headers = {} } = {}) {
  return { sse: text, cut, gapMs, then, status, headers }
}

/** Never answers, not even the status line (until the client gives up or the stub closes). */
export const hang = () => ({ hang: true })

/** A plain response; a non-string body is sent as JSON. */
export function plain(status, body, headers = {}) {
  return { status, body, headers }
}

async function stream(res, entry, live) {
  res.writeHead(entry.status, { "content-type": "text/event-stream", "cache-control": "no-cache", ...live.cors, ...entry.headers })
  res.flushHeaders()
  const bytes = Buffer.from(entry.sse, "utf8")
  let at = 0
  for (const n of cutSizes(bytes.length, entry.cut)) {
    if (res.destroyed) return
    res.write(bytes.subarray(at, at + n))
    at += n
    await pause(entry.gapMs)
  }
  if (entry.then === "end") res.end()
  else if (entry.then === "drop") res.socket?.destroy()
  else live.hanging.add(res)
}

/** Starts the stub; `cors: true` adds permissive CORS headers and answers OPTIONS preflights. */
export async function startSseStub({ cors = false } = {}) {
  const requests = []
  const live = { hanging: new Set(), cors: cors ? { "access-control-allow-origin": "*", "access-control-allow-headers": "*" } : {} }
  let queue = []
  const server = http.createServer((req, res) => {
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...live.cors, "access-control-allow-methods": "POST, OPTIONS", "access-control-max-age": "600" }).end()
      return
    }
    const chunks = []
    req.on("data", (chunk) => chunks.push(chunk))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      let body
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      let onClose
      const recorded = { method: req.method, url: req.url, headers: { ...req.headers }, body, at: Date.now(), closedEarly: false }
      recorded.closed = new Promise((resolve) => (onClose = resolve))
      res.on("close", () => {
        recorded.closedEarly = !res.writableFinished
        live.hanging.delete(res)
        onClose(recorded.closedEarly)
      })
      requests.push(recorded)
      let entry = ROUTES.has(req.url) && req.method === "POST" ? queue.shift() : plain(404, { error: { message: `no route ${req.method} ${req.url}` } })
      if (typeof entry === "function") entry = entry(recorded)
      if (entry === undefined) entry = plain(599, "sse-stub: no scripted response left")
      if (entry.hang) {
        live.hanging.add(res)
      } else if (entry.sse !== undefined) {
        stream(res, entry, live).catch(() => res.destroy())
      } else {
        const isText = typeof entry.body === "string"
        res.writeHead(entry.status, { "content-type": isText ? "text/plain" : "application/json", ...live.cors, ...entry.headers })
        res.end(isText ? entry.body : JSON.stringify(entry.body))
      }
    })
  })
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", resolve)
  })
  const origin = `http://127.0.0.1:${server.address().port}`
  return {
    origin,
    openaiBaseUrl: `${origin}/v1`,
    anthropicBaseUrl: origin,
    requests,
    /** Replaces the queue and forgets the recorded requests. */
    script(...entries) {
      queue = entries
      requests.length = 0
      return this
    },
    get remaining() {
      return queue.length
    },
    async close() {
      for (const res of live.hanging) res.destroy()
      const closed = new Promise((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}

/** The base URL of `style` on `stub`. */
export const baseUrlOf = (stub, style) => (style === "openai" ? stub.openaiBaseUrl : stub.anthropicBaseUrl)

const dataLine = (value) => `data: ${typeof value === "string" ? value : JSON.stringify(value)}\n\n`

/** An OpenAI stream: text `parts`, or `calls` [{id, name, args}] with name and arguments split. */
export function openaiStream(parts = [], calls = [], usage = [1, 1], { done = true, finish = true } = {}) {
  const chunk = (delta, extra = {}) => ({ id: "chatcmpl-s", object: "chat.completion.chunk", choices: [{ index: 0, delta, ...extra }] })
  let out = dataLine(chunk({ role: "assistant", content: "" }))
  for (const part of parts) out += dataLine(chunk({ content: part }))
  calls.forEach(({ id, name, args = {} }, index) => {
    const text = JSON.stringify(args)
    const [n, a] = [Math.floor(name.length / 2), Math.floor(text.length / 2)]
    out += dataLine(chunk({ tool_calls: [{ index, id, type: "function", function: { name: name.slice(0, n), arguments: "" } }] }))
    out += dataLine(chunk({ tool_calls: [{ index, function: { name: name.slice(n), arguments: text.slice(0, a) } }] }))
    out += dataLine(chunk({ tool_calls: [{ index, function: { arguments: text.slice(a) } }] }))
  })
  if (finish) out += dataLine(chunk({}, { finish_reason: calls.length ? "tool_calls" : "stop" }))
  const [p, c] = usage
  out += dataLine({ id: "chatcmpl-s", choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } })
  if (done) out += dataLine("[DONE]")
  return out
}

const event = (value) => `event: ${value.type}\n${dataLine(value)}`

/** An Anthropic stream: a text block of `parts`, then a tool_use block per call (input split). */
export function anthropicStream(parts = [], calls = [], usage = [1, 1], { stop = true } = {}) {
  const [input, output] = usage
  let out = event({ type: "message_start", message: { id: "msg_s", type: "message", role: "assistant", content: [], usage: { input_tokens: input, output_tokens: 1 } } })
  out += event({ type: "ping" })
  let index = 0
  if (parts.length) {
    out += event({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
    for (const text of parts) out += event({ type: "content_block_delta", index, delta: { type: "text_delta", text } })
    out += event({ type: "content_block_stop", index: index++ })
  }
  for (const { id, name, args = {} } of calls) {
    out += event({ type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } })
    const text = JSON.stringify(args)
    const third = Math.floor(text.length / 3)
    for (const partial_json of [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)]) {
      out += event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } })
    }
    out += event({ type: "content_block_stop", index: index++ })
  }
  out += event({ type: "message_delta", delta: { stop_reason: calls.length ? "tool_use" : "end_turn" }, usage: { output_tokens: output } })
  if (stop) out += event({ type: "message_stop" })
  return out
}

/** The stream of `style`. */
export function streamOf(style, parts, calls, usage, options) {
  return style === "openai" ? openaiStream(parts, calls, usage, options) : anthropicStream(parts, calls, usage, options)
}

/** An error event mid-stream, in `style`. */
export function errorEvent(style, message) {
  return style === "openai"
    ? dataLine({ error: { message, type: "server_error" } })
    : event({ type: "error", error: { type: "overloaded_error", message } })
}
