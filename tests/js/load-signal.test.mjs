// SPEC §2 "Gap 3": a `signal` bounds loading. createToolkit, listMcpTools and loadMcp reject at
// once on an already-aborted signal, and promptly (code "aborted") when it fires while a server
// hangs; the local server they started is stopped, and nothing keeps the process alive.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, readFileSync, existsSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { getEventListeners } from "node:events"
import { createToolkit, listMcpTools, loadMcp } from "../../pkg/node.mjs"
import { createToolkit as leanToolkit } from "../../pkg/core/node.mjs"
import { assertCode, rejection, sleep } from "./support/helpers.mjs"

const dir = mkdtempSync(join(tmpdir(), "toolnexus-signal-"))
after(() => rmSync(dir, { recursive: true, force: true }))

/** A local "server" that never answers; it writes its pid to `file` first. */
function hanging(file) {
  const code = "require('fs').writeFileSync(process.argv[1], String(process.pid)); process.stdin.resume(); setInterval(() => {}, 1000)"
  return { command: [process.execPath, "-e", code, file], timeout: 60000 }
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function pidOf(file) {
  for (let i = 0; i < 200 && !existsSync(file); i++) await sleep(10)
  return Number(readFileSync(file, "utf8"))
}

async function gone(pid) {
  for (let i = 0; i < 3000 && alive(pid); i++) await sleep(10) // up to 30 s: a loaded machine is slow, not wrong
  return !alive(pid)
}

const loaders = {
  createToolkit: (config, signal) => createToolkit({ builtins: false, mcpConfig: config, signal }),
  listMcpTools: (config, signal) => listMcpTools(config, { signal }),
  loadMcp: (config, signal) => loadMcp(config, { signal }),
}

for (const [name, load] of Object.entries(loaders)) {
  test(`${name}: an already-aborted signal rejects at once and starts nothing`, async () => {
    const file = join(dir, `${name}-early.pid`)
    const error = assertCode(await rejection(load({ hang: hanging(file) }, AbortSignal.abort(new Error("not now")))), "aborted")
    assert.equal(error.message, `${name} was aborted: not now`)
    await sleep(100)
    assert.equal(existsSync(file), false, "no server process was started")
  })

  test(`${name}: a hanging load stops promptly when the signal fires, and its server is stopped`, async () => {
    const file = join(dir, `${name}-late.pid`)
    const controller = new AbortController()
    const started = Date.now()
    const loading = load({ hang: hanging(file) }, controller.signal)
    const pid = await pidOf(file)
    assert.ok(alive(pid), "the server runs while the load waits")
    setTimeout(() => controller.abort(), 150)
    const error = assertCode(await rejection(loading), "aborted")
    assert.match(error.message, new RegExp(`^${name} was aborted`))
    assert.ok(Date.now() - started < 30000, `well before the 60 s server timeout (${Date.now() - started} ms)`)
    assert.ok(await gone(pid), "the hanging server was stopped")
  })
}

test("a signal that never fires changes nothing; one that is not an AbortSignal is refused", async () => {
  const controller = new AbortController()
  const toolkit = await createToolkit({ builtins: false, skills: [{ name: "a", content: "x" }], signal: controller.signal })
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["skill"])
  assert.equal(getEventListeners(controller.signal, "abort").length, 0, "no listener is left on the signal")
  await listMcpTools({}, { signal: controller.signal })
  assert.equal(getEventListeners(controller.signal, "abort").length, 0)
  controller.abort()
  assert.equal((await toolkit.execute("skill", { name: "a" })).isError, false, "aborting after the load does not touch the toolkit")
  assertCode(await rejection(createToolkit({ signal: "soon" })), "invalid_options")
  assertCode(await rejection(listMcpTools({}, { signal: {} })), "invalid_options")
})

test("the lean core's createToolkit takes the signal too", async () => {
  assertCode(await rejection(leanToolkit({ signal: AbortSignal.abort() })), "aborted")
  const toolkit = await leanToolkit({ signal: new AbortController().signal })
  assert.deepEqual(toolkit.tools(), [])
})
