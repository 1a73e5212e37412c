#!/usr/bin/env node
// Sub-agents (issue 27): a fan-out of 1 lead to 8 children and a chain of 4 delegations, each
// over an in-process scripted OpenAI-compatible endpoint (a fetch function, no socket), for
//   bare        the floor: one hand-written client loop; each `task` call is a plain nested loop
//   toolnexus   agents.agent(...).run(prompt, {llm, fetch}) of this package (pkg/, full build)
//   reference   the same on the reference JS port (bench/tools/reference-port.mjs)
// Overhead per child run = (median p50 − the bare loop's) / child runs. Every run's final text
// is checked (a wrong one fails the bench), and so is the number of model calls.
//
//   node bench/subagents.mjs [--smoke] [--quick] [--repeats=N]
import { fileURLToPath } from "node:url"
import { importReference } from "./tools/reference-port.mjs"
import { BASE_URL, DEPTH, MODEL, SHAPES, agentsFetch } from "./lib/agents-script.mjs"
import { fmtUs, inChild, machineLine, median, orderFor, parseFlags, ratio, timeRuns, versions } from "./lib/peer-runs.mjs"
import { pkgUrl } from "./contenders/pkg.mjs"

const CONTENDERS = ["bare", "toolnexus", "reference"]
const flags = parseFlags(process.argv.slice(2))

// ---------------------------------------------------------------------------------------------
// The contenders: setup(fetch) → run(shape) resolving to the final text

/** The floor: a single client loop; a `task` call runs the named agent as a nested loop. */
function bareSetup(fetch) {
  const url = `${BASE_URL}/chat/completions`
  const headers = { "content-type": "application/json", authorization: "Bearer bench" }
  const taskTool = [{ type: "function", function: { name: "task", description: "Delegate a subtask", parameters: { type: "object", properties: { agent: { type: "string" }, prompt: { type: "string" } }, required: ["agent", "prompt"] } } }]
  async function loop(agent, prompt) {
    const messages = [{ role: "system", content: `You are ${agent}.` }, { role: "user", content: prompt }]
    for (let turn = 0; turn < 6; turn++) {
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ model: MODEL, messages, tools: taskTool }) })
      const message = (await res.json()).choices[0].message
      messages.push(message)
      const calls = message.tool_calls
      if (!calls || calls.length === 0) return message.content ?? ""
      const outputs = await Promise.all(calls.map((c) => { const a = JSON.parse(c.function.arguments); return loop(a.agent, a.prompt) }))
      calls.forEach((c, i) => messages.push({ role: "tool", tool_call_id: c.id, content: outputs[i] }))
    }
    throw new Error("maxTurns")
  }
  return { run: (shape) => loop(shape === "fanout" ? "lead" : "link0", SHAPES[shape].prompt) }
}

/** agents.agent(...) of either library: the two shapes' agent graphs, run through `.run`. */
function agentsSetup(agents, fetch) {
  const worker = agents.agent("worker", { does: "does one job", soul: "You are worker." })
  const lead = agents.agent("lead", { does: "fans work out", soul: "You are lead.", team: [worker] })
  // The default maxDepth is 3: a chain of 4 delegations needs more on every link.
  let link = agents.agent(`link${DEPTH}`, { does: `link ${DEPTH}`, soul: `You are link${DEPTH}.`, budget: { maxDepth: 8 } })
  for (let n = DEPTH - 1; n >= 0; n--) link = agents.agent(`link${n}`, { does: `link ${n}`, soul: `You are link${n}.`, team: [link], budget: { maxDepth: 8 } })
  const top = { fanout: lead, chain: link }
  const options = { llm: { baseUrl: BASE_URL, style: "openai", model: MODEL, apiKey: "bench" }, fetch }
  return {
    async run(shape) {
      const r = await top[shape].run(SHAPES[shape].prompt, options)
      if (r.status !== "done") throw new Error(`run ended ${r.status}: ${r.text}`)
      return r.text
    },
  }
}

async function setup(name, fetch) {
  if (name === "bare") return bareSetup(fetch)
  if (name === "toolnexus") return agentsSetup((await import(pkgUrl("node.mjs"))).agents, fetch)
  if (name === "reference") return agentsSetup((await importReference()).lib.agents, fetch)
  throw new Error(`unknown contender ${name}`)
}

// ---------------------------------------------------------------------------------------------
// One measurement (a child process)

async function child({ contender, shape, warmup, iters }) {
  const counter = { calls: 0 }
  const inst = await setup(contender, agentsFetch(counter))
  const { expected, modelCalls } = SHAPES[shape]
  const check = async () => {
    const before = counter.calls
    const text = await inst.run(shape)
    if (text !== expected) throw new Error(`${contender} ${shape}: final text ${JSON.stringify(text)}, expected ${JSON.stringify(expected)}`)
    if (counter.calls - before !== modelCalls) throw new Error(`${contender} ${shape}: ${counter.calls - before} model calls, expected ${modelCalls}`)
  }
  // Between runs, outside the timed region, the event loop turns once, as in any application
  // whose model is on the network: this package frees a finished runtime's module memory
  // through finalizers, which run only then (a loop that never yields keeps every runtime's).
  const turn = () => new Promise((resolve) => setImmediate(resolve))
  const { p50, min } = await timeRuns(check, { warmup, iters, between: turn })
  return { p50, min }
}

if (flags.child) {
  console.log(JSON.stringify(await child(flags.child)))
  process.exit(0)
}

// ---------------------------------------------------------------------------------------------
// The runner

const script = fileURLToPath(import.meta.url)
const counts = flags.smoke ? { warmup: 3, iters: 3 } : flags.quick ? { warmup: 200, iters: 200 } : { warmup: 500, iters: 800 }
const started = performance.now()
const v = versions()
const results = {}
for (const shape of Object.keys(SHAPES)) {
  results[shape] = Object.fromEntries(CONTENDERS.map((c) => [c, []]))
  for (let round = 0; round < flags.repeats; round++) {
    for (const contender of orderFor(CONTENDERS, round)) results[shape][contender].push(inChild(script, { contender, shape, ...counts }))
  }
}

console.log(`sub-agents (issue 27), in-process scripted endpoint (a fetch returning a real Response), ${flags.repeats} fresh process(es) per contender, ${counts.warmup} warm-up + ${counts.iters} timed runs each`)
console.log(`  ${machineLine()}`)
console.log(`  toolnexus-wasm ${v.toolnexusWasm}; reference ${v.reference}`)
for (const [shape, by] of Object.entries(results)) {
  const { childRuns, modelCalls } = SHAPES[shape]
  const med = Object.fromEntries(CONTENDERS.map((c) => [c, median(by[c].map((r) => r.p50))]))
  const over = (c) => (med[c] - med.bare) / childRuns
  const title = shape === "fanout" ? `fan-out 1 → ${childRuns} children` : `chain of ${childRuns} delegations`
  console.log(`\n  ${title} (${modelCalls} model calls a run)      p50 per run   p50s of the repeats        overhead per child run above the bare loop`)
  for (const c of CONTENDERS) {
    const spread = by[c].map((r) => fmtUs(r.p50)).join(", ")
    const o = c === "bare" ? "(floor)" : `${fmtUs(over(c))}`
    console.log(`    ${c.padEnd(12)} ${fmtUs(med[c]).padStart(10)}   ${spread.padEnd(26)} ${o}`)
  }
  console.log(`    ratio toolnexus/reference: per run ${ratio(med.toolnexus, med.reference)}, overhead per child run ${ratio(over("toolnexus"), over("reference"))} (goal ≤ 1.00x)`)
}
console.log(`\n  ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end ${machineLine().split("load average ")[1]}`)
