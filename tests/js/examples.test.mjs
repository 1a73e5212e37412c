// Every example in examples/ runs to completion against the built package (layer 5 type-checks
// them; this runs them), each in its own node process, and prints what its comments promise. A
// server example never exits: it is listed here and run by its own test file.
// The TypeScript ones are compiled first by examples/tsconfig.json into target/examples/.
import { test } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)
const dir = fileURLToPath(new URL("../../examples/", import.meta.url))
const compiled = fileURLToPath(new URL("../../target/examples/", import.meta.url))
const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url))

/** example → a line its output must contain. */
const promises = {
  "durable-file-store.ts": /^done: The refund tool says: refunded order A-1001/m,
  "node-agent.mjs": /^The transfer says: sent 25 EUR$/m,
  "node-commonjs.cjs": /^5$/m,
  "node-core-agent.mjs": /^createToolkit: "skillsDir" needs the full build/m,
  "node-toolkit.ts": /^suspended on: Send 5\?$/m,
  "typed-agent.ts": /^Done: 20 EUR is 22\.00 USD\nfailed: network, retryable: true$/m,
}
/** Servers, which never exit: each is run by its own test file. */
const servers = {
  "translate-proxy.mjs": "translate-proxy.test.mjs",
}
const files = ["tsconfig.json", ...Object.keys(promises), ...Object.keys(servers)]

test("every example is listed here", () => {
  assert.deepEqual(readdirSync(dir).sort(), files.sort())
})

test("every server example has its test file", () => {
  for (const [file, testFile] of Object.entries(servers)) {
    assert.ok(existsSync(fileURLToPath(new URL(testFile, import.meta.url))), `${file}: no tests/js/${testFile}`)
  }
})

test("the TypeScript examples compile", async () => {
  await run(process.execPath, [tsc, "-p", dir], { timeout: 120_000 })
})

for (const [file, expected] of Object.entries(promises)) {
  test(`examples/${file} runs and prints what it promises`, async () => {
    const script = file.endsWith(".ts") ? compiled + file.replace(/\.ts$/, ".js") : dir + file
    const { stdout } = await run(process.execPath, [script], { cwd: dir, timeout: 30_000 })
    assert.match(stdout, expected)
  })
}
