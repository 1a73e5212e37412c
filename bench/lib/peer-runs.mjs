// What the per-area peer benches (subagents.mjs, compaction.mjs, serving.mjs) share: flags, one
// measurement per fresh `node --expose-gc` process, interleaved orders, the machine line and
// the package versions of each row.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readFileSync, statSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { prepareReference } from "../tools/reference-port.mjs"
import { pkgUrl } from "../contenders/pkg.mjs"

const here = path.dirname(fileURLToPath(import.meta.url))
export const root = path.resolve(here, "..", "..")

/** `--smoke`, `--repeats=N`, `--quick` and `--child=<json>` (a child's task). */
export function parseFlags(argv) {
  const flags = { smoke: false, quick: false, repeats: null, child: null, only: null }
  for (const arg of argv) {
    const [key, ...rest] = arg.replace(/^--/, "").split("=")
    const value = rest.join("=")
    if (key === "smoke") flags.smoke = true
    else if (key === "quick") flags.quick = true
    else if (key === "repeats") flags.repeats = Number(value)
    else if (key === "child") flags.child = JSON.parse(Buffer.from(value, "base64url").toString("utf8"))
    else if (key === "only") flags.only = value.split(",")
    else if (key === "ticks") flags.ticks = Number(value)
    else throw new Error(`unknown flag ${arg} (flags: --smoke --quick --repeats=N --only=a,b --ticks=N)`)
  }
  flags.repeats ??= flags.smoke ? 1 : 3
  return flags
}

/** Runs `script` in a fresh `node --expose-gc` process with `task`; its last stdout line is JSON. */
export function inChild(script, task) {
  const arg = Buffer.from(JSON.stringify(task)).toString("base64url")
  const r = spawnSync(process.execPath, ["--expose-gc", script, `--child=${arg}`], {
    encoding: "utf8",
    maxBuffer: 1 << 26,
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  })
  if (r.status !== 0) throw new Error(`${path.basename(script)} child ${JSON.stringify(task)} exited ${r.status}\n${r.stdout}`)
  const lines = r.stdout.trim().split("\n")
  return JSON.parse(lines.at(-1))
}

/** Repeat r's order: A B C, C B A, A B C, … (interleaved, so drift hits every contender alike). */
export function orderFor(names, round) {
  return round % 2 === 0 ? [...names] : [...names].reverse()
}

/** One process's samples (µs) → p50 / min. */
export function p50(samples) {
  const s = Float64Array.from(samples).sort()
  const q = (s.length - 1) / 2
  return (s[Math.floor(q)] + s[Math.ceil(q)]) / 2
}

/**
 * `warmup` untimed calls of `check`, a `gc()`, then `iters` calls each timed alone; `between`
 * (optional) runs after every call, outside the timing. → {p50, min} in µs and the last result.
 */
export async function timeRuns(check, { warmup, iters, between }) {
  let last
  for (let i = 0; i < warmup; i++) {
    last = await check()
    if (between) await between()
  }
  globalThis.gc?.()
  const samples = []
  for (let i = 0; i < iters; i++) {
    const t = performance.now()
    last = await check()
    samples.push((performance.now() - t) * 1000)
    if (between) await between()
  }
  return { p50: p50(samples), min: Math.min(...samples), last }
}

export function median(xs) {
  return p50(xs)
}

/**
 * The package versions a row names: this package (pkg/, or TOOLNEXUS_PKG), the reference port
 * (prepared here: a missing mirror or build ends the script with the reason), a peer SDK.
 */
export function versions() {
  try {
    return versionsOrThrow()
  } catch (e) {
    console.error(`bench: ${e.message}`)
    process.exit(2)
  }
}

function versionsOrThrow() {
  const wasm = fileURLToPath(pkgUrl("node/toolnexus_bg.wasm"))
  if (!existsSync(wasm)) throw new Error(`${wasm} is missing: build the package first (npm run build)`)
  const pkg = JSON.parse(readFileSync(fileURLToPath(pkgUrl("package.json")), "utf8"))
  const ref = prepareReference({ quiet: true })
  const dep = (name, from) => {
    const file = path.join(from, "node_modules", ...name.split("/"), "package.json")
    return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : null
  }
  // pkg/ may be a copy of another worktree's build: name it by its module's hash and build time.
  const sha = createHash("sha256").update(readFileSync(wasm)).digest("hex").slice(0, 12)
  return {
    toolnexusWasm: `${pkg.version} (pkg/node/toolnexus_bg.wasm sha256 ${sha}…, ${statSync(wasm).mtime.toISOString().slice(0, 16)}Z)`,
    reference: `toolnexus ${ref.version} (${ref.commit.slice(0, 7)})`,
    mcpSdk: dep("@modelcontextprotocol/sdk", path.join(root, "bench")) ?? dep("@modelcontextprotocol/sdk", root),
    referenceMcpSdk: dep("@modelcontextprotocol/sdk", ref.dir),
  }
}

/** The machine line every row is printed under. */
export function machineLine() {
  const cpu = os.cpus()[0]?.model ?? "unknown"
  return `${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform}, Node ${process.version}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`
}

export const fmtUs = (us) => (us >= 10000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(us >= 100 ? 0 : 1)} µs`)
export const ratio = (a, b) => `${(a / b).toFixed(2)}x`
