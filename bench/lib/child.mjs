// One measurement in a fresh process: `node --expose-gc bench/lib/child.mjs '<task JSON>'`.
// Prints one line `@@RESULT <json>`; exits 3 when a contender's final text (or its tool call
// count) is wrong, 1 on any other failure.
import { performance } from "node:perf_hooks"
import { load } from "../contenders/index.mjs"
import {
  PROMPT,
  baseTools,
  expectedCalls,
  expectedText,
  fakeFetch,
  liteFetch,
  makeHistory,
  manyTools,
  MODEL,
} from "./script.mjs"
import { summarize } from "./stats.mjs"

class Mismatch extends Error {}

const task = JSON.parse(process.argv[2])
const gc = globalThis.gc ?? (() => {})
const now = () => performance.now() * 1000 // µs

function transport() {
  if (task.transport === "http") return globalThis.fetch
  return task.transport === "lite" ? liteFetch() : fakeFetch()
}

function baseUrl(id) {
  return `${task.base}/s/${id}/v1`
}

/** Runs `inst` once and checks its final text and the number of tool calls it made. */
function checker(id, counter, label) {
  const want = expectedText(id)
  const calls = expectedCalls(id)
  return async (inst, options) => {
    const before = counter.calls
    const text = await inst.run(PROMPT, options)
    if (text !== want) throw new Mismatch(`${label} ${id}: final text ${JSON.stringify(text)}, expected ${JSON.stringify(want)}`)
    if (counter.calls - before !== calls && !options?.concurrent) {
      throw new Mismatch(`${label} ${id}: ${counter.calls - before} tool calls, expected ${calls}`)
    }
  }
}

async function measureLoop(contender, point) {
  const counter = { calls: 0 }
  const tools = point.tools ? manyTools(point.tools, counter) : baseTools(counter)
  const t0 = now()
  const inst = await contender.setup(tools, transport(), { baseUrl: baseUrl(point.id), maxTurns: task.maxTurns ?? 64 })
  const setupUs = now() - t0
  const options = point.history ? { history: makeHistory(point.history.n, point.history.size) } : undefined
  const check = checker(point.id, counter, contender.name)
  for (let i = 0; i < point.warmup; i++) await check(inst, options)
  gc()
  const samples = new Array(point.iters)
  for (let i = 0; i < point.iters; i++) {
    const t = now()
    await check(inst, options)
    samples[i] = now() - t
  }
  return { id: point.id, label: point.label ?? point.id, setupUs, runs: point.warmup + point.iters, ...summarize(samples) }
}

async function loopTask() {
  const contender = await load(task.contender)
  const points = []
  for (const point of task.points) points.push(await measureLoop(contender, point))
  return { contender: task.contender, points }
}

function memory(contender) {
  gc()
  gc()
  const m = process.memoryUsage()
  return {
    heapUsed: m.heapUsed,
    heapTotal: m.heapTotal,
    rss: m.rss,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    wasmLinear: typeof contender.wasmMemoryBytes === "function" ? contender.wasmMemoryBytes() : null,
  }
}

async function throughputTask() {
  const contender = await load(task.contender)
  const id = "k2t1"
  const counter = { calls: 0 }
  const inst = await contender.setup(baseTools(counter), transport(), { baseUrl: baseUrl(id), maxTurns: 10 })
  const check = checker(id, counter, contender.name)
  const phases = []
  const before = memory(contender)
  for (let i = 0; i < task.warmup; i++) await check(inst)
  const afterWarmup = memory(contender)
  for (let round = 1; round <= task.rounds; round++) {
    let t = now()
    for (let i = 0; i < task.sequential; i++) await check(inst)
    let us = now() - t
    phases.push({ phase: `sequential ×${task.sequential}`, round, runs: task.sequential, us, runsPerSec: task.sequential / (us / 1e6), memory: memory(contender) })
    const callsBefore = counter.calls
    t = now()
    const worker = async () => {
      for (let i = 0; i < task.each; i++) await check(inst, { concurrent: true })
    }
    await Promise.all(Array.from({ length: task.concurrency }, worker))
    us = now() - t
    const runs = task.concurrency * task.each
    if (counter.calls - callsBefore !== runs * expectedCalls(id)) {
      throw new Mismatch(`${contender.name}: ${counter.calls - callsBefore} tool calls in the concurrent phase, expected ${runs * expectedCalls(id)}`)
    }
    phases.push({ phase: `concurrent ${task.concurrency} × ${task.each}`, round, runs, us, runsPerSec: runs / (us / 1e6), memory: memory(contender) })
  }
  return { contender: task.contender, before, afterWarmup, phases, wasmExposed: typeof contender.wasmMemoryBytes === "function" }
}

function time(iters, fn) {
  const samples = new Array(iters)
  for (let i = 0; i < iters; i++) {
    const t = now()
    fn()
    samples[i] = now() - t
  }
  return summarize(samples)
}

async function timeAsync(iters, fn) {
  const samples = new Array(iters)
  for (let i = 0; i < iters; i++) {
    const t = now()
    await fn()
    samples[i] = now() - t
  }
  return summarize(samples)
}

async function toolsTask() {
  const contender = await load(task.contender)
  const counter = { calls: 0 }
  const tools = manyTools(task.n, counter)
  const opts = (id) => ({ baseUrl: baseUrl(id), maxTurns: 10 })
  const fetch = transport()
  for (let i = 0; i < task.warmup; i++) await contender.setup(tools, fetch, opts("k0t0"))
  gc()
  const build = await timeAsync(task.buildIters, () => contender.setup(tools, fetch, opts("k0t0")))
  const out = { contender: task.contender, n: task.n, build }
  if (typeof contender.convert === "function") {
    const inst = await contender.setup(tools, fetch, opts("k0t0"))
    out.convert = {}
    for (const format of ["toOpenAI", "toAnthropic", "toGemini"]) {
      const run = contender.convert(inst, format)
      if (!run) continue
      for (let i = 0; i < task.warmup; i++) run()
      out.convert[format] = time(task.convIters, run)
    }
  }
  // The cost of carrying n tools in every request: a one-call run with n tools vs with 2.
  out.runs = {}
  for (const [label, id, list] of [
    ["answer, 2 tools", "k0t0", baseTools(counter)],
    [`answer, ${task.n} tools`, "k0t0", tools],
    [`reference shape, ${task.n} tools`, "k2t1", tools],
  ]) {
    const inst = await contender.setup(list, fetch, opts(id))
    const check = checker(id, counter, contender.name)
    for (let i = 0; i < task.warmup; i++) await check(inst)
    gc()
    out.runs[label] = await timeAsync(task.runIters, () => check(inst))
  }
  return out
}

/** The transport alone: one POST of a typical first-turn body and reading the reply. */
async function rttTask() {
  const fetch = transport()
  const counter = { calls: 0 }
  const tools = baseTools(counter).map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }))
  const body = JSON.stringify({ model: MODEL, messages: [{ role: "user", content: PROMPT }], tools })
  const url = `${baseUrl("k0t0")}/chat/completions`
  const init = { method: "POST", headers: { "content-type": "application/json" }, body }
  const want = expectedText("k0t0")
  const once = async () => {
    const res = await fetch(url, init)
    const json = await res.json()
    if (json.choices[0].message.content !== want) throw new Mismatch(`round trip: unexpected reply`)
  }
  for (let i = 0; i < task.warmup; i++) await once()
  gc()
  return { transport: task.transport, bodyBytes: body.length, ...(await timeAsync(task.iters, once)) }
}

const tasks = { loop: loopTask, throughput: throughputTask, tools: toolsTask, rtt: rttTask }

try {
  const fn = tasks[task.kind]
  if (!fn) throw new Error(`unknown task ${task.kind}`)
  const result = await fn()
  const cpu = process.cpuUsage()
  result.cpuUs = cpu.user + cpu.system
  process.stdout.write(`@@RESULT ${JSON.stringify(result)}\n`)
  process.exit(0)
} catch (error) {
  process.stdout.write(`@@RESULT ${JSON.stringify({ error: String(error?.stack ?? error), mismatch: error instanceof Mismatch })}\n`)
  process.exit(error instanceof Mismatch ? 3 : 1)
}
