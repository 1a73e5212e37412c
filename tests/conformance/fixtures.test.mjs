// The conformance layer's index: reads the reference's shared fixtures from ../shared/conformance
// when they sit beside the project, and skips (saying why) when they do not. Every fixture maps
// either to the tests that check it (host tests in layer 2, JS tests in layer 4: each must exist
// and read that fixture, so this index cannot go stale silently) or to the part of the contract
// this version does not build yet, reported skipped.
import { test } from "node:test"
import assert from "node:assert/strict"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import path from "node:path"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const fixtures = path.resolve(root, "../shared/conformance")

/** fixture → the test files that read and check it. */
const checkedBy = {
  "agent-hooks": ["tests/agents_conformance.rs"],
  "compaction": ["tests/js/compaction.test.mjs"],
  "metrics": ["tests/metrics_conformance.rs"],
  "mcp.json": ["tests/mcp_config.rs"],
  "persona-agent": ["tests/home.rs"],
  "skills": ["tests/conformance_skills.rs", "tests/js/skills.test.mjs"],
  "subagent-budgets": ["tests/agents_conformance.rs", "tests/js/agents-conformance.test.mjs"],
  "subagent-durable-resume": ["tests/agents_conformance.rs"],
  "subagent-escalation": ["tests/agents_conformance.rs"],
  "subagent-fanout": ["tests/agents_conformance.rs", "tests/js/agents-conformance.test.mjs"],
  "subagent-lifecycle": ["tests/agents_conformance.rs", "tests/js/agents-conformance.test.mjs"],
}

/** fixture → the part of the contract that would check it, not in this version (none today). */
const notBuilt = {}

if (!existsSync(fixtures)) {
  test("conformance fixtures", { skip: `${fixtures} is absent: the conformance layer needs ../shared/conformance beside the project` }, () => {})
} else {
  for (const name of readdirSync(fixtures).filter((n) => n !== "README.md").sort()) {
    const files = checkedBy[name]
    if (files) {
      test(`conformance fixture ${name}: checked by ${files.join(" and ")}`, () => {
        for (const file of files) {
          const text = readFileSync(path.join(root, file), "utf8")
          assert.ok(text.includes(`shared/conformance/${name}`), `${file} no longer reads shared/conformance/${name}`)
        }
      })
      continue
    }
    const owner = notBuilt[name]
    test(`conformance fixture ${name}`, { skip: owner && `checked by ${owner}, which this version does not build yet` }, () => {
      assert.fail(`no test checks the fixture ${name} and no unbuilt part of the contract claims it: map it in tests/conformance/fixtures.test.mjs`)
    })
  }
}
