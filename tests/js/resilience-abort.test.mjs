// timeoutMs and signal on run() against a real local server (SPEC §8 Resilience): the whole-run
// deadline aborts the in-flight fetch (the server sees the connection close) and reaches tools as
// ctx.signal; an AbortController does the same; neither is retried, and both reject with
// name "AbortError", code "aborted".
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { execFile } from "node:child_process"
import { createClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startSseStub, hang, plain } from "./support/sse-stub.mjs"
import { openai } from "./support/stub-server.mjs"
import { assertCode, clearKeyEnv, rejection, timeout } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startSseStub()
after(() => stub.close())

let toolSignal
const waits = defineTool({
  name: "waits",
  run: (_, ctx) => new Promise((resolve) => {
    toolSignal = ctx.signal
    ctx.signal?.addEventListener("abort", () => resolve(`stopped: ${ctx.signal.reason?.name}`))
  }),
})
const toolkit = await createToolkit({ extraTools: [waits] })
const client = (extra = {}) => createClient({ baseUrl: stub.openaiBaseUrl, style: "openai", model: "m", ...extra })
const closed = (n) => Promise.race([stub.requests[n].closed, timeout(3000, `request ${n} to close`)])

test("timeoutMs aborts a model call that never answers, without retrying it", async () => {
  stub.script(hang(), openai.text("never"))
  const started = Date.now()
  const error = assertCode(await rejection(client({ timeoutMs: 300, retryBaseMs: 1 }).run("hi", { toolkit })), "aborted")
  const elapsed = Date.now() - started
  assert.equal(error.name, "AbortError")
  assert.match(error.message, /The run was aborted: the run timed out after 300 ms/)
  assert.ok(elapsed >= 280 && elapsed < 2500, `${elapsed} ms`)
  assert.equal(await closed(0), true, "the server saw the fetch aborted")
  assert.equal(stub.requests.length, 1)
})

test("timeoutMs reaches a running tool as ctx.signal", async () => {
  toolSignal = undefined
  stub.script(openai.toolCalls([{ id: "c1", name: "waits" }]), openai.text("never"))
  const error = await rejection(client({ timeoutMs: 250 }).run("hi", { toolkit }))
  assert.equal(error.name, "AbortError")
  assert.ok(toolSignal, "the tool got a signal")
  assert.equal(toolSignal.aborted, true)
  assert.equal(toolSignal.reason?.name, "TimeoutError")
  assert.equal(stub.requests.length, 1)
})

test("an AbortController aborts the in-flight call: AbortError, no retry", async () => {
  stub.script(hang(), openai.text("never"))
  const controller = new AbortController()
  setTimeout(() => controller.abort(new Error("user pressed stop")), 100)
  const error = assertCode(await rejection(client({ retryBaseMs: 1 }).run("hi", { toolkit, signal: controller.signal })), "aborted")
  assert.equal(error.name, "AbortError")
  assert.match(error.message, /user pressed stop/)
  assert.equal(await closed(0), true)
  assert.equal(stub.requests.length, 1)
})

test("a run that finishes before timeoutMs is unaffected, and its timer does not keep Node alive", async () => {
  stub.script(openai.text("quick"))
  assert.equal((await client({ timeoutMs: 60_000 }).run("hi", { toolkit })).text, "quick")
  // In a fresh process: if the 60 s deadline timer stayed armed, the child would not exit.
  const script = `
    const { createClient, createToolkit } = await import(${JSON.stringify(new URL("../../pkg/node.mjs", import.meta.url).href)})
    const { startSseStub } = await import(${JSON.stringify(new URL("./support/sse-stub.mjs", import.meta.url).href)})
    const { openai } = await import(${JSON.stringify(new URL("./support/stub-server.mjs", import.meta.url).href)})
    const stub = await startSseStub()
    stub.script(openai.text("quick"))
    const c = createClient({ baseUrl: stub.openaiBaseUrl, style: "openai", model: "m", timeoutMs: 60000 })
    const r = await c.run("hi", { toolkit: await createToolkit({}) })
    await stub.close()
    process.stdout.write(r.text)`
  const started = Date.now()
  const out = await new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], { timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)))
  })
  assert.equal(out, "quick")
  assert.ok(Date.now() - started < 15_000, `the child took ${Date.now() - started} ms to exit`)
})

test("a 5xx during a run with timeoutMs is still retried within the deadline", async () => {
  stub.script(plain(503, "busy"), openai.text("recovered"))
  assert.equal((await client({ timeoutMs: 5000, retryBaseMs: 10 }).run("hi", { toolkit })).text, "recovered")
  assert.equal(stub.requests.length, 2)
})
