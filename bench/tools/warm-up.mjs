#!/usr/bin/env node
// How many runs a build needs before it reaches its speed (V8 tiers wasm functions up once they
// have run enough): one fresh process, scenario 1's shape over the Response-less fetch, W
// unmeasured runs, then N runs timed one by one; prints the p50 of all N and of their first and
// last thirds. Every final text is checked. Timings only: never a pass/fail on them.
//   node bench/tools/warm-up.mjs [<package dir, default pkg>] [W=500] [N=3000]
// e.g. `for w in 500 1000 3000 10000; do node bench/tools/warm-up.mjs pkg $w; done`
import path from "node:path"

const [dir = "pkg", warm = "500", count = "3000"] = process.argv.slice(2)
process.env.TOOLNEXUS_PKG = path.resolve(dir)
const { setup } = await import("../contenders/toolnexus.mjs")
const { baseTools, liteFetch, PROMPT, expectedText } = await import("../lib/script.mjs")
const inst = await setup(baseTools({ calls: 0 }), liteFetch(), { baseUrl: "http://bench.local/s/k2t1/v1" })
const want = expectedText("k2t1")
const check = async () => {
  const text = await inst.run(PROMPT)
  if (text !== want) throw new Error(`final text ${JSON.stringify(text)}, expected ${JSON.stringify(want)}`)
}
const W = Number(warm)
const N = Number(count)
for (let i = 0; i < W; i++) await check()
const samples = []
for (let i = 0; i < N; i++) {
  const t = performance.now()
  await check()
  samples.push(performance.now() - t)
}
const p50 = (list) => `${(([...list].sort((a, b) => a - b)[list.length >> 1] ?? NaN) * 1000).toFixed(1)} µs`
const third = Math.max(1, Math.floor(N / 3))
console.log(`${dir}: ${W} warm-up runs, then ${N}: p50 ${p50(samples)}; first third ${p50(samples.slice(0, third))}, last third ${p50(samples.slice(-third))}`)
