// The scripted OpenAI-style endpoint every transport serves: the same function computes the
// bytes the in-process fake fetch returns and the bytes the 127.0.0.1 mock server sends.
// No Node imports here: the browser variant loads this file too.
//
// A scenario id names the script: `k<K>t<T>` = T turns that each return K parallel tool calls,
// then one turn with the final answer (`k2t1` is the reference shape; `k0t0` answers at once).
// The endpoint finds the turn by counting `"tool_call_id"` in the request body (T*K of them
// after T tool turns) and checks that every tool result of the earlier turns is in the body,
// exactly and paired with its own call id: a contender that loses a result, runs the wrong
// tool, sends a wrong argument or mixes up the ids gets a final text that does not match
// `expectedText`, and the harness fails on it.

export const MODEL = "gpt-4o-mini"

/** The user prompt of every run; the endpoint looks for it from the end of the body. */
export const PROMPT = "What are the weather and the local time in these cities? [bench-prompt]"

export const TOOL_SCHEMA = {
  type: "object",
  properties: { city: { type: "string", description: "City name" } },
  required: ["city"],
  additionalProperties: false,
}

/** The two tools every scenario calls (call i of a turn uses tool i % 2). */
export function baseTools(counter) {
  return [
    {
      name: "get_weather",
      description: "Current weather for a city",
      inputSchema: TOOL_SCHEMA,
      run: (args) => {
        counter.calls++
        return `weather:${args.city}=sunny`
      },
    },
    {
      name: "get_time",
      description: "Local time in a city",
      inputSchema: TOOL_SCHEMA,
      run: (args) => {
        counter.calls++
        return `time:${args.city}=12:00`
      },
    },
  ]
}

/** `n` tools in all: the two base tools plus filler tools the model never calls. */
export function manyTools(n, counter) {
  const tools = baseTools(counter)
  for (let i = tools.length; i < n; i++) {
    tools.push({
      name: `tool_${String(i).padStart(3, "0")}`,
      description: `Filler tool number ${i}: looks a record up by its key and returns it`,
      inputSchema: {
        type: "object",
        properties: {
          key: { type: "string", description: "The record key" },
          limit: { type: "integer", minimum: 1, maximum: 100 },
        },
        required: ["key"],
        additionalProperties: false,
      },
      run: () => {
        counter.calls++
        return `filler:${i}`
      },
    })
  }
  return tools
}

const toolName = (i) => (i % 2 === 0 ? "get_weather" : "get_time")
const city = (turn, i) => `c${turn}_${i}`
const output = (turn, i) =>
  i % 2 === 0 ? `weather:${city(turn, i)}=sunny` : `time:${city(turn, i)}=12:00`

export function parseId(id) {
  const m = /^k(\d+)t(\d+)$/.exec(id)
  if (!m) throw new Error(`bad scenario id ${id}`)
  const k = Number(m[1])
  const t = Number(m[2])
  if ((k === 0) !== (t === 0)) throw new Error(`bad scenario id ${id}: k and t are both 0 or neither`)
  return { k, t }
}

export function expectedText(id) {
  const { k, t } = parseId(id)
  return `final answer after ${t} tool turns of ${k} calls`
}

/** Tool calls each run makes. */
export function expectedCalls(id) {
  const { k, t } = parseId(id)
  return k * t
}

function completion(turn, message, finish) {
  return JSON.stringify({
    id: `chatcmpl-bench-${turn}`,
    object: "chat.completion",
    created: 1700000000,
    model: MODEL,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  })
}

function makeScript(id) {
  const { k, t } = parseId(id)
  const turns = []
  for (let turn = 0; turn < t; turn++) {
    const toolCalls = []
    for (let i = 0; i < k; i++) {
      toolCalls.push({
        id: `call_${turn}_${i}`,
        type: "function",
        function: { name: toolName(i), arguments: JSON.stringify({ city: city(turn, i) }) },
      })
    }
    turns.push(completion(turn, { role: "assistant", content: null, tool_calls: toolCalls }, "tool_calls"))
  }
  const final = completion(t, { role: "assistant", content: expectedText(id) }, "stop")
  // Each result must come back exactly, paired with its own call id, in the serialization
  // every contender here produces: {"role":"tool","tool_call_id":"<id>","content":"<output>"}.
  const outputs = []
  for (let turn = 0; turn < t; turn++) {
    for (let i = 0; i < k; i++) outputs.push(`"tool_call_id":"call_${turn}_${i}","content":${JSON.stringify(output(turn, i))}`)
  }
  return { k, t, turns, final, outputs }
}

const scripts = new Map()
const idPattern = /\/s\/([a-z0-9]+)\//

function count(body, needle, from) {
  let n = 0
  for (let at = body.indexOf(needle, from); at !== -1; at = body.indexOf(needle, at + needle.length)) n++
  return n
}

/**
 * The response text for a request to `url` (which holds `/s/<id>/`) with `body`; `null` for a
 * URL that names no scenario.
 */
export function respond(url, body) {
  const m = idPattern.exec(url)
  if (!m) return null
  let script = scripts.get(m[1])
  if (!script) scripts.set(m[1], (script = makeScript(m[1])))
  // Everything of this run comes after the prompt: searching from there keeps a long history
  // from making the endpoint itself slow (lastIndexOf scans from the end).
  const from = body.lastIndexOf("[bench-prompt]")
  if (from === -1) return completion(0, { role: "assistant", content: "MISMATCH: no prompt" }, "stop")
  const seen = script.k === 0 ? 0 : count(body, '"tool_call_id"', from)
  const turn = script.k === 0 ? 0 : Math.floor(seen / script.k)
  if (seen % (script.k || 1) !== 0 || turn > script.t) {
    return completion(turn, { role: "assistant", content: `MISMATCH: ${seen} tool results` }, "stop")
  }
  const upTo = turn * script.k
  for (let i = 0; i < upTo; i++) {
    if (body.indexOf(script.outputs[i], from) === -1) {
      return completion(turn, { role: "assistant", content: `MISMATCH: missing ${script.outputs[i]}` }, "stop")
    }
  }
  return turn < script.t ? script.turns[turn] : script.final
}

/**
 * A `fetch` that answers in process with exactly the bytes the mock server sends, as a real
 * `Response`. Handles `fetch(url, init)` and `fetch(Request)`.
 */
export function fakeFetch() {
  const headers = { "content-type": "application/json" }
  return async function fetch(input, init) {
    let url
    let body
    if (typeof input === "string") url = input
    else if (input instanceof URL) url = input.href
    else url = input.url
    if (init && init.body !== undefined) body = typeof init.body === "string" ? init.body : await new Response(init.body).text()
    else if (typeof input === "object" && typeof input.text === "function") body = await input.text()
    else body = ""
    const text = respond(url, body)
    if (text === null) return new Response("not found", { status: 404 })
    return new Response(text, { status: 200, headers })
  }
}

/**
 * A `fetch` with no `Response` behind it: the same bytes as {@link fakeFetch}, in an object
 * with only what a client reads (`ok`, `status`, `headers`, `text()`, `json()`, and a `body`
 * stream made when read). Node's `Response` costs ~100 µs per call on these machines, more
 * than some frameworks' whole loop; this transport leaves the framework's own cost. Handles
 * `fetch(url, init)` with a string body only.
 */
export function liteFetch() {
  const headers = new Headers({ "content-type": "application/json" })
  return async function fetch(input, init) {
    const url = String(input instanceof URL ? input.href : input)
    const text = respond(url, String(init?.body ?? ""))
    if (text === null) return new Response("not found", { status: 404 })
    return {
      ok: true,
      status: 200,
      statusText: "OK",
      url,
      headers,
      text: async () => text,
      json: async () => JSON.parse(text),
      get body() {
        const bytes = new TextEncoder().encode(text)
        return new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) })
      },
    }
  }
}

/** `n` history messages of `size` bytes of content each, alternating user / assistant. */
export function makeHistory(n, size) {
  const messages = []
  for (let i = 0; i < n; i++) {
    const head = `message ${i} of the old conversation: `
    const filler = "lorem ipsum dolor sit amet ".repeat(Math.ceil(size / 27))
    messages.push({ role: i % 2 === 0 ? "user" : "assistant", content: (head + filler).slice(0, size) })
  }
  return messages
}
