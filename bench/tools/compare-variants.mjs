#!/usr/bin/env node
// Interleaved comparison of package builds on scenario 1 (and K = 64 parallel calls), each
// measurement a fresh process, the bare loop beside them:
//   node bench/tools/compare-variants.mjs target/bench-variants/a target/bench-variants/b [--rounds=3]
// Prints the median over rounds of each process's p50 and min (µs per run). Checks every run.
import { spawnSync } from "node:child_process"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { median } from "../lib/stats.mjs"

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.split("=")[1] ?? 3)
const dirs = args.filter((a) => !a.startsWith("--"))
if (dirs.length === 0) {
  console.error("usage: node bench/tools/compare-variants.mjs DIR... [--rounds=3]")
  process.exit(2)
}
const points = [
  { id: "k2t1", warmup: 500, iters: 3000 },
  { id: "k64t1", warmup: 30, iters: 200 },
]
const entries = [...dirs.map((d) => ({ label: d, contender: "toolnexus", pkg: path.resolve(d) })), { label: "bare loop (floor)", contender: "bare" }]
const got = new Map(entries.map((e) => [e.label, []]))
for (let r = 0; r < rounds; r++) {
  for (const e of r % 2 === 0 ? entries : [...entries].reverse()) {
    const task = { kind: "loop", contender: e.contender, transport: "fake", base: "http://fake.invalid", points }
    const env = { ...process.env, ...(e.pkg ? { TOOLNEXUS_PKG: e.pkg } : {}) }
    const out = spawnSync(process.execPath, ["--expose-gc", path.join(here, "../lib/child.mjs"), JSON.stringify(task)], { env, encoding: "utf8" })
    const line = out.stdout.split("\n").find((l) => l.startsWith("@@RESULT "))
    const res = line && JSON.parse(line.slice(9))
    if (out.status !== 0 || !res || res.error) {
      console.error(`${e.label}: ${res?.error ?? out.stderr}`)
      process.exit(1)
    }
    got.get(e.label).push(res.points)
  }
}
for (const [labelText, reps] of got) {
  const cells = points.map((p, i) => `${p.id} p50 ${median(reps.map((x) => x[i].p50)).toFixed(0)} µs, min ${median(reps.map((x) => x[i].min)).toFixed(0)} µs`)
  console.log(`${labelText.padEnd(40)} ${cells.join("   ")}`)
}
