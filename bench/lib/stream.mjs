// Scenario 5 (streaming) in a fresh process: `node --expose-gc bench/lib/stream.mjs '<task JSON>'`.
// The in-process fake fetch answers `"stream": true` requests with a `text/event-stream` body,
// one SSE event per chunk, the way a provider streams token by token:
//   d<N>  one model call streaming N text deltas
//   c<C>  turn 1 streams one tool call whose JSON arguments arrive in C chunks, turn 2 streams
//         the answer (the endpoint checks the tool result came back whole, paired with its id)
// Each run's final text is checked; the number of text events the contender surfaced is reported.
import { performance } from "node:perf_hooks"
import { PROMPT, baseTools, MODEL } from "./script.mjs"
import { summarize } from "./stats.mjs"
import { pkgUrl } from "../contenders/pkg.mjs"

class Mismatch extends Error {}
const now = () => performance.now() * 1000
const gc = globalThis.gc ?? (() => {})
const enc = new TextEncoder()

const chunk = (delta, finish = null, extra = {}) =>
  enc.encode(`data: ${JSON.stringify({ id: "chatcmpl-s", object: "chat.completion.chunk", created: 1700000000, model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`)
const usage = () => enc.encode(`data: ${JSON.stringify({ id: "chatcmpl-s", object: "chat.completion.chunk", created: 1700000000, model: MODEL, choices: [], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } })}\n\n`)
const DONE = enc.encode("data: [DONE]\n\n")

function textEvents(parts) {
  const events = [chunk({ role: "assistant", content: "" })]
  for (const p of parts) events.push(chunk({ content: p }))
  events.push(chunk({}, "stop"), usage(), DONE)
  return events
}

export function expected(id) {
  const m = /^([dc])(\d+)$/.exec(id)
  const n = Number(m[2])
  return m[1] === "d" ? Array.from({ length: n }, (_, i) => `t${i} `).join("") : `chunked answer after ${n} argument chunks`
}

const scripts = new Map()
function script(id) {
  if (scripts.has(id)) return scripts.get(id)
  const m = /^([dc])(\d+)$/.exec(id)
  const n = Number(m[2])
  let s
  if (m[1] === "d") {
    s = { turns: [textEvents(Array.from({ length: n }, (_, i) => `t${i} `))] }
  } else {
    const city = `c${"x".repeat(n * 4)}`
    const args = JSON.stringify({ city })
    const pieces = []
    const size = Math.ceil(args.length / n)
    for (let i = 0; i < args.length; i += size) pieces.push(args.slice(i, i + size))
    const first = [chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_0_0", type: "function", function: { name: "get_weather", arguments: "" } }] })]
    for (const p of pieces) first.push(chunk({ tool_calls: [{ index: 0, function: { arguments: p } }] }))
    first.push(chunk({}, "tool_calls"), usage(), DONE)
    const answer = expected(id)
    s = { turns: [first, textEvents(answer.match(/.{1,8}/g))], check: `"tool_call_id":"call_0_0","content":${JSON.stringify(`weather:${city}=sunny`)}` }
  }
  scripts.set(id, s)
  return s
}

/** The streaming fake fetch: the same SSE bytes a provider would send, one event per chunk. */
export function streamFetch() {
  return async function fetch(input, init) {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url
    const body = init?.body !== undefined ? (typeof init.body === "string" ? init.body : await new Response(init.body).text()) : await input.text()
    const id = /\/s\/([a-z0-9]+)\//.exec(url)?.[1]
    const s = script(id)
    const from = body.lastIndexOf("[bench-prompt]")
    const turn = body.indexOf('"tool_call_id"', from) === -1 ? 0 : 1
    let events = s.turns[turn] ?? textEvents(["MISMATCH: too many turns"])
    if (turn === 1 && body.indexOf(s.check, from) === -1) events = textEvents(["MISMATCH: tool result missing"])
    if (!body.includes('"stream":true')) events = null
    if (!events) return new Response(JSON.stringify({ error: { message: "the bench's streaming endpoint needs stream: true" } }), { status: 400 })
    let i = 0
    const stream = new ReadableStream({
      pull(controller) {
        if (i < events.length) controller.enqueue(events[i++])
        else controller.close()
      },
    })
    return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } })
  }
}

// ---- the contenders, streaming

const adapters = {
  async bare(tools, fetch, { baseUrl, maxTurns }) {
    const byName = new Map(tools.map((t) => [t.name, t]))
    const toolDefs = tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }))
    const headers = { "content-type": "application/json", authorization: "Bearer bench" }
    return async (prompt, onText) => {
      const messages = [{ role: "user", content: prompt }]
      for (let turn = 0; turn < maxTurns; turn++) {
        const res = await fetch(`${baseUrl}/chat/completions`, { method: "POST", headers, body: JSON.stringify({ model: MODEL, messages, tools: toolDefs, stream: true }) })
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        const reader = res.body.getReader()
        const decoder = new TextDecoder()
        let buf = ""
        let content = ""
        const calls = []
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          buf += decoder.decode(value, { stream: true })
          let at
          while ((at = buf.indexOf("\n\n")) !== -1) {
            const event = buf.slice(0, at)
            buf = buf.slice(at + 2)
            if (!event.startsWith("data: ") || event === "data: [DONE]") continue
            const delta = JSON.parse(event.slice(6)).choices[0]?.delta
            if (!delta) continue
            if (delta.content) {
              content += delta.content
              onText()
            }
            for (const tc of delta.tool_calls ?? []) {
              const c = (calls[tc.index] ??= { id: "", name: "", args: "" })
              if (tc.id) c.id = tc.id
              if (tc.function?.name) c.name = tc.function.name
              if (tc.function?.arguments) c.args += tc.function.arguments
            }
          }
        }
        if (calls.length === 0) return content
        messages.push({ role: "assistant", content: content || null, tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })) })
        const outputs = await Promise.all(calls.map(async (c) => String(await byName.get(c.name).run(JSON.parse(c.args || "{}")))))
        calls.forEach((c, i) => messages.push({ role: "tool", tool_call_id: c.id, content: outputs[i] }))
      }
      throw new Error("maxTurns reached")
    }
  },
  async toolnexus(tools, fetch, { baseUrl, maxTurns }) {
    const { createClient, createToolkit, defineTool } = await import(pkgUrl("node.mjs"))
    const toolkit = await createToolkit({ builtins: false, extraTools: tools.map((t) => defineTool({ name: t.name, description: t.description, inputSchema: t.inputSchema, run: t.run })) })
    const client = createClient({ baseUrl, style: "openai", model: MODEL, apiKey: "bench", fetch, maxTurns })
    if (typeof client.stream !== "function") throw new Error("this build of toolnexus-wasm has no client.stream")
    return async (prompt, onText) => {
      let text = null
      for await (const event of client.stream(prompt, { toolkit })) {
        if (event.type === "text") onText()
        else if (event.type === "done") text = event.result.text
      }
      return text
    }
  },
  async vercel(tools, fetch, { baseUrl, maxTurns }) {
    globalThis.AI_SDK_LOG_WARNINGS = false
    const { streamText, jsonSchema, stepCountIs, tool } = await import("ai")
    const { createOpenAI } = await import("@ai-sdk/openai")
    const model = createOpenAI({ baseURL: baseUrl, apiKey: "bench", fetch }).chat(MODEL)
    const vtools = Object.fromEntries(tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema), execute: async (a) => t.run(a) })]))
    return async (prompt, onText) => {
      const result = streamText({ model, tools: vtools, prompt, stopWhen: stepCountIs(maxTurns), maxRetries: 0, onError: () => {} })
      for await (const part of result.fullStream) {
        if (part.type === "text-delta") onText()
        else if (part.type === "error") throw part.error
      }
      return await result.text
    }
  },
  async agents(tools, fetch, { baseUrl, maxTurns }) {
    const { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } = await import("@openai/agents")
    const { default: OpenAI } = await import("openai")
    setTracingDisabled(true)
    const client = new OpenAI({ apiKey: "bench", baseURL: baseUrl, fetch, maxRetries: 0 })
    const agent = new Agent({
      name: "bench",
      instructions: "",
      model: new OpenAIChatCompletionsModel(client, MODEL),
      tools: tools.map((t) => tool({ name: t.name, description: t.description, parameters: t.inputSchema, strict: false, execute: async (a) => t.run(a) })),
    })
    return async (prompt, onText) => {
      const result = await run(agent, prompt, { stream: true, maxTurns })
      for await (const event of result) {
        if (event.type === "raw_model_stream_event" && event.data.type === "output_text_delta") onText()
      }
      await result.completed
      return result.finalOutput
    }
  },
}

async function main() {
  const task = JSON.parse(process.argv[2])
  const counter = { calls: 0 }
  const out = { contender: task.contender, points: [] }
  for (const point of task.points) {
    const run = await adapters[task.contender](baseTools(counter), streamFetch(), { baseUrl: `http://fake.invalid/s/${point.id}/v1`, maxTurns: 10 })
    const want = expected(point.id)
    let deltas = 0
    const onText = () => deltas++
    const check = async () => {
      deltas = 0
      const text = await run(PROMPT, onText)
      if (text !== want) throw new Mismatch(`${task.contender} ${point.id}: final text ${JSON.stringify(String(text).slice(0, 120))}…, expected ${JSON.stringify(want.slice(0, 60))}…`)
    }
    for (let i = 0; i < point.warmup; i++) await check()
    gc()
    const samples = []
    for (let i = 0; i < point.iters; i++) {
      const t = now()
      await check()
      samples.push(now() - t)
    }
    out.points.push({ id: point.id, units: point.units, textEvents: deltas, ...summarize(samples) })
  }
  return out
}

try {
  const result = await main()
  const cpu = process.cpuUsage()
  result.cpuUs = cpu.user + cpu.system
  process.stdout.write(`@@RESULT ${JSON.stringify(result)}\n`)
  process.exit(0)
} catch (error) {
  process.stdout.write(`@@RESULT ${JSON.stringify({ error: String(error?.stack ?? error), mismatch: error instanceof Mismatch })}\n`)
  process.exit(error instanceof Mismatch ? 3 : 1)
}
