#!/usr/bin/env node
// The benchmark harness of toolnexus-wasm against its peers (issue 8). See bench/README.md.
//
//   node bench/run.mjs                  the full bench (30–60 min on 2 cores), results in bench/results/
//   node bench/run.mjs --smoke          seconds: every contender, every scenario, a few runs each;
//                                       fails only when a final text is wrong, never on a timing
//   flags: --only=ref,scale,tools,throughput,history,stream,metrics,cold,crossings,split,browser
//          --contenders=bare,toolnexus,vercel,agents   --repeats=N   --quick   --no-browser
//          --out=FILE   --no-install   --pkg=DIR (measure a build laid out like pkg/)
//          --wait-quiet=SECONDS (before each measured process, default 20; 0 = off)   --help
import { spawn, spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib"
import { combine, fmt, linreg, median, ratio } from "./lib/stats.mjs"

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, "..")
const SCENARIOS = ["ref", "scale", "tools", "throughput", "history", "stream", "metrics", "cold", "crossings", "split", "browser"]
const ALL_CONTENDERS = ["bare", "toolnexus", "vercel", "agents"]

// ---------------------------------------------------------------------------------------------
// Flags

function parseFlags(argv) {
  const flags = { smoke: false, quick: false, install: true, browser: true, only: null, contenders: null, repeats: null, out: null, waitQuiet: 20 }
  for (const arg of argv) {
    const [key, value] = arg.replace(/^--/, "").split("=")
    if (key === "smoke") flags.smoke = true
    else if (key === "quick") flags.quick = true
    else if (key === "no-install") flags.install = false
    else if (key === "no-browser") flags.browser = false
    else if (key === "only") flags.only = value.split(",")
    else if (key === "contenders") flags.contenders = value.split(",")
    else if (key === "repeats") flags.repeats = Number(value)
    else if (key === "out") flags.out = path.resolve(value)
    else if (key === "pkg") process.env.TOOLNEXUS_PKG = path.resolve(value)
    else if (key === "wait-quiet") flags.waitQuiet = Number(value)
    else if (key === "help" || key === "h") {
      const text = readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").slice(1, 10)
      console.log(text.map((l) => l.replace(/^\/\/ ?/, "")).join("\n"))
      process.exit(0)
    } else {
      console.error(`unknown flag ${arg} (try --help)`)
      process.exit(2)
    }
  }
  for (const s of flags.only ?? []) if (!SCENARIOS.includes(s)) fail(`unknown scenario ${s}; known: ${SCENARIOS.join(", ")}`)
  for (const c of flags.contenders ?? []) if (!ALL_CONTENDERS.includes(c)) fail(`unknown contender ${c}; known: ${ALL_CONTENDERS.join(", ")}`)
  if (flags.contenders && !flags.contenders.includes("bare")) flags.contenders.unshift("bare") // the floor is always measured
  return flags
}

function fail(message) {
  console.error(`bench: ${message}`)
  process.exit(2)
}

const flags = parseFlags(process.argv.slice(2))
const contenders = flags.contenders ?? ALL_CONTENDERS
const want = (s) => (flags.only ? flags.only.includes(s) : true) && (s !== "browser" || flags.browser)
const repeats = flags.repeats ?? (flags.smoke ? 1 : 3)
if (!(repeats >= 1)) fail("--repeats must be at least 1")
// Iteration counts scale: full, --quick (a quarter), --smoke (a handful, checks only).
const scale = flags.smoke ? 0 : flags.quick ? 0.25 : 1
const n = (full, smoke = 3) => (flags.smoke ? smoke : Math.max(smoke, Math.round(full * scale)))

// ---------------------------------------------------------------------------------------------
// Setup: the built package and the bench's own pinned peers

// The package measured: pkg/ (the built npm package) unless --pkg / TOOLNEXUS_PKG names a variant.
// It is copied to target/bench-snapshot/ first, so a rebuild during the bench changes nothing:
// every scenario measures the same bytes.
const sourcePkg = process.env.TOOLNEXUS_PKG ? path.resolve(process.env.TOOLNEXUS_PKG) : path.join(root, "pkg")
if (!existsSync(path.join(sourcePkg, "web/toolnexus_bg.wasm"))) {
  fail(`${path.relative(root, sourcePkg)}/web is missing: build the package first (npm run build)`)
}
// (one folder per bench process: a smoke run and a full run may overlap)
const snapshotDir = path.join(root, "target", "bench-snapshot", String(process.pid))
const pkgDir = path.join(snapshotDir, "pkg")
rmSync(snapshotDir, { recursive: true, force: true })
process.on("exit", () => rmSync(snapshotDir, { recursive: true, force: true }))
// Ctrl-C / kill: still remove the snapshot and stop the mock server (the "exit" handlers)
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130))
cpSync(sourcePkg, pkgDir, { recursive: true, filter: (src) => !/\.(tgz|old)$/.test(src) && !src.includes(`${path.sep}node_modules`) })
process.env.TOOLNEXUS_PKG = pkgDir

function ensureInstalled() {
  const lock = path.join(here, "package-lock.json")
  const marker = path.join(here, "node_modules/.package-lock.json")
  const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs
  if (fresh || !flags.install) return
  console.error("bench: installing the pinned peers (npm ci --prefix bench) …")
  const r = spawnSync("npm", ["ci", "--prefix", here, "--no-audit", "--no-fund", "--loglevel=error"], { stdio: ["ignore", "inherit", "inherit"] })
  if (r.status !== 0) fail("npm ci --prefix bench failed")
}
ensureInstalled()

// ---------------------------------------------------------------------------------------------
// Children

const failures = []
const CHILD = path.join(here, "lib/child.mjs")

function runNode(args, { timeoutMs = 600_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, OPENAI_API_KEY: "", OPENROUTER_API_KEY: "" } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout, stderr })
    })
  })
}

function parseResult(out, what) {
  const line = out.stdout.split("\n").find((l) => l.startsWith("@@RESULT "))
  const result = line ? JSON.parse(line.slice(9)) : null
  if (out.code !== 0 || !result || result.error) {
    const why = result?.error ?? (out.stderr.trim() || `exit ${out.code ?? out.signal}`)
    failures.push({ what, mismatch: out.code === 3 || !!result?.mismatch, error: why })
    console.log(`  ✗ ${what}: ${why.split("\n")[0]}`)
    return null
  }
  return result
}

// The machine may be shared (other builds, other benches): before each measured process, wait
// (up to --wait-quiet seconds, default 20; 0 turns it off) until the other processes use
// under a quarter of the CPUs, and record how much CPU others took while it ran.
function cpuTimes() {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number)
    const idle = line[3] + (line[4] ?? 0)
    const total = line.reduce((a, b) => a + b, 0)
    return { busy: total - idle, total }
  } catch {
    return null
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function busyFraction(ms = 300) {
  const a = cpuTimes()
  await sleep(ms)
  const b = cpuTimes()
  if (!a || !b || b.total === a.total) return 0
  return (b.busy - a.busy) / (b.total - a.total)
}
const contention = { waitedSeconds: 0, busyRuns: 0, runs: 0, worstOthers: 0 }
async function waitQuiet() {
  // at most --wait-quiet seconds per process, and 10 minutes in all
  if (flags.smoke || flags.waitQuiet === 0 || contention.waitedSeconds > 600) return
  const start = Date.now()
  while ((await busyFraction()) > 0.25 && Date.now() - start < flags.waitQuiet * 1000) await sleep(1000)
  contention.waitedSeconds += (Date.now() - start) / 1000
}

/** Jiffies of CPU a process of ours used (the mock server's work is not "others"). */
function procJiffies(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

async function child(task, what, script = CHILD) {
  await waitQuiet()
  const serverBefore = server ? procJiffies(server.proc.pid) : 0
  const before = cpuTimes()
  const out = await runNode(["--expose-gc", script, JSON.stringify(task)])
  const after = cpuTimes()
  if (after) after.busy -= (server ? procJiffies(server.proc.pid) : 0) - serverBefore
  const result = parseResult(out, what)
  if (result && before && after && result.cpuUs != null && after.total > before.total) {
    // jiffies are 10 ms; CPU the child did not use is what others used
    const others = Math.max(0, ((after.busy - before.busy) * 10_000 - result.cpuUs) / ((after.total - before.total) * 10_000))
    result.othersCpu = others
    contention.runs++
    contention.worstOthers = Math.max(contention.worstOthers, others)
    if (others > 0.15) contention.busyRuns++
  }
  return result
}

/**
 * Runs async jobs: one at a time, in order, for measurements; several at once under --smoke,
 * where nothing is timed and only the checks count.
 */
const PARALLEL_SMOKE = Math.max(2, Math.min(4, os.cpus().length))
async function schedule(jobs) {
  if (!flags.smoke) {
    const out = []
    for (const job of jobs) out.push(await job())
    return out
  }
  const out = new Array(jobs.length)
  let next = 0
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++
      out[i] = await jobs[i]()
    }
  }
  await Promise.all(Array.from({ length: PARALLEL_SMOKE }, worker))
  return out
}

/** The A B C … C B A order of repeat r. */
const orderOf = (list, r) => (r % 2 === 0 ? list : [...list].reverse())

// ---------------------------------------------------------------------------------------------
// The mock server (HTTP transport)

let server = null
async function startServer() {
  if (server) return server
  const proc = spawn(process.execPath, [path.join(here, "lib/server.mjs"), "--max-seconds=3600"], { stdio: ["pipe", "pipe", "inherit"] })
  const port = await new Promise((resolve, reject) => {
    let buf = ""
    proc.stdout.on("data", (d) => {
      buf += d
      const m = /listening (\d+)/.exec(buf)
      if (m) resolve(Number(m[1]))
    })
    proc.on("exit", (code) => reject(new Error(`mock server exited ${code}`)))
  })
  server = { proc, port, base: `http://127.0.0.1:${port}` }
  return server
}
function stopServer() {
  if (!server) return
  server.proc.stdin.end() // the server exits when its stdin closes
  server.proc.kill("SIGTERM")
  server = null
}
process.on("exit", stopServer)

// ---------------------------------------------------------------------------------------------
// Output helpers

const results = { scenarios: {} }
const pad = (s, w) => String(s).padEnd(w)
const lpad = (s, w) => String(s).padStart(w)
const label = { bare: "bare loop (floor)", toolnexus: "toolnexus-wasm", vercel: "Vercel AI SDK", agents: "OpenAI Agents JS", "toolnexus-toollike": "toolnexus, ToolLike tools", "toolnexus-core": "toolnexus-wasm/core (lean)" }
const head = (title) => console.log(`\n## ${title}`)
const spread = (c) => `${fmt(c.p50Spread[0])} – ${fmt(c.p50Spread[1])}`

function table(rows, columns) {
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => String(r[i]).length)))
  const line = (cells) => "  " + cells.map((c, i) => (i === 0 ? pad(c, widths[i]) : lpad(c, widths[i]))).join("  ")
  console.log(line(columns))
  for (const r of rows) console.log(line(r))
}

// ---------------------------------------------------------------------------------------------
// Scenario 1: the reference shape

async function loopRepeats(names, transport, base, points, what) {
  const byName = Object.fromEntries(names.map((c) => [c, []]))
  const jobs = []
  for (let r = 0; r < repeats; r++) {
    for (const c of orderOf(names, r)) {
      jobs.push(async () => {
        const res = await child({ kind: "loop", contender: c, transport, base, points }, `${what} ${c} (${transport}, repeat ${r + 1})`)
        if (res) byName[c].push(res.points)
      })
    }
  }
  await schedule(jobs)
  // combine per point
  const out = {}
  for (const c of names) {
    if (byName[c].length === 0) continue
    out[c] = {}
    for (const [i, p] of points.entries()) out[c][p.label ?? p.id] = combine(byName[c].map((rep) => rep[i]))
  }
  return out
}

async function rtt(transport, base) {
  const runs = []
  await schedule(Array.from({ length: repeats }, () => async () => {
    const res = await child({ kind: "rtt", transport, base, warmup: n(1000, 3), iters: n(5000, 5) }, `transport round trip (${transport})`)
    if (res) runs.push(res)
  }))
  return runs.length ? { ...combine(runs), bodyBytes: runs[0].bodyBytes } : null
}

function printRef(res, floorTrip, transport) {
  const floor = res.bare?.k2t1
  const rows = []
  for (const c of Object.keys(res)) {
    const x = res[c].k2t1
    rows.push([label[c] ?? c, fmt(x.p50), fmt(x.p95), fmt(x.p99), spread(x), c === "bare" ? "—" : `+${fmt(x.p50 - floor.p50)}`])
  }
  if (floorTrip) {
    const what = {
      http: "bare fetch round trip to 127.0.0.1",
      fake: "fake fetch round trip (new Response + json())",
      lite: "Response-less fake fetch round trip (json())",
    }[transport]
    console.log(`  transport alone: ${what}: p50 ${fmt(floorTrip.p50)} per model call (a run makes 2)`)
  }
  table(rows, ["contender", "p50", "p95", "p99", `p50 min–max over ${repeats}`, "above floor"])
  const tn = res.toolnexus?.k2t1
  if (tn && floor) {
    const over = tn.p50 - floor.p50
    for (const peer of ["vercel", "agents"]) {
      const p = res[peer]?.k2t1
      if (!p) continue
      console.log(`  toolnexus-wasm / ${label[peer]}: ${ratio(tn.p50, p.p50)} per run; overhead above the floor ${ratio(over, p.p50 - floor.p50)}`)
    }
    console.log(`  toolnexus-wasm / bare loop: ${ratio(tn.p50, floor.p50)}`)
  }
}

async function scenarioRef() {
  // 3,000 warm-up runs: the Node build (opt-level 3) reaches its speed only once V8 has tiered
  // its large functions up, after ~1,000-3,000 runs on these machines (bench/README.md,
  // eleventh round); before that it runs at about the size build's speed.
  const points = [{ id: "k2t1", warmup: n(3000, 2), iters: n(3000, 4) }]
  const out = {}
  head("Scenario 1 — reference shape: one question, turn 1 returns 2 parallel tool calls, turn 2 the answer")
  console.log("  (each run's final text and tool-call count are checked; p50/p95/p99 are medians over repeats; time per run)")
  console.log("\n  ### in-process fake fetch (the framework's own overhead, wasm boundary included)")
  const fakeTrip = await rtt("fake", "http://fake.invalid")
  const variants = contenders.includes("toolnexus") ? [...contenders, "toolnexus-core", ...(flags.smoke ? [] : ["toolnexus-toollike"])] : contenders
  out.fake = { roundTrip: fakeTrip, contenders: await loopRepeats(variants, "fake", "http://fake.invalid", points, "scenario 1") }
  printRef(out.fake.contenders, fakeTrip, "fake")
  if (out.fake.contenders["toolnexus-toollike"]) {
    console.log("  (toolnexus, ToolLike tools: the same client with plain {name, description, inputSchema, execute} objects instead of defineTool)")
  }
  console.log("\n  ### in-process fetch without a Response (the framework's cost alone: no undici Response per call)")
  const liteTrip = await rtt("lite", "http://fake.invalid")
  out.lite = { roundTrip: liteTrip, contenders: await loopRepeats(variants, "lite", "http://fake.invalid", points, "scenario 1") }
  printRef(out.lite.contenders, liteTrip, "lite")
  console.log("\n  ### mock OpenAI-style server on 127.0.0.1 (end to end)")
  const srv = await startServer()
  const httpTrip = await rtt("http", srv.base)
  const httpPoints = [{ id: "k2t1", warmup: n(300, 2), iters: n(1500, 4) }]
  out.http = { roundTrip: httpTrip, contenders: await loopRepeats(contenders, "http", srv.base, httpPoints, "scenario 1") }
  printRef(out.http.contenders, httpTrip, "http")
  results.scenarios.ref = out
}

// ---------------------------------------------------------------------------------------------
// Scenario 2: scaling

const PARALLEL = [1, 8, 64]
const SEQUENTIAL = [1, 2, 4, 8, 16, 32]

async function scenarioScale() {
  head("Scenario 2 — scaling: K parallel tool calls in one turn, K sequential tool turns (in-process fake fetch)")
  // A warm-up point first (not reported): the later points would otherwise measure V8 tiering
  // the module up mid-series (see scenario 1's warm-up).
  const warm = { id: "k2t1", label: "warm-up", warmup: n(3000, 1), iters: n(10, 1) }
  const points = [
    ...PARALLEL.map((k) => ({ id: `k${k}t1`, label: `parallel ${k}`, warmup: n(Math.max(20, 200 / k), 1), iters: n(Math.max(100, 1200 / Math.sqrt(k)), 2) })),
    ...SEQUENTIAL.map((t) => ({ id: `k1t${t}`, label: `sequential ${t}`, warmup: n(Math.max(20, 200 / t), 1), iters: n(Math.max(100, 1200 / Math.sqrt(t)), 2) })),
  ]
  const res = await loopRepeats(contenders, "fake", "http://fake.invalid", [warm, ...points], "scenario 2")
  for (const c of Object.keys(res)) delete res[c][warm.label]
  const rows = []
  const slopes = {}
  for (const c of Object.keys(res)) {
    const par = linreg(PARALLEL, PARALLEL.map((k) => res[c][`parallel ${k}`].p50))
    const seq = linreg(SEQUENTIAL, SEQUENTIAL.map((t) => res[c][`sequential ${t}`].p50))
    slopes[c] = { perToolCall: par.slope, perTurn: seq.slope, parallelIntercept: par.intercept, sequentialIntercept: seq.intercept }
    rows.push([label[c], ...points.map((p) => fmt(res[c][p.label].p50)), fmt(par.slope), fmt(seq.slope)])
  }
  table(rows, ["p50 per run", ...PARALLEL.map((k) => `K=${k}∥`), ...SEQUENTIAL.map((t) => `T=${t}→`), "µs/tool call", "µs/turn"])
  const floor = slopes.bare
  if (floor) {
    for (const c of Object.keys(slopes)) {
      if (c === "bare") continue
      console.log(`  ${label[c]}: above the floor ${fmt(slopes[c].perToolCall - floor.perToolCall)} per parallel tool call, ${fmt(slopes[c].perTurn - floor.perTurn)} per sequential turn`)
    }
  }
  console.log("  (slopes: least squares over the p50s; a sequential turn = one model call + one tool call)")
  results.scenarios.scale = { points: res, slopes }
}

// ---------------------------------------------------------------------------------------------
// Scenario 6: 500 tools

async function scenarioTools() {
  head("Scenario 6 — a toolkit of 500 tools (in-process fake fetch)")
  const per = Object.fromEntries(contenders.map((c) => [c, []]))
  const jobs = []
  for (let r = 0; r < repeats; r++) {
    for (const c of orderOf(contenders, r)) jobs.push(async () => {
      const res = await child({ kind: "tools", contender: c, transport: "fake", base: "http://fake.invalid", n: 500, warmup: n(10, 1), buildIters: n(40, 2), convIters: n(200, 2), runIters: n(150, 2) }, `scenario 6 ${c} (repeat ${r + 1})`)
      if (res) per[c].push(res)
    })
  }
  await schedule(jobs)
  const out = {}
  const rows = []
  for (const c of contenders) {
    const reps = per[c]
    if (reps.length === 0) continue
    const o = { build: combine(reps.map((x) => x.build)), runs: {}, convert: {} }
    for (const key of Object.keys(reps[0].runs)) o.runs[key] = combine(reps.map((x) => x.runs[key]))
    for (const key of Object.keys(reps[0].convert ?? {})) o.convert[key] = combine(reps.map((x) => x.convert[key]))
    out[c] = o
    const two = o.runs["answer, 2 tools"].p50
    const many = o.runs["answer, 500 tools"].p50
    rows.push([label[c], fmt(o.build.p50), fmt(o.convert.toOpenAI?.p50), fmt(o.convert.toAnthropic?.p50), fmt(o.convert.toGemini?.p50), fmt(two), fmt(many), `+${fmt(many - two)}`, fmt(o.runs["reference shape, 500 tools"].p50)])
  }
  table(rows, ["contender", "setup(500)", "toOpenAI", "toAnthropic", "toGemini", "1-call run, 2 tools", "…, 500 tools", "500-tool body", "ref shape, 500 tools"])
  console.log("  setup(500) = the contender's own tool definitions + toolkit/client build; \"500-tool body\" = the extra cost of")
  console.log("  one model call carrying 500 tool schemas (request-body build + the mock reading it); n/a = no such public API")
  results.scenarios.tools = out
}

// ---------------------------------------------------------------------------------------------
// Scenario 3: throughput and memory

const mb = (b) => (b == null ? "n/a" : `${(b / 1048576).toFixed(1)} MiB`)

async function scenarioThroughput() {
  head("Scenario 3 — throughput: 1,000 sequential runs and 100 concurrent × 10, reference shape (in-process fake fetch)")
  const per = Object.fromEntries(contenders.map((c) => [c, []]))
  const jobs = []
  for (let r = 0; r < repeats; r++) {
    for (const c of orderOf(contenders, r)) jobs.push(async () => {
      const res = await child({ kind: "throughput", contender: c, transport: "fake", base: "http://fake.invalid", warmup: n(200, 2), sequential: flags.smoke ? 5 : 1000, concurrency: flags.smoke ? 3 : 100, each: flags.smoke ? 2 : 10, rounds: 2 }, `scenario 3 ${c} (repeat ${r + 1})`)
      if (res) per[c].push(res)
    })
  }
  await schedule(jobs)
  const rows = []
  const mem = []
  for (const c of contenders) {
    const reps = per[c]
    if (reps.length === 0) continue
    const phase = (i) => median(reps.map((x) => x.phases[i].runsPerSec))
    rows.push([label[c], ...[0, 1, 2, 3].map((i) => phase(i).toFixed(0))])
    const last = reps[reps.length - 1]
    mem.push([label[c], mb(last.before.heapUsed), mb(last.afterWarmup.heapUsed), ...last.phases.map((p) => mb(p.memory.heapUsed)), last.wasmExposed ? [last.before.wasmLinear, last.afterWarmup.wasmLinear, ...last.phases.map((p) => p.memory.wasmLinear)].map(mb).join(" → ") : "—"])
  }
  const ph = per[contenders[0]]?.[0]?.phases ?? []
  table(rows, ["runs/s (median over repeats)", ...ph.map((p) => `${p.phase} #${p.round}`)])
  console.log("")
  table(mem, ["JS heap used after gc (last repeat)", "start", "warm", ...ph.map((p) => `${p.phase} #${p.round}`), "wasm linear memory: start → warm → after each phase"])
  console.log("  wasm linear memory is read from the module's exported WebAssembly.Memory (initSync() returns the instance's exports)")
  results.scenarios.throughput = per
}

// ---------------------------------------------------------------------------------------------
// Scenario 4: a 1 MB history

async function scenarioHistory() {
  head("Scenario 4 — a 1 MB history (500 messages × 2 KB) passed to run() (in-process fake fetch)")
  const history = flags.smoke ? { n: 20, size: 256 } : { n: 500, size: 2048 }
  const TURNS = [1, 2, 4] // model calls: k0t0 = 1, k1t1 = 2, k1t3 = 4
  const ids = { 1: "k0t0", 2: "k1t1", 4: "k1t3" }
  const points = []
  for (const h of [false, true]) {
    for (const t of TURNS) points.push({ id: ids[t], label: `${h ? "history" : "fresh"} ${t}`, history: h ? history : undefined, warmup: n(h ? 10 : 100, 1), iters: n(h ? 60 : 600, 2) })
  }
  const res = await loopRepeats(contenders, "fake", "http://fake.invalid", points, "scenario 4")
  const rows = []
  const out = {}
  for (const c of Object.keys(res)) {
    const fresh = linreg(TURNS, TURNS.map((t) => res[c][`fresh ${t}`].p50))
    const hist = linreg(TURNS, TURNS.map((t) => res[c][`history ${t}`].p50))
    out[c] = { points: res[c], perTurnFresh: fresh.slope, perTurnHistory: hist.slope }
    rows.push([label[c], ...TURNS.map((t) => fmt(res[c][`fresh ${t}`].p50)), ...TURNS.map((t) => fmt(res[c][`history ${t}`].p50)), fmt(fresh.slope), fmt(hist.slope), fmt(hist.slope - fresh.slope)])
  }
  table(rows, ["p50 per run", ...TURNS.map((t) => `${t} call${t > 1 ? "s" : ""}`), ...TURNS.map((t) => `${t} + hist`), "per turn", "per turn + hist", "history/turn"])
  console.log(`  history: ${history.n} messages × ${history.size} B; a turn = one model call (+ one tool call past the first)`)
  results.scenarios.history = { history, contenders: out }
}

// ---------------------------------------------------------------------------------------------
// Scenario 5: streaming

/** Whether the package measured has a feature (the glue names its exports). */
const glueHas = (re) => re.test(readFileSync(path.join(pkgDir, "web/toolnexus.js"), "utf8"))

async function scenarioStream() {
  head("Scenario 5 — streaming (in-process fake fetch, one SSE event per chunk)")
  const names = glueHas(/streamEvents/) ? contenders : contenders.filter((c) => c !== "toolnexus")
  if (names.length !== contenders.length) console.log("  toolnexus-wasm: not yet available (the package measured has no Client.stream)")
  const deltas = flags.smoke ? 50 : 10000
  const chunks = flags.smoke ? 20 : 2000
  const points = [
    { id: `d${deltas}`, units: deltas, warmup: n(1, 1), iters: n(5, 2) },
    { id: `c${chunks}`, units: chunks, warmup: n(1, 1), iters: n(5, 2) },
  ]
  const per = Object.fromEntries(names.map((c) => [c, []]))
  const jobs = []
  for (let r = 0; r < repeats; r++) {
    for (const c of orderOf(names, r)) jobs.push(async () => {
      const res = await child({ contender: c, points }, `scenario 5 ${c} (repeat ${r + 1})`, path.join(here, "lib/stream.mjs"))
      if (res) per[c].push(res.points)
    })
  }
  await schedule(jobs)
  const out = {}
  const rows = []
  for (const c of names) {
    if (!per[c].length) continue
    out[c] = points.map((p, i) => ({ id: p.id, units: p.units, textEvents: per[c][0][i].textEvents, ...combine(per[c].map((rep) => rep[i])) }))
    const [d, ch] = out[c]
    rows.push([label[c], fmt(d.p50), fmt(d.p50 / d.units), String(d.textEvents), fmt(ch.p50), fmt(ch.p50 / ch.units)])
  }
  table(rows, ["contender", `${deltas} text deltas: run`, "µs/delta", "text events seen", `${chunks} argument chunks + answer: run`, "µs/chunk"])
  const floor = out.bare
  if (floor) {
    for (const c of Object.keys(out)) {
      if (c === "bare") continue
      console.log(`  ${label[c]}: ${fmt((out[c][0].p50 - floor[0].p50) / deltas)} per text delta and ${fmt((out[c][1].p50 - floor[1].p50) / chunks)} per argument chunk above the floor`)
    }
  }
  results.scenarios.stream = out
}

// ---------------------------------------------------------------------------------------------
// Scenario 7: metrics

async function scenarioMetrics() {
  head("Scenario 7 — metrics(): Prometheus text with ~10,000 series (toolnexus-wasm only: the peers have no metrics())")
  if (!contenders.includes("toolnexus")) return
  if (!glueHas(/\bmetrics\(/)) {
    console.log("  not yet available: the package measured has no metrics()")
    results.scenarios.metrics = { notYetAvailable: true }
    return
  }
  const reps = []
  await schedule(Array.from({ length: repeats }, (_, r) => async () => {
    const res = await child({ series: flags.smoke ? 300 : 10000, warmup: n(5, 1), iters: n(50, 2), refWarmup: n(300, 2), refIters: n(2000, 4) }, `scenario 7 (repeat ${r + 1})`, path.join(here, "lib/metrics.mjs"))
    if (res) reps.push(res)
  }))
  if (!reps.length) return
  const render = combine(reps.map((x) => x.render))
  const off = combine(reps.map((x) => x.ref["no onMetric"]))
  const on = combine(reps.map((x) => x.ref.onMetric))
  console.log(`  ${reps[0].series} series (${reps[0].tools} tools called once each, ${(reps[0].bytes / 1024).toFixed(0)} KiB of text): metrics() p50 ${fmt(render.p50)}, p95 ${fmt(render.p95)} (min–max of p50 over repeats ${spread(render)})`)
  console.log(`  reference shape: p50 ${fmt(off.p50)} without onMetric, ${fmt(on.p50)} with a no-op onMetric (${on.p50 >= off.p50 ? "+" : ""}${fmt(on.p50 - off.p50)})`)
  results.scenarios.metrics = { series: reps[0].series, tools: reps[0].tools, bytes: reps[0].bytes, render, ref: { off, on } }
}

// ---------------------------------------------------------------------------------------------
// Scenario 8: cold start

function sizes(build = ".") {
  // The same files and settings as scripts/size.mjs (what a browser downloads), for the full
  // build (".") or the lean one ("core").
  const wasm = path.join(build, "web/toolnexus_bg.wasm")
  // Since the fourteenth round the entry is one bundled script (the glue, its snippet, the
  // idioms, the stores and httpTool's options half in it): that and the module.
  const entry = readFileSync(path.join(pkgDir, build, "index.js"), "utf8")
  const bundled = !/["']\.\/web\/toolnexus\.js["']/.test(entry)
  const files = bundled ? [path.join(build, "index.js"), wasm] : [path.join(build, "index.js"), "register.js", path.join(build, "web/toolnexus.js"), wasm]
  // Before: the browser stores, plain JavaScript beside the module since the twelfth round.
  if (!bundled && existsSync(path.join(pkgDir, "stores.js"))) files.splice(2, 0, "stores.js")
  // Before: the glue's JS snippets (web/snippets/<crate-hash>/src/js/*.js), which it imports.
  const snippets = path.join(pkgDir, build, "web", "snippets")
  if (!bundled && existsSync(snippets)) {
    for (const entry of readdirSync(snippets, { recursive: true })) {
      if (String(entry).endsWith(".js")) files.push(path.join(build, "web", "snippets", String(entry)))
    }
  }
  const total = { raw: 0, gzip: 0, brotli: 0 }
  const per = {}
  for (const f of files) {
    const bytes = readFileSync(path.join(pkgDir, f))
    const s = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length }
    per[f] = s
    for (const k of Object.keys(total)) total[k] += s[k]
  }
  return { files: per, total }
}

async function timeToLine(args) {
  const t0 = process.hrtime.bigint()
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    let buf = ""
    let ms = null
    proc.stdout.on("data", (d) => {
      buf += d
      if (ms === null && buf.includes("\n")) ms = Number(process.hrtime.bigint() - t0) / 1e6
    })
    proc.on("close", (code) => resolve({ ms, code, line: buf.split("\n")[0] }))
  })
}

async function scenarioCold() {
  head("Scenario 8 — cold start")
  const kib = (b) => `${(b / 1024).toFixed(1)} KiB`
  const builds = { full: ".", core: "core" }
  const s = sizes(builds.full)
  const lean = sizes(builds.core)
  for (const [title, x] of [["toolnexus-wasm", s], ["toolnexus-wasm/core (lean build)", lean]]) {
    console.log(`  what a browser downloads importing ${title} (scripts/size.mjs's files: raw / gzip -9 / brotli -q 11):`)
    for (const [f, y] of Object.entries(x.files)) console.log(`    ${pad(f.length > 26 ? "…" + f.slice(-25) : f, 26)} ${lpad(kib(y.raw), 10)} ${lpad(kib(y.gzip), 10)} ${lpad(kib(y.brotli), 10)}`)
    console.log(`    ${pad("total", 26)} ${lpad(kib(x.total.raw), 10)} ${lpad(kib(x.total.gzip), 10)} ${lpad(kib(x.total.brotli), 10)}  (${x.total.gzip} B gzip)`)
  }
  const samples = n(10, 1)
  const wasm = []
  const leanWasm = []
  await schedule(Array.from({ length: samples }, () => [[wasm, builds.full], [leanWasm, builds.core]]).flat().map(([into, build]) => async () => {
    const res = parseResult(await runNode([path.join(here, "lib/cold.mjs"), "wasm", build]), `cold: compile + instantiate (${build})`)
    if (res) into.push(res)
  }))
  for (const [title, list] of [["toolnexus-wasm", wasm], ["toolnexus-wasm/core", leanWasm]]) {
    const med = (k) => median(list.map((w) => w[k]))
    if (list.length) {
      console.log(`  ${title}, Node, fresh process (median of ${list.length}): new WebAssembly.Module ${fmt(med("compileUs"))}, glue import ${fmt(med("glueImportUs"))}, instantiate (initSync) ${fmt(med("instantiateUs"))}, first call ${fmt(med("firstCallUs"))}; WebAssembly.compile (async, same bytes, 2nd time) ${fmt(med("asyncCompileUs"))}`)
    }
  }
  // process start → first answer, interleaved, plus an empty node process for the floor
  const names = ["none", ...contenders, ...(contenders.includes("toolnexus") ? ["toolnexus-core"] : [])]
  const first = Object.fromEntries(names.map((c) => [c, []]))
  const imports = Object.fromEntries(names.filter((c) => c !== "none").map((c) => [c, []]))
  const jobs = []
  for (let i = 0; i < samples; i++) {
    for (const c of orderOf(names, i)) {
      jobs.push(async () => {
        const r = await timeToLine([path.join(here, "lib/cold.mjs"), "first", c])
        if (r.code !== 0 || !r.line.startsWith("answer ")) {
          failures.push({ what: `cold: first answer ${c}`, mismatch: r.code === 3, error: `exit ${r.code}: ${r.line}` })
          console.log(`  ✗ cold: first answer ${c}: exit ${r.code} ${r.line}`)
        } else first[c].push(r.ms * 1000)
      })
      if (c !== "none" && !flags.smoke) {
        jobs.push(async () => {
          const imp = parseResult(await runNode([path.join(here, "lib/cold.mjs"), "import", c]), `cold: import ${c}`)
          if (imp) imports[c].push(imp.importUs)
        })
      }
    }
  }
  await schedule(jobs)
  const rows = names.filter((c) => first[c].length).map((c) => [c === "none" ? "node, empty script" : label[c], fmt(median(first[c])), c === "none" ? "—" : `+${fmt(median(first[c]) - median(first.none))}`, c === "none" || !imports[c].length ? "—" : fmt(median(imports[c]))])
  table(rows, [`process start → first answer (median of ${samples})`, "wall", "above empty node", "import of the adapter"])
  results.scenarios.cold = { sizes: s, coreSizes: lean, wasm, coreWasm: leanWasm, firstAnswerUs: first, importUs: imports }
}

// ---------------------------------------------------------------------------------------------
// Crossings: how often a toolnexus run crosses the JS↔wasm boundary

async function scenarioCrossings() {
  if (!contenders.includes("toolnexus")) return
  head("JS ↔ wasm crossings per toolnexus-wasm run (instrumented process; counts only, no timing)")
  const out = {}
  for (const id of flags.smoke ? ["k2t1"] : ["k2t1", "k8t1", "k1t4"]) {
    const res = parseResult(await runNode([path.join(here, "lib/crossings.mjs"), JSON.stringify({ id, warmup: n(20, 1), runs: n(200, 2) })]), `crossings ${id}`)
    if (!res) continue
    out[id] = res
    const top = Object.entries(res.imports).slice(0, 8).map(([k, v]) => `${k} ${v}`).join(", ")
    console.log(`  ${id}: ${res.wasmToJsPerRun.toFixed(0)} wasm→JS calls, ${res.jsToWasmPerRun.toFixed(0)} JS→wasm calls; ${res.bytesJsToWasmPerRun.toFixed(0)} B copied into wasm, ${res.bytesJsonParsePerRun.toFixed(0)} B of JSON parsed out of wasm`)
    console.log(`    most frequent imports: ${top}`)
  }
  results.scenarios.crossings = out
}

// ---------------------------------------------------------------------------------------------
// Split: scenario 1's core loop natively, inside wasm, and the run through the JS API

async function scenarioSplit() {
  if (!contenders.includes("toolnexus")) return
  head("Where scenario 1's time goes: the core loop natively, the same loop inside wasm, the run through the JS API (HEAD built with bench-core)")
  const args = ["--expose-gc", path.join(here, "tools/core-split.mjs"), "--json", ...(flags.smoke ? ["--smoke"] : [])]
  const out = await runNode(args, { timeoutMs: 1_200_000 })
  const res = parseResult(out, "split")
  if (!res) return
  for (const line of out.stdout.split("\n").filter((l) => l.startsWith("  "))) console.log(line)
  results.scenarios.split = res
}

// ---------------------------------------------------------------------------------------------
// Browser variant of scenario 1 (Chromium through playwright-core)

async function scenarioBrowser() {
  head("Scenario 1 in Chromium (playwright-core, /usr/bin/chromium headless): batches of 100 runs, in-page fake fetch")
  const { runBrowser } = await import("./lib/browser.mjs")
  try {
    const res = await runBrowser({ root, pkgDir, repeats, batches: n(10, 1), batch: flags.smoke ? 3 : 100, warmup: n(300, 2), smoke: flags.smoke })
    if (res.skipped) {
      console.log(`  skipped: ${res.skipped}`)
      results.scenarios.browser = res
      return
    }
    for (const m of res.mismatches ?? []) failures.push({ what: "browser", mismatch: true, error: m })
    const floorP50 = res.contenders.bare?.p50 ?? NaN
    const rows = Object.entries(res.contenders).map(([c, x]) => [label[c] ?? c, fmt(x.p50), fmt(x.p50Spread[0]) + " – " + fmt(x.p50Spread[1]), c === "bare" ? "—" : `+${fmt(x.p50 - floorP50)}`])
    table(rows, ["contender (µs per run = batch time / 100)", "median batch p50", "min–max over repeats", "above floor"])
    const tn = res.contenders.toolnexus
    for (const peer of ["vercel", "agents"]) if (tn && res.contenders[peer]) console.log(`  toolnexus-wasm / ${label[peer]}: ${ratio(tn.p50, res.contenders[peer].p50)}`)
    console.log(`  ${res.chromium}; ${res.batches} batches of ${res.batch} runs per page, ${res.contenders.bare?.repeats ?? 0} fresh pages per contender`)
    if (res.wasm) console.log(`  Chromium: WebAssembly.compile ${fmt(res.wasm.compileUs)}, instantiate ${fmt(res.wasm.instantiateUs)} (median of ${res.wasm.samples} in-page samples, performance.now() clock)`)
    if (res.notes) for (const note of res.notes) console.log(`  note: ${note}`)
    results.scenarios.browser = res
  } catch (error) {
    failures.push({ what: "browser", mismatch: false, error: String(error?.stack ?? error) })
    console.log(`  ✗ browser: ${error?.message ?? error}`)
  }
}

// ---------------------------------------------------------------------------------------------

/** The module Node loads, when the package has a build of its own for Node (the speed build). */
function nodeWasm() {
  const file = path.join(pkgDir, "node/toolnexus_bg.wasm")
  if (!existsSync(path.join(pkgDir, "node-esm/toolnexus.js")) || !existsSync(file)) return {}
  const wasm = readFileSync(file)
  return { nodeWasmSha256: createHash("sha256").update(wasm).digest("hex").slice(0, 16), nodeWasmBytes: wasm.length }
}

function environment() {
  const git = (args) => spawnSync("git", args, { cwd: root, encoding: "utf8" }).stdout?.trim() ?? ""
  const version = (p) => {
    try {
      return JSON.parse(readFileSync(path.join(here, "node_modules", p, "package.json"), "utf8")).version
    } catch {
      return null
    }
  }
  const wasmFile = path.join(pkgDir, "web/toolnexus_bg.wasm")
  const wasm = readFileSync(wasmFile)
  return {
    date: new Date().toISOString(),
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? "unknown",
    cores: os.cpus().length,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadavgStart: os.loadavg(),
    commit: git(["rev-parse", "--short", "HEAD"]),
    dirty: git(["status", "--porcelain", "--", "src", "pkg", "Cargo.toml"]) !== "",
    wasmSha256: createHash("sha256").update(wasm).digest("hex").slice(0, 16),
    wasmBytes: wasm.length,
    ...nodeWasm(),
    pkg: path.relative(root, sourcePkg),
    wasmBuilt: statSync(path.join(sourcePkg, "web/toolnexus_bg.wasm")).mtime.toISOString(),
    versions: {
      "toolnexus-wasm": JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")).version,
      ai: version("ai"),
      "@ai-sdk/openai": version("@ai-sdk/openai"),
      "@openai/agents": version("@openai/agents"),
      openai: version("openai"),
    },
    flags: process.argv.slice(2),
    repeats,
  }
}

const env = environment()
results.environment = env
const started = Date.now()
console.log(`# toolnexus-wasm bench${flags.smoke ? " (smoke: checks only, the timings mean nothing)" : ""}`)
console.log(`  measured on this machine: ${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.platform}, Node ${env.node}; load average at start ${env.loadavgStart.map((x) => x.toFixed(2)).join(" ")}`)
console.log(`  ${env.date}; repo ${env.commit}${env.dirty ? " (with uncommitted changes under src/ or pkg/)" : ""}; measuring a snapshot of ${env.pkg}/: wasm ${env.wasmBytes} B sha256:${env.wasmSha256}, built ${env.wasmBuilt}`)
console.log(`  contenders: ${contenders.map((c) => label[c]).join(", ")}; ${Object.entries(env.versions).map(([k, v]) => `${k} ${v}`).join(", ")}`)
console.log(`  every process is fresh; contenders interleaved A B C … C B A across ${repeats} repeat${repeats > 1 ? "s" : ""}; warm-up runs before counting`)

/** --smoke only: a contender that corrupts one tool result must be caught by the checks. */
async function negativeControl() {
  head("Negative control: the checks catch a wrong answer")
  const out = await runNode(["--expose-gc", CHILD, JSON.stringify({ kind: "loop", contender: "broken", transport: "fake", base: "http://fake.invalid", points: [{ id: "k2t1", warmup: 0, iters: 1 }] })])
  const line = out.stdout.split("\n").find((l) => l.startsWith("@@RESULT "))
  const result = line ? JSON.parse(line.slice(9)) : null
  if (out.code === 3 && result?.mismatch) console.log(`  ✓ a corrupted tool result was rejected: ${result.error.split("\n")[0]}`)
  else {
    failures.push({ what: "negative control", mismatch: false, error: `a corrupted tool result was not rejected (exit ${out.code})` })
    console.log(`  ✗ a corrupted tool result was not rejected (exit ${out.code})`)
  }
}

const steps = { ref: scenarioRef, scale: scenarioScale, tools: scenarioTools, throughput: scenarioThroughput, history: scenarioHistory, stream: scenarioStream, metrics: scenarioMetrics, cold: scenarioCold, crossings: scenarioCrossings, split: scenarioSplit, browser: scenarioBrowser }
if (flags.smoke) await negativeControl()
const timings = {}
for (const s of SCENARIOS) {
  if (!want(s)) continue
  const t = Date.now()
  await steps[s]()
  timings[s] = (Date.now() - t) / 1000
}
env.scenarioSeconds = timings
stopServer()

head("Not measured")
console.log("  the mock server (HTTP transport) serves non-streaming responses only: scenario 5 runs over the in-process fake fetch")
console.log("  OpenAI Agents JS is not run in Chromium (no browser build is wired into the page); compile + instantiate in Chromium is measured for toolnexus-wasm only")

env.loadavgEnd = os.loadavg()
env.contention = contention
if (!flags.smoke && contention.runs) {
  console.log(`\n  machine sharing: waited ${contention.waitedSeconds.toFixed(0)} s for quiet; ${contention.busyRuns} of ${contention.runs} measured processes ran while other processes used > 15% of the CPUs (worst ${(100 * contention.worstOthers).toFixed(0)}%)`)
}
env.seconds = (Date.now() - started) / 1000
results.failures = failures
const outFile = flags.out ?? path.join(here, "results", flags.smoke ? "smoke.json" : `bench-${env.date.replace(/[:.]/g, "-")}.json`)
mkdirSync(path.dirname(outFile), { recursive: true })
writeFileSync(outFile, JSON.stringify(results, null, 2))
console.log(`\n  ${env.seconds.toFixed(0)} s (${Object.entries(timings).map(([k, v]) => `${k} ${v.toFixed(0)} s`).join(", ")}); load average at end ${env.loadavgEnd.map((x) => x.toFixed(2)).join(" ")}; results: ${path.relative(process.cwd(), outFile)}`)
if (failures.length) {
  console.log(`\n${failures.length} failure${failures.length > 1 ? "s" : ""}${failures.some((f) => f.mismatch) ? " (a final text or tool-call count did not match)" : ""}:`)
  for (const f of failures) console.log(`  - ${f.what}: ${f.error.split("\n")[0]}`)
  process.exit(1)
}
