// The conformance layer: reads the reference's shared fixtures from ../shared/conformance when
// they sit beside the project, and skips (saying why) when they do not. Each fixture folder maps
// to the feature that checks it; a fixture whose feature has not landed yet is reported skipped.
import { test } from "node:test"
import { existsSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import path from "node:path"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const fixtures = path.resolve(root, "../shared/conformance")

/** fixture → the test file that checks it, once that feature exists. */
const checkedBy = {
  "metrics": "issue 4 (onMetric and Prometheus text)",
  "mcp.json": "issue 6 (MCP config)",
  "agent-hooks": "issue 3 (hooks)",
  "compaction": "compaction (later)",
  "persona-agent": "personas (later)",
}

/** fixture → where it is checked, for features that have landed. */
const landed = {
  "skills": "tests/conformance_skills.rs and tests/js/skills.test.mjs (hello-world, byte-exact)",
}

if (!existsSync(fixtures)) {
  test("conformance fixtures", { skip: `${fixtures} is absent: the conformance layer needs ../shared/conformance beside the project` }, () => {})
} else {
  for (const name of readdirSync(fixtures).filter((n) => n !== "README.md").sort()) {
    if (landed[name]) {
      test(`conformance fixture ${name}: checked by ${landed[name]}`, () => {})
      continue
    }
    const owner = checkedBy[name] ?? (name.startsWith("subagent-") ? "sub-agents runtime (later)" : "unassigned")
    test(`conformance fixture ${name}`, { skip: `checked by ${owner}, which has not landed yet` }, () => {})
  }
}
