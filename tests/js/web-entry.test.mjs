// toolnexus-wasm/web and toolnexus-wasm/core/web: the entries that do not instantiate the
// module on import (a page serving the .wasm from a URL of its choosing; here, from its bytes).
// The browser side, with a URL, is tests/e2e/web-entry.test.mjs.
import { test } from "node:test"
import assert from "node:assert/strict"
import { readFileSync } from "node:fs"
import * as full from "toolnexus-wasm"

const wasm = (build) => readFileSync(new URL(`../../pkg/${build}web/toolnexus_bg.wasm`, import.meta.url))

test("toolnexus-wasm/web: every call refuses clearly until initializeWasm, then the API works", async () => {
  const m = await import("toolnexus-wasm/web")
  assert.deepEqual(Object.keys(m).sort(), Object.keys(full).sort(), "the same API as the other entries")
  const refused = { name: "ToolnexusError", code: "unsupported" }
  assert.throws(() => m.createToolkit(), { ...refused, message: /^createToolkit: the module is not instantiated yet: `await initializeWasm\(url\)` first/ })
  assert.throws(() => m.pending({ kind: "approval", prompt: "ok?" }), refused)
  assert.throws(() => m.createInProcessClient({ model: "m", generate: () => ({ content: "x" }) }), refused)
  assert.equal(m.SKILLS_PROMPT_PREAMBLE, "")

  await m.initializeWasm(wasm(""))
  await m.initializeWasm(new Uint8Array([0, 1, 2])) // once instantiated, later calls do nothing
  assert.equal(m.SKILLS_PROMPT_PREAMBLE, full.SKILLS_PROMPT_PREAMBLE)
  const toolkit = await m.createToolkit({ builtins: false, extraTools: [m.defineTool({ name: "ping", run: () => "pong" })] })
  assert.deepEqual(await toolkit.register().execute("ping", {}), { output: "pong", isError: false })
  assert.ok(toolkit instanceof m.Toolkit)
  assert.ok(!(toolkit instanceof full.Toolkit), "a module instance of its own")
})

test("toolnexus-wasm/core/web: the lean build, instantiated from its bytes", async () => {
  const m = await import("toolnexus-wasm/core/web")
  assert.throws(() => m.defineTool({ name: "x", run: () => "x" }), { code: "unsupported" })
  await m.initializeWasm(wasm("core/"))
  const t = m.defineTool({ name: "x", run: () => "x" })
  assert.deepEqual(await t.execute({}), { output: "x", isError: false })
  assert.equal(typeof m.loadMcp, "undefined")
})

test("initializeWasm on an entry that instantiates on import resolves at once", async () => {
  assert.equal(await full.initializeWasm("/never-fetched.wasm"), undefined)
})

test("initializeWasm with bytes that are not a module rejects, and a later good call still works", async () => {
  // A fresh copy of the entry (a query makes it a module instance of its own).
  const m = await import(new URL("../../pkg/web.js?bad-bytes", import.meta.url).href)
  await assert.rejects(m.initializeWasm(new Uint8Array([1, 2, 3])), WebAssembly.CompileError)
  assert.throws(() => m.defineTool({ name: "x", run: () => "x" }), { code: "unsupported" })
  await m.initializeWasm(wasm(""))
  assert.equal(m.sanitize("a b"), "a_b")
})
