// Scenario 7 (metrics) in a fresh process: `node --expose-gc bench/lib/metrics.mjs '<task JSON>'`.
// toolnexus-wasm only (no peer has a metrics() to compare): one client runs turns that call M
// distinct tools in parallel until its Prometheus text holds ~`series` series, then
// `client.metrics()` is timed; and the reference shape is timed with and without `onMetric`.
import { performance } from "node:perf_hooks"
import { PROMPT, MODEL, baseTools, expectedText, fakeFetch, manyTools } from "./script.mjs"
import { summarize } from "./stats.mjs"
import { pkgUrl } from "../contenders/pkg.mjs"

class Mismatch extends Error {}
const now = () => performance.now() * 1000
const gc = globalThis.gc ?? (() => {})

const { createClient, createToolkit, defineTool } = await import(pkgUrl("node.mjs"))

/** A fetch whose turn 1 calls every tool of `names` once, in parallel; turn 2 answers. */
function allToolsFetch(names) {
  const call = JSON.stringify({
    id: "chatcmpl-m0", object: "chat.completion", created: 1700000000, model: MODEL,
    choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: names.map((name, i) => ({ id: `call_m_${i}`, type: "function", function: { name, arguments: JSON.stringify(name.startsWith("tool_") ? { key: "k" } : { city: "c" }) } })) } }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  })
  const done = JSON.stringify({
    id: "chatcmpl-m1", object: "chat.completion", created: 1700000000, model: MODEL,
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "metrics run done" } }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  })
  const headers = { "content-type": "application/json" }
  return async (url, init) => {
    const results = init.body.split('"tool_call_id"').length - 1
    if (results !== 0 && results !== names.length) return new Response(JSON.stringify({ error: { message: `${results} results` } }), { status: 400 })
    return new Response(results === 0 ? call : done, { status: 200, headers })
  }
}

const seriesOf = (text) => text.split("\n").filter((l) => l && !l.startsWith("#")).length

async function main() {
  const task = JSON.parse(process.argv[2])
  const out = { contender: "toolnexus" }
  const counter = { calls: 0 }
  const define = (list) => list.map((t) => defineTool({ name: t.name, description: t.description, inputSchema: t.inputSchema, run: t.run }))

  // 1. metrics() over ~task.series series
  const probe = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: MODEL, apiKey: "bench", fetch: fakeFetch() })
  if (typeof probe.metrics !== "function") throw new Error("this build of toolnexus-wasm has no client.metrics()")
  const perTool = await (async () => {
    const tools = manyTools(60, counter)
    const toolkit = await createToolkit({ builtins: false, extraTools: define(tools) })
    const client = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: MODEL, apiKey: "bench", fetch: allToolsFetch(tools.map((t) => t.name)) })
    const before = seriesOf(client.metrics())
    const r = await client.run(PROMPT, { toolkit })
    if (r.text !== "metrics run done") throw new Mismatch(`metrics probe: ${r.text}`)
    return { base: before, per: (seriesOf(client.metrics()) - before) / tools.length }
  })()
  const m = Math.max(2, Math.round((task.series - perTool.base - 20) / perTool.per))
  const tools = manyTools(m, counter)
  const toolkit = await createToolkit({ builtins: false, extraTools: define(tools) })
  const client = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: MODEL, apiKey: "bench", fetch: allToolsFetch(tools.map((t) => t.name)), maxTurns: 4 })
  let t = now()
  const r = await client.run(PROMPT, { toolkit })
  out.fillRunUs = now() - t
  if (r.text !== "metrics run done" || r.toolCallCount !== m) throw new Mismatch(`metrics fill run: ${r.text}, ${r.toolCallCount} calls of ${m}`)
  const text = client.metrics()
  out.tools = m
  out.series = seriesOf(text)
  out.bytes = text.length
  for (let i = 0; i < task.warmup; i++) client.metrics()
  gc()
  const samples = []
  for (let i = 0; i < task.iters; i++) {
    t = now()
    const s = client.metrics()
    samples.push(now() - t)
    if (s.length !== text.length) throw new Mismatch("metrics() changed between calls")
  }
  out.render = summarize(samples)

  // 2. the reference shape with and without onMetric
  const ref = await createToolkit({ builtins: false, extraTools: define(baseTools(counter)) })
  const want = expectedText("k2t1")
  out.ref = {}
  for (const [label, extra] of [["no onMetric", {}], ["onMetric", { onMetric: () => {} }]]) {
    const c = createClient({ baseUrl: "http://fake.invalid/s/k2t1/v1", style: "openai", model: MODEL, apiKey: "bench", fetch: fakeFetch(), ...extra })
    const check = async () => {
      const res = await c.run(PROMPT, { toolkit: ref })
      if (res.text !== want) throw new Mismatch(`metrics ${label}: ${res.text}`)
    }
    for (let i = 0; i < task.refWarmup; i++) await check()
    gc()
    const s = []
    for (let i = 0; i < task.refIters; i++) {
      t = now()
      await check()
      s.push(now() - t)
    }
    out.ref[label] = summarize(s)
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
