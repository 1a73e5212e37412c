#!/usr/bin/env node
// Long-lived agents (issue 28), two parts:
//
//   compaction  agents.compactor({maxTokens, summarize}) of this package beside the reference JS
//               port's compactor, called as the beforeLLM hook a run calls, on a 1 MB transcript
//               of 500 messages (a system prompt, then user / assistant-with-a-tool-call / tool /
//               assistant groups of ~2 KB each) with a trivial summarize: µs per compaction
//               (maxTokens 100,000, keepTail the default 50,000) and per no-op check (maxTokens
//               1,000,000: the transcript is under it). Fresh processes, interleaved.
//   heartbeat   agents.startAgent(persona, {llm, fetch, clock}, {everyMs: 1000}) over 1,000 ticks
//               of a virtual clock (the runtime's `clock` option; startAgent refuses real
//               intervals under 1 s), each tick a model call over an in-process endpoint
//               answering HEARTBEAT_OK (every 100th a substantive beat): JS heap after gc() and
//               the module's wasm linear memory along the way, with and without a compactor on
//               the persona; the reference port's JS heap beside it.
//
//   node bench/compaction.mjs [--smoke] [--quick] [--repeats=N] [--only=compaction,heartbeat] [--ticks=N]
import { fileURLToPath } from "node:url"
import { importReference } from "./tools/reference-port.mjs"
import { fmtUs, inChild, machineLine, median, orderFor, parseFlags, ratio, timeRuns, versions } from "./lib/peer-runs.mjs"
import { nodeBuild, pkgUrl } from "./contenders/pkg.mjs"

const flags = parseFlags(process.argv.slice(2))
const want = (part) => !flags.only || flags.only.includes(part)
const MODEL = "gpt-4o-mini"
const BASE_URL = "http://bench.heartbeat.local/v1"

async function library(name) {
  if (name === "toolnexus") {
    const lib = await import(pkgUrl("node.mjs"))
    const { initSync } = await import(nodeBuild("").glue)
    return { agents: lib.agents, wasmBytes: () => initSync().memory.buffer.byteLength }
  }
  if (name === "reference") return { agents: (await importReference()).lib.agents, wasmBytes: () => null }
  throw new Error(`unknown contender ${name}`)
}

// ---------------------------------------------------------------------------------------------
// Compaction

/** ~1 MB: a system prompt and 499 messages of ~2 KB, in tool-call groups of four. */
function transcript() {
  const text = (i, size) => `message ${i}: ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(size / 27))}`.slice(0, size)
  const messages = [{ role: "system", content: text(0, 2000) }]
  for (let i = 1; messages.length < 500; i++) {
    const kind = i % 4
    if (kind === 1) messages.push({ role: "user", content: text(i, 2000) })
    else if (kind === 2) messages.push({ role: "assistant", content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "lookup", arguments: JSON.stringify({ q: text(i, 1900) }) } }] })
    else if (kind === 3) messages.push({ role: "tool", tool_call_id: `call_${i - 1}`, content: text(i, 2000) })
    else messages.push({ role: "assistant", content: text(i, 2000) })
  }
  return messages
}

const COMPACT_MAX = 100_000
const NOOP_MAX = 1_000_000

async function compactionChild({ contender, mode, warmup, iters }) {
  const { agents } = await library(contender)
  const messages = transcript()
  const summarize = (older) => `summary of ${older.length} messages`
  const hook = agents.compactor({ maxTokens: mode === "compact" ? COMPACT_MAX : NOOP_MAX, summarize })
  const event = { messages, tools: [], model: MODEL, turn: 3 }
  const check = async () => {
    const out = await hook(event)
    if (mode === "noop") {
      if (out !== undefined) throw new Error(`${contender}: a no-op check returned ${typeof out}`)
      return
    }
    const first = out?.messages?.[1]?.content
    if (out.messages[0] !== messages[0] || typeof first !== "string" || !first.startsWith("[Summary of earlier conversation]\nsummary of ")) {
      throw new Error(`${contender}: compaction gave ${JSON.stringify(out?.messages?.slice(0, 2)).slice(0, 200)}`)
    }
    return out.messages.length
  }
  const { p50, min, last: kept } = await timeRuns(check, { warmup, iters })
  return { p50, min, kept, bytes: JSON.stringify(messages).length }
}

// ---------------------------------------------------------------------------------------------
// Heartbeat

/** A virtual clock ({now, setTimeout → cancel}) that forgets fired and cancelled timers. */
class VirtualClock {
  t = 0
  timers = new Set()
  now() {
    return this.t
  }
  setTimeout(fn, ms) {
    const timer = { at: this.t + ms, fn }
    this.timers.add(timer)
    return () => this.timers.delete(timer)
  }
  advance(ms) {
    const target = this.t + ms
    for (;;) {
      let due
      for (const x of this.timers) if (x.at <= target && (!due || x.at < due.at)) due = x
      if (!due) break
      this.timers.delete(due)
      this.t = due.at
      due.fn()
    }
    this.t = target
  }
}

function heartbeatFetch(counter) {
  const headers = { "content-type": "application/json" }
  return async function fetch(_url, init) {
    const { messages } = JSON.parse(init.body)
    const n = ++counter.calls
    counter.maxMessages = Math.max(counter.maxMessages, messages.length)
    const last = messages.at(-1)
    const ok = last.role === "user" && String(last.content).startsWith("Heartbeat.")
    const content = !ok ? `MISMATCH: last message ${JSON.stringify(last).slice(0, 80)}` : n % 100 === 0 ? `note ${n}` : "HEARTBEAT_OK"
    const body = { id: `hb-${n}`, object: "chat.completion", created: 1700000000, model: MODEL, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } }
    return new Response(JSON.stringify(body), { status: 200, headers })
  }
}

async function heartbeatChild({ contender, ticks, compaction }) {
  const { agents, wasmBytes } = await library(contender)
  const counter = { calls: 0, maxMessages: 0 }
  const clock = new VirtualClock()
  // A hooks object: the reference's compactor is the bare beforeLLM function (this package's
  // is both), and an agent's `hooks` is a hooks object.
  const hooks = compaction ? { beforeLLM: agents.compactor({ maxTokens: 2_000, summarize: (older) => `summary of ${older.length} messages` }) } : undefined
  const persona = agents.agent("ava", { does: "a persona on a heartbeat", soul: "You are Ava. Reply HEARTBEAT_OK when nothing needs attention.", budget: { maxTurns: 1_000_000 }, hooks })
  const started = agents.startAgent(persona, { llm: { baseUrl: BASE_URL, style: "openai", model: MODEL, apiKey: "bench" }, fetch: heartbeatFetch(counter), clock }, { everyMs: 1000 })
  const handle = () => started.runtime.list()[0]
  const idle = () => handle()?.state === "idle"
  const memory = (tick) => {
    globalThis.gc?.()
    globalThis.gc?.()
    const m = process.memoryUsage()
    return { tick, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, wasm: wasmBytes() }
  }
  const marks = new Set([0, 10, 100, ticks / 4, ticks / 2, (3 * ticks) / 4, ticks].map(Math.round))
  const samples = [memory(0)]
  for (let tick = 1; tick <= ticks; tick++) {
    clock.advance(1000)
    for (let spins = 0; !(counter.calls === tick && idle()); spins++) {
      if (spins > 1e6) throw new Error(`${contender}: tick ${tick} never settled (${counter.calls} model calls, state ${handle()?.state})`)
      await new Promise((r) => setImmediate(r))
    }
    await new Promise((r) => setImmediate(r)) // let the beat's wait() callback record a substantive reply
    if (marks.has(tick)) samples.push(memory(tick))
  }
  // The runtime's transition trace is kept for the runtime's life (in both libraries): part of
  // any growth.
  const trace = started.runtime.trace
  const expectedBeats = Math.floor(ticks / 100)
  if (started.beats.length !== expectedBeats) throw new Error(`${contender}: ${started.beats.length} beats, expected ${expectedBeats}: ${started.beats.slice(0, 3)}`)
  await started.stop()
  return { samples, calls: counter.calls, beats: started.beats.length, maxMessages: counter.maxMessages, timersLeft: clock.timers.size, traceLines: trace.length, traceBytes: trace.join("\n").length }
}

if (flags.child) {
  const task = flags.child
  console.log(JSON.stringify(task.part === "compaction" ? await compactionChild(task) : await heartbeatChild(task)))
  process.exit(0)
}

// ---------------------------------------------------------------------------------------------
// The runner

const script = fileURLToPath(import.meta.url)
const started = performance.now()
const v = versions()
const mib = (b) => (b === null || b === undefined ? "—" : `${(b / 2 ** 20).toFixed(1)} MiB`)
console.log(`long-lived agents (issue 28), ${flags.repeats} fresh process(es) per contender`)
console.log(`  ${machineLine()}`)
console.log(`  toolnexus-wasm ${v.toolnexusWasm}; reference ${v.reference}`)

if (want("compaction")) {
  const CONTENDERS = ["toolnexus", "reference"]
  const counts = flags.smoke ? { warmup: 2, iters: 3 } : flags.quick ? { warmup: 20, iters: 40 } : { warmup: 50, iters: 150 }
  const by = {}
  for (const mode of ["compact", "noop"]) {
    by[mode] = Object.fromEntries(CONTENDERS.map((c) => [c, []]))
    for (let round = 0; round < flags.repeats; round++) {
      for (const contender of orderFor(CONTENDERS, round)) by[mode][contender].push(inChild(script, { part: "compaction", contender, mode, ...counts }))
    }
  }
  const first = by.compact.toolnexus[0]
  console.log(`\n  compaction of a ${(first.bytes / 1e6).toFixed(2)} MB transcript, 500 messages (${counts.warmup} warm-up + ${counts.iters} timed calls a process; kept ${first.kept} messages)`)
  console.log(`                                     toolnexus-wasm      reference     ratio (goal ≤ 1.00x)`)
  for (const [mode, label] of [["compact", `compaction (maxTokens ${COMPACT_MAX.toLocaleString("en")})`], ["noop", `no-op check (maxTokens ${NOOP_MAX.toLocaleString("en")})`]]) {
    const t = median(by[mode].toolnexus.map((r) => r.p50))
    const r = median(by[mode].reference.map((r) => r.p50))
    console.log(`    ${label.padEnd(33)}${fmtUs(t).padStart(14)}${fmtUs(r).padStart(15)}     ${ratio(t, r)}   (p50s: ${by[mode].toolnexus.map((x) => fmtUs(x.p50)).join(", ")} | ${by[mode].reference.map((x) => fmtUs(x.p50)).join(", ")})`)
  }
}

if (want("heartbeat")) {
  const ticks = flags.ticks ?? (flags.smoke ? 100 : 1000)
  console.log(`\n  heartbeat: startAgent over ${ticks} ticks of a virtual clock (everyMs 1000), one model call a tick, in-process endpoint; after gc()`)
  for (const [contender, compaction] of [["toolnexus", true], ["toolnexus", false], ["reference", true], ["reference", false]]) {
    const r = inChild(script, { part: "heartbeat", contender, ticks, compaction })
    const label = `${contender === "toolnexus" ? "toolnexus-wasm" : "reference"}, ${compaction ? "compactor (maxTokens 2,000)" : "no compactor"}`
    console.log(`    ${label}: ${r.calls} model calls, ${r.beats} substantive beats, longest request ${r.maxMessages} messages, transition trace ${r.traceLines} lines (${(r.traceBytes / 1024).toFixed(0)} KiB), ${r.timersLeft} timers left after stop()`)
    console.log(`      tick        ${r.samples.map((s) => String(s.tick).padStart(9)).join("")}`)
    console.log(`      JS heap     ${r.samples.map((s) => mib(s.heapUsed).padStart(9)).join("")}`)
    if (contender === "toolnexus") console.log(`      wasm memory ${r.samples.map((s) => mib(s.wasm).padStart(9)).join("")}`)
  }
}
console.log(`\n  ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end ${machineLine().split("load average ")[1]}`)
