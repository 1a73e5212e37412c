#!/usr/bin/env node
// Where scenario 1's time goes: the core loop natively, the same loop inside wasm with no JS in
// it, and the whole run through the JS API (the Response-less transport), the last two in ONE
// wasm instance, alternated run by run and timed one run at a time: p50s, as scenario 1 reports
// (a batch's mean also holds the garbage collections the JS side's allocations cause, which the
// wasm loop never triggers). What the JS API adds over the wasm core loop is the boundary plus
// the fake endpoint and the tools themselves: option reading, fetch and tool calls through the
// shim, promises, the result.
//   node --expose-gc bench/tools/core-split.mjs [--rounds=30] [--no-build] [--smoke] [--json]
// Builds target/bench-variants/bench-core (HEAD with the `bench-core` feature, see
// build-variant.sh) unless --no-build; runs `cargo bench --features bench-core --bench core_loop`.
// Every run is checked (the core loop checks its own answer); a wrong one exits 1. --smoke: a
// few runs of each (checks only); --json: also one `@@RESULT {...}` line (bench/run.mjs's
// `split` scenario reads it). Timings only: never a pass/fail on them.
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath, pathToFileURL } from "node:url"
import { PROMPT, baseTools, expectedText, liteFetch, MODEL } from "../lib/script.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback
const smoke = process.argv.includes("--smoke")
const rounds = smoke ? 2 : Number(arg("rounds", "30"))
const variant = path.join(root, "target/bench-variants/bench-core")
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })

if (!process.argv.includes("--no-build")) {
  run("bash", ["bench/tools/build-variant.sh", "bench-core", "z", "-O3"], { FEATURES: "bench-core" })
}
const native = run("cargo", ["bench", "--quiet", "--features", "bench-core", "--bench", "core_loop"], smoke ? { N: "20", W: "0" } : { N: "20000" })
const nativeUs = Number(/([\d.]+) µs per run/.exec(native)?.[1])

const lib = await import(pathToFileURL(path.join(variant, "node.mjs")).href)
const glue = await import(pathToFileURL(path.join(variant, "web/toolnexus.js")).href)
const exports = glue.initSync(fs.readFileSync(path.join(variant, "web/toolnexus_bg.wasm")))
if (typeof glue.__benchCoreLoop !== "function") throw new Error(`${variant} has no __benchCoreLoop: not a bench-core build`)
const tools = baseTools({ calls: 0 }).map((t) => lib.defineTool(t))
const toolkit = await lib.createToolkit({ builtins: false, extraTools: tools })
const client = lib.createClient({ baseUrl: "http://fake.invalid/s/k2t1/v1", style: "openai", model: MODEL, apiKey: "bench", fetch: liteFetch(), maxTurns: 8 })
const want = expectedText("k2t1")
const batch = smoke ? 2 : 200
const kinds = {
  "wasm core loop (no JS)": async () => glue.__benchCoreLoop(1),
  "JS API, Response-less fetch": async () => {
    const result = await client.run(PROMPT, { toolkit })
    if (result.text !== want) throw new Error(`wrong answer: ${result.text}`)
  },
}
for (const f of Object.values(kinds)) for (let i = 0; i < (smoke ? 1 : 1000); i++) await f()
const times = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]))
const names = Object.keys(kinds)
for (let r = 0; r < rounds * batch; r++) {
  for (const k of r % 2 ? [...names].reverse() : names) {
    const t = performance.now()
    await kinds[k]()
    times[k].push((performance.now() - t) * 1000)
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const [core, api] = names.map((k) => median(times[k]))
console.log(`scenario 1 (k2t1), µs per run; p50 of ${rounds * batch} runs each (wasm and JS API alternated run by run in one instance):`)
console.log(`  core loop, native (cargo bench)   ${nativeUs.toFixed(1)}`)
console.log(`  core loop inside wasm, no JS      ${core.toFixed(1)}  (${(core / nativeUs).toFixed(2)}x native)`)
console.log(`  the JS API, Response-less fetch   ${api.toFixed(1)}  (the boundary, the endpoint and the tools add ${(api - core).toFixed(1)}: ${((100 * (api - core)) / api).toFixed(0)} % of the run)`)
console.log(`  wasm linear memory ${(exports.memory.buffer.byteLength / 2 ** 20).toFixed(1)} MiB`)
if (process.argv.includes("--json")) {
  const result = { nativeUs, wasmCoreUs: core, apiUs: api, boundaryUs: api - core, rounds, batch }
  console.log(`@@RESULT ${JSON.stringify(result)}`)
}
