// Every example in examples/ runs to completion against the built package (layer 5 type-checks
// them; this runs them), each in its own node process, and prints what its comments promise.
import { test } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)
const dir = fileURLToPath(new URL("../../examples/", import.meta.url))

/** example → a line its output must contain. */
const promises = {
  "durable-file-store.mjs": /^done: The refund tool says: refunded order A-1001/m,
  "node-agent.mjs": /^The transfer says: sent 25 EUR$/m,
  "node-commonjs.cjs": /^5$/m,
  "node-core-agent.mjs": /^createToolkit: "skillsDir" needs the full build/m,
  "node-toolkit.mjs": /^suspended on: Send 5\?$/m,
}

test("every example is listed here", () => {
  assert.deepEqual(readdirSync(dir).sort(), Object.keys(promises).sort())
})

for (const [file, expected] of Object.entries(promises)) {
  test(`examples/${file} runs and prints what it promises`, async () => {
    const { stdout } = await run(process.execPath, [dir + file], { cwd: dir, timeout: 30_000 })
    assert.match(stdout, expected)
  })
}
