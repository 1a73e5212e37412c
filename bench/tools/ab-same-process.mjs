#!/usr/bin/env node
// Two package builds in ONE process, scenario 1 over the in-process fake fetch, alternated batch
// by batch (A B, B A, …) so that a machine getting slower or faster during the measurement
// affects both alike. For differences of a few per cent that fresh-process runs cannot see:
//   node --expose-gc bench/tools/ab-same-process.mjs target/bench-variants/a pkg [k2t1] [rounds=60] [--lite]
// (`--lite`: the Response-less transport of lib/script.mjs, the framework's cost alone.)
// Prints the median and the minimum over the batches (200 runs each) of µs per run, and B/A.
// `--per-run`: alternate run by run instead (A B, B A, …; `rounds` is then thousands of runs
// per build, e.g. 20000) and print p25 and p50 of the single runs; an A/A check of one build
// against itself reads 1.000 to the third digit on these machines. Every run's text is checked.
import { performance } from "node:perf_hooks"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { PROMPT, baseTools, expectedText, fakeFetch, liteFetch, MODEL } from "../lib/script.mjs"

const lite = process.argv.includes("--lite")
const perRun = process.argv.includes("--per-run")
const [a, b, id = "k2t1", roundsArg = perRun ? "20000" : "60"] = process.argv.slice(2).filter((x) => !x.startsWith("--"))
if (!a || !b) {
  console.error("usage: node --expose-gc bench/tools/ab-same-process.mjs DIR_A DIR_B [id] [rounds]")
  process.exit(2)
}
const rounds = Number(roundsArg)
const want = expectedText(id)
const runs = []
for (const dir of [a, b]) {
  const lib = await import(pathToFileURL(path.resolve(dir) + "/node.mjs").href)
  const tools = baseTools({ calls: 0 }).map((t) => lib.defineTool(t))
  const toolkit = await lib.createToolkit({ builtins: false, extraTools: tools })
  const client = lib.createClient({ baseUrl: `http://fake.invalid/s/${id}/v1`, style: "openai", model: MODEL, apiKey: "bench", fetch: lite ? liteFetch() : fakeFetch(), maxTurns: 64 })
  runs.push(async () => {
    const result = await client.run(PROMPT, { toolkit })
    if (result.text !== want) throw new Error(`${dir}: wrong answer ${result.text}`)
  })
}
for (const run of runs) for (let i = 0; i < 1000; i++) await run()
const name = (d) => path.basename(path.resolve(d))
if (perRun) {
  const single = [[], []]
  for (let i = 0; i < rounds; i++) {
    for (const k of i % 2 ? [1, 0] : [0, 1]) {
      const t = performance.now()
      await runs[k]()
      single[k].push((performance.now() - t) * 1000)
    }
  }
  const at = (xs, q) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length * q)]
  const [a25, b25, a50, b50] = [at(single[0], 0.25), at(single[1], 0.25), at(single[0], 0.5), at(single[1], 0.5)]
  console.log(`${name(a)}: p25 ${a25.toFixed(1)} µs, p50 ${a50.toFixed(1)} µs | ${name(b)}: p25 ${b25.toFixed(1)} µs, p50 ${b50.toFixed(1)} µs | B/A p25 ${(b25 / a25).toFixed(3)}, p50 ${(b50 / a50).toFixed(3)}`)
  process.exit(0)
}
const batches = [[], []]
for (let r = 0; r < rounds; r++) {
  for (const k of r % 2 ? [1, 0] : [0, 1]) {
    globalThis.gc?.()
    const t = performance.now()
    for (let i = 0; i < 200; i++) await runs[k]()
    batches[k].push(((performance.now() - t) * 1000) / 200)
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1]
const [ma, mb] = batches.map(median)
const [na, nb] = batches.map((xs) => Math.min(...xs))
console.log(`${name(a)}: median ${ma.toFixed(1)} µs, min ${na.toFixed(1)} µs | ${name(b)}: median ${mb.toFixed(1)} µs, min ${nb.toFixed(1)} µs | B/A median ${(mb / ma).toFixed(3)}, min ${(nb / na).toFixed(3)}`)
