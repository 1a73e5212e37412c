// Scripted model endpoints on 127.0.0.1 (port 0) for the client tests: an OpenAI-style one
// (`POST /v1/chat/completions`) and an Anthropic-style one (`POST /v1/messages`). Each answers
// from a queue of scripted responses, in order, and records every request it gets.
//
//   const stub = await startOpenAIStub()
//   after(() => stub.close())
//   stub.script(openai.toolCalls([{ id: "c1", name: "add", args: { a: 1 } }]), openai.text("3"))
//   ... run a client against stub.baseUrl ...
//   stub.requests[0].body // the parsed JSON body of the first request
import http from "node:http"

/**
 * A scripted response: `{status = 200, headers = {}, body}` where a string body is sent as it is
 * (raw, maybe not JSON) and anything else as JSON; `{hang: true}` never answers (until `close`),
 * and `{hang: true, partial: "..."}` sends the head and that much of the body, then stalls;
 * `{drop: true, partial?}` closes the connection (after the head and a partial body, if given);
 * a function `(request) => response` decides from the recorded request, and may return a
 * Promise of the response (see `respond`).
 */
function send(res, entry) {
  const { status = 200, headers = {}, body = "" } = entry
  const text = typeof body === "string" ? body : JSON.stringify(body)
  const type = typeof body === "string" ? "text/plain" : "application/json"
  res.writeHead(status, { "content-type": type, ...headers })
  res.end(text)
}

/** Starts a stub that serves `POST routePath` from its queue. */
export async function startStub(routePath) {
  const requests = []
  const waiters = []
  const hanging = new Set()
  let queue = []
  let responder

  const server = http.createServer((req, res) => {
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
      const recorded = { method: req.method, url: req.url, headers: { ...req.headers }, body, text }
      requests.push(recorded)
      for (const w of waiters.splice(0)) {
        if (requests.length >= w.count) w.resolve(recorded)
        else waiters.push(w)
      }
      if (req.method !== "POST" || req.url !== routePath) {
        send(res, { status: 404, body: { error: { message: `stub: no route ${req.method} ${req.url}` } } })
        return
      }
      let entry = responder ? responder(recorded) : queue.shift()
      if (typeof entry === "function") entry = entry(recorded)
      if (entry && typeof entry.then === "function") {
        // A promised response: sent when it settles, unless the client has gone (an abort).
        hanging.add(res)
        res.on("close", () => hanging.delete(res))
        entry.then((e) => res.destroyed || answer(res, e), () => res.socket?.destroy())
        return
      }
      answer(res, entry)
    })
  })

  function answer(res, entry) {
    if (entry === undefined) {
      send(res, { status: 599, body: "stub: no scripted response left" })
    } else if (entry.drop) {
      if (entry.partial !== undefined) {
        res.writeHead(200, { "content-type": "application/json", "content-length": "1000" })
        res.write(entry.partial, () => res.socket.destroy())
      } else {
        res.socket.destroy()
      }
    } else if (entry.hang) {
      if (entry.partial !== undefined) {
        res.writeHead(entry.status ?? 200, { "content-type": "application/json" })
        res.write(entry.partial)
      }
      hanging.add(res)
      res.on("close", () => hanging.delete(res))
    } else {
      send(res, entry)
    }
  }
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", resolve)
  })
  const origin = `http://127.0.0.1:${server.address().port}`

  return {
    origin,
    requests,
    /** Replaces the queue with `responses` and forgets the recorded requests. */
    script(...responses) {
      queue = responses
      requests.length = 0
      return this
    },
    /**
     * Answers every request with `decide(request)` from now on (a response, or a Promise of
     * one, sent when it settles), instead of the queue; `undefined` goes back to the queue.
     */
    respond(decide) {
      responder = decide
      requests.length = 0
      return this
    },
    /** Appends responses to the queue. */
    enqueue(...responses) {
      queue.push(...responses)
      return this
    },
    /** How many scripted responses are still unused. */
    get remaining() {
      return queue.length
    },
    /** Resolves once `count` requests (since the last `script`) have arrived. */
    waitForRequests(count = 1) {
      if (requests.length >= count) return Promise.resolve(requests[count - 1])
      return new Promise((resolve) => waiters.push({ count, resolve }))
    },
    /** Stops the server, dropping hanging responses and idle keep-alive connections. */
    async close() {
      for (const res of hanging) res.destroy()
      hanging.clear()
      const closed = new Promise((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    },
  }
}

/** The OpenAI-style stub; `baseUrl` is `http://127.0.0.1:P/v1`. */
export async function startOpenAIStub() {
  const stub = await startStub("/v1/chat/completions")
  stub.baseUrl = `${stub.origin}/v1`
  return stub
}

/** The Anthropic-style stub; `baseUrl` is `http://127.0.0.1:P` (the client adds `/v1/messages`). */
export async function startAnthropicStub() {
  const stub = await startStub("/v1/messages")
  stub.baseUrl = stub.origin
  return stub
}

/** Any status with a raw text (or JSON) body. */
export function reply(status, body, headers = {}) {
  return { status, headers, body }
}

/** Chat Completions responses. */
export const openai = {
  usage(prompt, completion, total = prompt + completion) {
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total }
  },
  /** A final answer. */
  text(content, usage = openai.usage(1, 1)) {
    return reply(200, {
      id: "chatcmpl-stub",
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage,
    })
  },
  /** Tool calls `[{id, name, args}]`; a string `args` is sent verbatim as `arguments`. */
  toolCalls(calls, usage = openai.usage(1, 1)) {
    return reply(200, {
      id: "chatcmpl-stub",
      object: "chat.completion",
      choices: [{ index: 0, message: openai.assistant(calls), finish_reason: "tool_calls" }],
      usage,
    })
  },
  /** The assistant message carrying `calls`, as the server sends it (and the transcript keeps it). */
  assistant(calls) {
    return {
      role: "assistant",
      content: null,
      tool_calls: calls.map(({ id, name, args = {} }) => ({
        id,
        type: "function",
        function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
      })),
    }
  },
}

/** Messages API responses. */
export const anthropic = {
  usage(input, output) {
    return { input_tokens: input, output_tokens: output }
  },
  text(text, usage = anthropic.usage(1, 1)) {
    return reply(200, {
      id: "msg_stub",
      type: "message",
      role: "assistant",
      model: "claude-stub",
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      usage,
    })
  },
  /** `tool_use` blocks `[{id, name, input}]`, after an optional leading text block. */
  toolUse(uses, usage = anthropic.usage(1, 1), text) {
    return reply(200, {
      id: "msg_stub",
      type: "message",
      role: "assistant",
      model: "claude-stub",
      content: anthropic.blocks(uses, text),
      stop_reason: "tool_use",
      usage,
    })
  },
  blocks(uses, text) {
    const blocks = text === undefined ? [] : [{ type: "text", text }]
    return blocks.concat(uses.map(({ id, name, input = {} }) => ({ type: "tool_use", id, name, input })))
  },
}
