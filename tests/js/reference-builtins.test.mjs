// createBuiltinTools and builtinsEnabled (SPEC §4A), as the reference port exports them: the
// built-in tools without a toolkit, and the toggle's precedence.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createBuiltinTools, builtinsEnabled, MemoryFileSystem, Tool } from "../../pkg/node.mjs"
import { assertCode, thrown } from "./support/helpers.mjs"

test("builtinsEnabled: on by default, a boolean is itself, disabled wins, then enabled: false", () => {
  assert.equal(builtinsEnabled(undefined), true)
  assert.equal(builtinsEnabled(), true)
  assert.equal(builtinsEnabled(null), true)
  assert.equal(builtinsEnabled(true), true)
  assert.equal(builtinsEnabled(false), false)
  assert.equal(builtinsEnabled({}), true)
  assert.equal(builtinsEnabled({ enabled: false }), false)
  assert.equal(builtinsEnabled({ disabled: true }), false)
  assert.equal(builtinsEnabled({ enabled: true, disabled: true }), false)
  assert.equal(builtinsEnabled({ tools: { bash: false } }), true, "a tools map turns tools off, not the source")
  assertCode(thrown(() => builtinsEnabled("no")), "invalid_options")
  assertCode(thrown(() => builtinsEnabled(0)), "invalid_options")
})

test("createBuiltinTools: the built-ins as Tools, on the filesystem given", async () => {
  const names = createBuiltinTools().map((t) => t.name)
  for (const name of ["read", "write", "edit", "grep", "glob", "webfetch", "todowrite"]) assert.ok(names.includes(name), name)
  assert.ok(!names.includes("bash"), "no bash without exec")
  const fs = new MemoryFileSystem({ "/w/a.txt": "alpha\n" })
  const tools = createBuiltinTools({ fs, exec: "node" })
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]))
  assert.ok(byName.bash, "bash with exec")
  assert.ok(byName.read instanceof Tool)
  assert.equal(byName.read.source, "builtin")
  const read = await byName.read.execute({ path: "/w/a.txt" })
  assert.equal(read.isError, false)
  assert.match(read.output, /alpha/)
  const wrote = await byName.write.execute({ path: "/w/b.txt", content: "beta" })
  assert.equal(wrote.isError, false)
  assert.equal(await fs.readFile("/w/b.txt"), "beta")
  const ran = await byName.bash.execute({ command: "printf 'hello-bash'" })
  assert.equal(ran.output, "hello-bash")
})

test("createBuiltinTools: a bad fs or exec throws with a code", () => {
  assertCode(thrown(() => createBuiltinTools({ fs: 5 })), "invalid_options")
  assertCode(thrown(() => createBuiltinTools({ exec: 5 })), "invalid_options")
})
