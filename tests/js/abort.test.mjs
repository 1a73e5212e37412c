// A tool that never settles cannot hang its caller: the call resolves when the signal aborts or
// the time budget passes; a bad ctx is refused before the tool runs; nothing keeps Node alive.
import { test } from "node:test"
import assert from "node:assert/strict"
import { spawn } from "node:child_process"
import { getEventListeners } from "node:events"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createToolkit, defineTool } from "../../pkg/node.mjs"

let calls = 0
const never = defineTool({ name: "never", run: () => { calls++; return new Promise(() => {}) } })
const fast = defineTool({ name: "fast", run: () => { calls++; return "quick" } })
const toolkit = await createToolkit({ extraTools: [never, fast] })
const later = (ms, f) => setTimeout(f, ms)

test("aborting the signal resolves a never-settling call with an error result", async () => {
  const controller = new AbortController()
  const call = toolkit.execute("never", {}, { signal: controller.signal })
  later(20, () => controller.abort(new Error("user cancelled")))
  assert.deepEqual(await call, { output: 'Tool "never" was aborted: user cancelled', isError: true })

  const plain = new AbortController()
  const call2 = toolkit.execute("never", {}, { signal: plain.signal })
  later(10, () => plain.abort())
  const r = await call2
  assert.equal(r.isError, true)
  assert.ok(r.output.startsWith('Tool "never" was aborted'), r.output)

  const stringReason = new AbortController()
  const call3 = never.execute({}, { signal: stringReason.signal })
  later(10, () => stringReason.abort("page closed"))
  assert.deepEqual(await call3, { output: 'Tool "never" was aborted: page closed', isError: true })
})

test("an already-aborted signal never runs the tool", async () => {
  const before = calls
  const controller = new AbortController()
  controller.abort(new Error("too late"))
  assert.deepEqual(await toolkit.execute("fast", {}, { signal: controller.signal }),
    { output: 'Tool "fast" was aborted: too late', isError: true })
  const r = await toolkit.execute("never", {}, { signal: AbortSignal.abort() })
  assert.equal(r.isError, true)
  assert.ok(r.output.startsWith('Tool "never" was aborted'), r.output)
  assert.deepEqual(await fast.execute({}, { signal: AbortSignal.abort("no") }), { output: 'Tool "fast" was aborted: no', isError: true })
  assert.equal(calls, before)
})

test("ctx.timeout resolves a never-settling call with a timed-out result", async () => {
  assert.deepEqual(await toolkit.execute("never", {}, { timeout: 30 }), { output: 'Tool "never" timed out after 30 ms', isError: true })
  assert.deepEqual(await toolkit.execute("never", {}, { timeout: 0 }), { output: 'Tool "never" timed out after 0 ms', isError: true })
  assert.deepEqual(await never.execute({}, { timeout: 10 }), { output: 'Tool "never" timed out after 10 ms', isError: true })
  const ref = { name: "ref_never", execute: () => new Promise(() => {}) }
  const kit = await createToolkit({ extraTools: [ref] })
  assert.deepEqual(await kit.execute("ref_never", {}, { timeout: 15 }), { output: 'Tool "ref_never" timed out after 15 ms', isError: true })
})

test("a fast tool beats its budget and its signal", async () => {
  const controller = new AbortController()
  assert.deepEqual(await toolkit.execute("fast", {}, { timeout: 60_000, signal: controller.signal }), { output: "quick", isError: false })
  controller.abort()
})

test("the abort listener is removed once the call settles", async () => {
  const controller = new AbortController()
  const slow = defineTool({ name: "slow", run: () => new Promise((resolve) => setTimeout(() => resolve("late"), 30)) })
  const call = slow.execute({}, { signal: controller.signal })
  await new Promise((resolve) => setTimeout(resolve, 5))
  assert.equal(getEventListeners(controller.signal, "abort").length, 1, "listening while the call runs")
  assert.deepEqual(await call, { output: "late", isError: false })
  assert.equal(getEventListeners(controller.signal, "abort").length, 0)
  await toolkit.execute("fast", {}, { signal: controller.signal })
  assert.equal(getEventListeners(controller.signal, "abort").length, 0)
})

test("a bad ctx is an error result and the tool does not run", async () => {
  const cases = [
    [{ signal: 5 }, "ctx.signal must be an AbortSignal"],
    [{ signal: {} }, "ctx.signal must be an AbortSignal"],
    [{ timeout: -1 }, "ctx.timeout must be a non-negative number of milliseconds"],
    [{ timeout: "5" }, "ctx.timeout must be a non-negative number of milliseconds"],
    [{ timeout: NaN }, "ctx.timeout must be a non-negative number of milliseconds"],
    [{ timeout: Infinity }, "ctx.timeout must be a non-negative number of milliseconds"],
    [{ answer: "x" }, "ctx.answer must be an Answer {id: string, ok: boolean, data?: object, reason?: string}"],
    [{ answer: { id: 1, ok: true } }, "ctx.answer must be an Answer {id: string, ok: boolean, data?: object, reason?: string}"],
    [{ answer: { id: "a" } }, "ctx.answer must be an Answer {id: string, ok: boolean, data?: object, reason?: string}"],
    ["ctx", "ctx must be an object, got string"],
    [5, "ctx must be an object, got number"],
  ]
  const before = calls
  for (const [ctx, why] of cases) {
    const expected = { output: `Tool "fast" was not run: ${why}`, isError: true }
    assert.deepEqual(await toolkit.execute("fast", {}, ctx), expected, String(JSON.stringify(ctx)))
    assert.deepEqual(await fast.execute({}, ctx), expected, String(JSON.stringify(ctx)))
  }
  assert.equal(calls, before)
})

test("the node process exits by itself after timeout-raced and aborted calls", async () => {
  const dir = mkdtempSync(join(tmpdir(), "toolnexus-exit-"))
  try {
    const script = join(dir, "exit.mjs")
    const entry = new URL("../../pkg/node.mjs", import.meta.url).href
    writeFileSync(script, `
      import { createToolkit, defineTool } from ${JSON.stringify(entry)}
      const fast = defineTool({ name: "fast", run: () => "quick" })
      const never = defineTool({ name: "never", run: () => new Promise(() => {}) })
      const toolkit = await createToolkit({ extraTools: [fast, never] })
      const out = []
      out.push((await toolkit.execute("fast", {}, { timeout: 60000 })).output)
      out.push((await fast.execute({}, { timeout: 60000 })).output)
      const controller = new AbortController()
      out.push((await toolkit.execute("fast", {}, { timeout: 60000, signal: controller.signal })).output)
      const aborting = new AbortController()
      setTimeout(() => aborting.abort(new Error("stop")), 10)
      out.push((await toolkit.execute("never", {}, { timeout: 60000, signal: aborting.signal })).output)
      out.push((await toolkit.execute("never", {}, { timeout: 20 })).output)
      console.log(JSON.stringify(out))
    `)
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => { stdout += d })
    child.stderr.on("data", (d) => { stderr += d })
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000)
    const [code, signal] = await new Promise((resolve) => child.on("exit", (c, s) => resolve([c, s])))
    clearTimeout(killer)
    assert.equal(signal, null, `the child had to be killed: it did not exit by itself. stderr: ${stderr}`)
    assert.equal(code, 0, stderr)
    assert.deepEqual(JSON.parse(stdout), [
      "quick", "quick", "quick", 'Tool "never" was aborted: stop', 'Tool "never" timed out after 20 ms',
    ])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
