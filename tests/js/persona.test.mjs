// Personas (SPEC §7E) on the built package, the reference's js/test/home.test.ts behaviours on a
// real local model endpoint that answers by model name: agents.fromDir makes an agent of a
// home (its soul reaches the run's system prompt; the memory tool writes the home, and only the
// next session's snapshot carries it); agents.startAgent's heartbeat on a virtual clock (a
// HEARTBEAT_OK reply is silent, a due one surfaces, ticks under a blocked turn make one wake,
// stop() and an AbortSignal end it); bad arguments.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { agents, MemoryFileSystem } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"
import { VirtualClock } from "./support/virtual-clock.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
const tmp = mkdtempSync(path.join(os.tmpdir(), "toolnexus-js-persona-"))
after(() => (rmSync(tmp, { recursive: true, force: true }), stub.close()))

/** Resolves once `ready()` holds (bounded, so a broken run fails instead of hanging). */
async function until(ready, what) {
  for (let i = 0; i < 5000 && !ready(); i++) await new Promise((r) => setImmediate(r))
  assert.ok(ready(), `never happened: ${what}`)
}

const usage = openai.usage(30, 10, 40)
let gate
/** The fixture's scripted models, by model name. */
stub.respond((request) => {
  const { model, messages } = request.body
  const sys = String(messages.find((m) => m.role === "system")?.content ?? "")
  const last = String(messages.at(-1)?.content ?? "")
  const toolMsgs = messages.filter((m) => m.role === "tool")
  switch (model) {
    case "m-echo-soul":
      return openai.text(`sections:[${agents.BOOTSTRAP_ORDER.filter((f) => sys.includes(`## ${f}`)).join(",")}]`, usage)
    case "m-remember":
      return toolMsgs.length === 0
        ? openai.toolCalls([{ id: "w1", name: "memory", args: { action: "add", target: "user", text: "Prefers dark roast" } }], usage)
        : openai.text(`saved: ${toolMsgs[0].content}`, usage)
    case "m-recall":
      return openai.text(sys.includes("Prefers dark roast") ? "I recall: dark roast" : "no memory", usage)
    case "m-heartbeat":
      return openai.text(sys.includes("remind about the 3pm sync") && last.includes("Heartbeat") ? "Reminder: 3pm sync 🔔" : agents.HEARTBEAT_OK, usage)
    case "m-gated":
      return gate.promise.then(() => openai.text("Reminder: 3pm sync 🔔", usage))
    default:
      return openai.text("ok", usage)
  }
})
const llm = (model) => ({ baseUrl: stub.baseUrl, style: "openai", apiKey: "k", model })

const ava = (files = {}) => {
  const dir = mkdtempSync(path.join(tmp, "ava-"))
  const all = {
    "SOUL.md": "You are Ava, a calm support assistant.",
    "USER.md": "The user is Muthu; timezone IST.",
    "HEARTBEAT.md": "If it is time, remind about the 3pm sync.",
    "MEMORY.md": "- Onboarded 2026-07.",
    ...files,
  }
  for (const [name, text] of Object.entries(all)) if (text !== undefined) writeFileSync(path.join(dir, name), text)
  return dir
}

test("fromDir: the home's soul reaches the run's system prompt, in bootstrap order", async () => {
  const dir = ava()
  const persona = await agents.fromDir(dir)
  assert.equal(persona.name, path.basename(dir))
  assert.equal(persona.spec.does, `persona agent from ${dir}`)
  assert.deepEqual(persona.spec.uses.tools.map((t) => t.name), ["memory"])
  const r = await persona.run("hi", { llm: llm("m-echo-soul") })
  assert.equal(r.text, "sections:[SOUL.md,USER.md,HEARTBEAT.md,MEMORY.md]")
  const readOnly = await agents.fromDir(dir, { memory: false, name: "ava", does: "support", fs: "node" })
  assert.deepEqual([readOnly.name, readOnly.spec.does, readOnly.spec.uses.tools.length], ["ava", "support", 0])
})

test("the memory tool writes the home; only the next session's snapshot carries it", async () => {
  const dir = ava()
  const persona = await agents.fromDir(dir)
  const saved = await persona.run("remember my coffee", { llm: llm("m-remember") })
  assert.equal(saved.text, "saved: ok (add → USER.md); loads next session")
  assert.equal(readFileSync(path.join(dir, "USER.md"), "utf8"), "The user is Muthu; timezone IST.\n- Prefers dark roast\n")
  assert.equal((await persona.run("what do I drink?", { llm: llm("m-recall") })).text, "no memory", "this agent's soul is frozen")
  const next = await agents.fromDir(dir)
  assert.equal((await next.run("what do I drink?", { llm: llm("m-recall") })).text, "I recall: dark roast")
})

test("fromDir over a MemoryFileSystem (a page's kind of home)", async () => {
  const fs = new MemoryFileSystem({ "/homes/ava/SOUL.md": "You are Ava." })
  const persona = await agents.fromDir("/homes/ava/", { fs })
  assert.equal(persona.name, "ava")
  assert.equal((await persona.run("hi", { llm: llm("m-echo-soul") })).text, "sections:[SOUL.md]")
})

test("the heartbeat: silent on HEARTBEAT_OK, a due beat surfaces, one timer at a time, stop() ends it", async () => {
  const quietClock = new VirtualClock()
  const quiet = agents.startAgent(await agents.fromDir(ava({ "HEARTBEAT.md": undefined })), { llm: llm("m-heartbeat"), clock: quietClock }, { everyMs: 60_000 })
  const from = stub.requests.length
  for (let i = 1; i <= 3; i++) {
    quietClock.advance(60_000)
    await until(() => stub.requests.length >= from + i && quiet.runtime.list()[0]?.state === "idle", `quiet beat ${i}`)
  }
  assert.deepEqual(quiet.beats, [], "HEARTBEAT_OK replies are silent")
  assert.equal(quietClock.live, 1, "each beat schedules the next: one live timer")
  await quiet.stop()

  const clock = new VirtualClock()
  const heard = []
  const due = agents.startAgent(await agents.fromDir(ava()), { llm: llm("m-heartbeat"), clock }, { everyMs: 60_000, onBeat: (t) => heard.push(t) })
  clock.advance(60_000)
  await until(() => due.beats.length === 1, "a due beat")
  assert.deepEqual(due.beats, ["Reminder: 3pm sync 🔔"])
  assert.deepEqual(heard, due.beats)
  const before = stub.requests.length
  await due.stop()
  clock.advance(10 * 60_000)
  await new Promise((r) => setImmediate(r))
  assert.equal(stub.requests.length, before, "no beat after stop()")
  assert.equal(clock.live, 0)
})

test("ticks under a blocked turn coalesce into one wake; an AbortSignal stops the heartbeat", async () => {
  let resolve
  gate = { promise: new Promise((r) => (resolve = r)), resolve: () => resolve() }
  const clock = new VirtualClock()
  const abort = new AbortController()
  const started = agents.startAgent(await agents.fromDir(ava()), { llm: llm("m-gated"), clock }, { everyMs: 1000, signal: abort.signal })
  const from = stub.requests.length
  clock.advance(1000)
  await until(() => stub.requests.length === from + 1, "the first beat's model call")
  for (let i = 0; i < 5; i++) clock.advance(1000) // five more beats while the turn is blocked
  assert.equal(stub.requests.length, from + 1, "a running persona is not woken again")
  gate.resolve()
  await until(() => started.beats.length === 1, "the blocked beat")
  clock.advance(1000)
  await until(() => stub.requests.length === from + 2, "the next beat")
  const next = stub.requests.at(-1).body.messages.at(-1).content
  // The five ticks posted while the turn was blocked and the next beat's: one counted entry.
  assert.ok(next.startsWith(agents.HEARTBEAT_PROMPT), next)
  assert.ok(next.endsWith("1. [from=clock channel=timer] tick (x6 coalesced)"), next)
  abort.abort()
  await until(() => started.runtime.list().length === 0 || started.runtime.list().every((h) => h.state === "closed"), "the abort closing the tree")
  const after = stub.requests.length
  clock.advance(10_000)
  await new Promise((r) => setImmediate(r))
  assert.equal(stub.requests.length, after, "no beat after the abort")
})

test("bad arguments are clear errors", async () => {
  const persona = await agents.fromDir(ava())
  assert.throws(() => agents.startAgent(persona, { llm: llm("m") }, { everyMs: 500 }), {
    code: "invalid_options", message: "startAgent: everyMs must be a number of milliseconds, at least 1000, got 500" })
  assert.throws(() => agents.startAgent(persona, { llm: llm("m") }, {}), { code: "invalid_options" })
  await assert.rejects(agents.fromDir(42), { code: "invalid_argument", message: "fromDir: dir must be a non-empty string, got number" })
})
