// Escalation and durable resume from JavaScript (SPEC §7D): a lead delegates to a worker whose
// tool suspends (`pending(...)`); with nothing to answer it the top result is `pending`, the
// runtime's state crosses `JSON.stringify` into a NEW runtime (`AgentRuntime.restore`), and
// `resume(answer)` finishes the chain with no tool run twice and no second spawn. Then a
// definition's and the runtime's own `waitFor` answering inline, a decline, and bad input
// (wrong id, not an answer, a corrupt or foreign saved state), each a precise ToolnexusError
// with the runtime still working. One scripted OpenAI-style server on 127.0.0.1 answers by
// model name.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { agents, defineTool, isToolnexusError, pending } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

const { AgentRuntime, Handle, agent } = agents

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

const usage = openai.usage(30, 10, 40)
const say = (content) => openai.text(content, usage)
const call = (name, args, id) => openai.toolCalls([{ id, name, args }], usage)
const toolTexts = (body) => body.messages.filter((m) => m.role === "tool").map((m) => String(m.content))

let gate
function deferred() {
  let resolve
  const promise = new Promise((r) => (resolve = r))
  return { promise, resolve }
}

// The lead delegates once; the worker looks something up, then deploys (which asks), then
// reports what its tools said.
stub.respond((request) => {
  const body = request.body
  const tools = toolTexts(body)
  switch (body.model) {
    case "m-lead":
      return tools.length === 0 ? call("task", { agent: "worker", prompt: "ship v2" }, "t1") : say(`lead: ${tools[0]}`)
    case "m-worker":
      if (tools.length === 0) return call("lookup", { q: "release notes" }, "w1")
      if (tools.length === 1) return call("deploy", { version: "v2" }, "w2")
      return say(`worker: ${tools.join(" | ")}`)
    case "m-gate":
      return gate.promise.then(() => say("gate-done"))
    default:
      return say("ok")
  }
})

const llm = { baseUrl: stub.baseUrl, style: "openai", apiKey: "test-key" }

/** Tool runs by outcome: a deploy that asked, one that ran with an approval; lookups. */
let runs
const resetRuns = () => (runs = { lookup: 0, deployAsked: 0, deployed: 0, spawns: 0 })
resetRuns()

const lookup = defineTool({
  name: "lookup",
  description: "reads the release notes",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  run: async () => (runs.lookup++, "notes-42"),
})
const deploy = defineTool({
  name: "deploy",
  description: "deploys a version (needs approval)",
  inputSchema: { type: "object", properties: { version: { type: "string" } }, required: ["version"] },
  run: async (args, ctx) => {
    if (ctx?.answer?.ok) return (runs.deployed++, `deployed ${args.version}`)
    runs.deployAsked++
    return pending({ kind: "approval", prompt: `deploy ${args.version} to prod?` })
  },
})

const worker = agent("worker", { does: "deploys releases", model: "m-worker", uses: { tools: [lookup, deploy] }, onSpawn: () => void runs.spawns++ })
const lead = agent("lead", { does: "runs the release", model: "m-lead", team: [worker] })
const WORKER_ID = "root/lead.1/worker.1"

/** A pending run of the chain on its own runtime (kept, as a pending run is). */
async function pendingRun() {
  const r = await lead.run("release v2", { llm })
  assert.equal(r.status, "pending", r.text)
  return r
}

async function rejects(promise, code, pattern) {
  await assert.rejects(promise, (e) => {
    assert.ok(isToolnexusError(e), `a ToolnexusError, got ${e}`)
    assert.equal(e.code, code, e.message)
    assert.match(e.message, pattern)
    return true
  })
}

function throws(fn, code, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(isToolnexusError(e), `a ToolnexusError, got ${e}`)
    assert.equal(e.code, code, e.message)
    assert.match(e.message, pattern)
    return true
  })
}

test("with no waitFor the run is pending with data.path; suspended() and haltedCall() name the halted deploy", async () => {
  resetRuns()
  const r = await pendingRun()
  assert.deepEqual([r.pending.kind, r.pending.prompt], ["approval", "deploy v2 to prod?"])
  // Each level stamps its own path: the top result names the top-level suspended handle;
  // haltedCall names the deepest, whose tool asked.
  assert.deepEqual(r.pending.data.path, ["root", "lead.1"])
  assert.deepEqual(runs, { lookup: 1, deployAsked: 1, deployed: 0, spawns: 1 })

  const rows = r.runtime.suspended()
  assert.deepEqual(rows.map((row) => row.handle.id), ["root/lead.1", WORKER_ID])
  assert.ok(rows.every((row) => row.handle instanceof Handle && row.request.id === r.pending.id))
  assert.equal(rows[1].handle.state, "suspended")

  const halted = r.runtime.haltedCall(r.pending.id)
  assert.ok(halted.handle instanceof Handle)
  assert.deepEqual([halted.handle.id, halted.tool, halted.args], [WORKER_ID, "deploy", { version: "v2" }])
  assert.equal(halted.handle, rows[1].handle, "one Handle object per handle")
  assert.equal(r.runtime.haltedCall("no-such-request"), undefined)
  throws(() => r.runtime.haltedCall(42), "invalid_argument", /haltedCall: requestId must be a string, got number/)
  await r.runtime.close(r.runtime.root)
})

test("a saved state through JSON restored into a NEW runtime resumes to done: no tool run twice, no second spawn", async () => {
  resetRuns()
  const r = await pendingRun()
  const saved = JSON.parse(JSON.stringify(r.runtime.savedState()))
  assert.equal(saved.format, "toolnexus-agent-runtime/v1")
  assert.deepEqual(saved.handles.map((h) => [h.id, h.state]), [["root", "idle"], ["root/lead.1", "suspended"], [WORKER_ID, "suspended"]])
  assert.deepEqual(saved.handles[2].haltedCall, { handle: WORKER_ID, tool: "deploy", args: { version: "v2" } })

  // The transcripts live in the store: the new runtime is given the same one.
  const restored = AgentRuntime.restore({ llm, registry: lead.registry(), store: r.runtime.store }, saved)
  assert.notEqual(restored, r.runtime)
  assert.deepEqual(restored.suspended().map((row) => row.handle.id), ["root/lead.1", WORKER_ID])
  assert.equal(restored.haltedCall(r.pending.id).tool, "deploy")

  const done = await restored.resume({ id: r.pending.id, ok: true })
  assert.equal(done.status, "done", done.text)
  assert.equal(done.text, "lead: worker: notes-42 | deployed v2")
  assert.deepEqual(runs, { lookup: 1, deployAsked: 1, deployed: 1, spawns: 1 })
  // One worker, the delegated one, closed by its task once it answered: no second spawn.
  assert.deepEqual(restored.list().map((v) => [v.id, v.state]), [["root/lead.1", "idle"], [WORKER_ID, "closed"]])
  assert.deepEqual(restored.suspended(), [])
  assert.ok(restored.trace.includes(`${WORKER_ID}: suspended→idle (Answer accepted, checkpoint restored)`), restored.trace.join("\n"))
  await rejects(restored.resume({ id: r.pending.id, ok: true }), "invalid_resume", /no suspended handle to resume/)
  await restored.close(restored.root)
  await r.runtime.close(r.runtime.root)
})

test("result.runtime.resume(answer) continues a pending agent(...).run() in place", async () => {
  resetRuns()
  const r = await pendingRun()
  const done = await r.runtime.resume({ id: r.pending.id, ok: true })
  assert.deepEqual([done.status, done.text], ["done", "lead: worker: notes-42 | deployed v2"])
  assert.deepEqual(runs, { lookup: 1, deployAsked: 1, deployed: 1, spawns: 1 })
  await r.runtime.close(r.runtime.root)
})

test("a decline reaches the worker's model as declined/expired and the deploy never runs", async () => {
  resetRuns()
  const r = await pendingRun()
  const done = await r.runtime.resume({ id: r.pending.id, ok: false, reason: "not on a Friday" })
  assert.equal(done.status, "done", done.text)
  assert.equal(done.text, "lead: worker: notes-42 | declined/expired: deploy v2 to prod?")
  assert.deepEqual(runs, { lookup: 1, deployAsked: 1, deployed: 0, spawns: 1 })
  await r.runtime.close(r.runtime.root)
})

test("a definition's waitFor on the lead answers the worker's request inline: the run never pends", async () => {
  resetRuns()
  const asked = []
  const approving = agent("lead", {
    does: "runs the release",
    model: "m-lead",
    team: [worker],
    waitFor: async (req) => (asked.push([req.prompt, req.data.path]), { id: req.id, ok: true }),
  })
  const r = await approving.run("release v2", { llm })
  assert.deepEqual([r.status, r.text], ["done", "lead: worker: notes-42 | deployed v2"])
  assert.deepEqual(asked, [["deploy v2 to prod?", ["root", "lead.1", "worker.1"]]])
  assert.deepEqual(runs, { lookup: 1, deployAsked: 1, deployed: 1, spawns: 1 })
  assert.deepEqual(r.runtime.suspended(), [])
})

test("the runtime's own waitFor is the last hop: it answers when no definition does", async () => {
  resetRuns()
  const asked = []
  const runtime = new AgentRuntime({
    llm,
    registry: lead.registry(),
    waitFor: async (req) => (asked.push(req.prompt), { id: req.id, ok: true }),
  })
  const h = runtime.spawn(runtime.root, "lead")
  runtime.wake(h, "release v2")
  const r = await runtime.wait(h)
  assert.deepEqual([r.status, r.text], ["done", "lead: worker: notes-42 | deployed v2"])
  assert.deepEqual(asked, ["deploy v2 to prod?"])
  await runtime.close(runtime.root)
  throws(() => new AgentRuntime({ llm, registry: lead.registry(), waitFor: "yes" }), "invalid_options", /AgentRuntime: waitFor must be a function/)
})

test("bad answers are invalid_resume with nothing changed; the right answer still finishes the run", async () => {
  resetRuns()
  const r = await pendingRun()
  const rt = r.runtime
  const id = r.pending.id
  await rejects(rt.resume({ id: "wrong-id", ok: true }), "invalid_resume", new RegExp(`no suspended handle waits on a request with id "wrong-id" \\(root/lead\\.1 waits on "${id}"; ${WORKER_ID} waits on "${id}"\\)`))
  await rejects(rt.resume("yes"), "invalid_resume", /the answer is not an Answer object \(\{id, ok, data\?, reason\?\}\): "yes"/)
  await rejects(rt.resume(undefined), "invalid_resume", /the answer is not an Answer object .*null/)
  await rejects(rt.resume({ ok: true }), "invalid_resume", /the answer has no id; it must echo the pending request's id/)
  await rejects(rt.resume({ id: 7, ok: true }), "invalid_resume", /the answer's id must be a string \(got 7\)/)
  await rejects(rt.resume({ id, ok: "yes" }), "invalid_resume", /the answer is not an Answer/)
  await rejects(rt.resume({ id, ok: true, data: { big: 1n } }), "invalid_resume", /the answer is not an Answer object .*BigInt/)
  assert.deepEqual(rt.suspended().map((row) => row.handle.id), ["root/lead.1", WORKER_ID], "still suspended")
  assert.deepEqual(runs, { lookup: 1, deployAsked: 1, deployed: 0, spawns: 1 })

  const done = await rt.resume({ id, ok: true })
  assert.deepEqual([done.status, done.text], ["done", "lead: worker: notes-42 | deployed v2"])
  await rt.close(rt.root)
})

test("a corrupt or foreign saved state is refused (invalid_argument) and the saved one still restores", async () => {
  resetRuns()
  const r = await pendingRun()
  const saved = JSON.parse(JSON.stringify(r.runtime.savedState()))
  const options = { llm, registry: lead.registry(), store: r.runtime.store }
  const refused = (state, pattern, opts = options) => throws(() => AgentRuntime.restore(opts, state), "invalid_argument", pattern)

  refused("garbage", /saved runtime state refused/)
  refused(undefined, /saved runtime state refused/)
  const cyclic = { format: "toolnexus-agent-runtime/v1" }
  cyclic.self = cyclic
  refused(cyclic, /saved runtime state refused: it is not plain JSON/)
  refused({ ...saved, format: "someone-else/v9" }, /saved runtime state refused: .*someone-else\/v9/)
  refused({ ...saved, handles: [] }, /saved runtime state refused: it has no handles/)
  refused({ ...saved, handles: saved.handles.map((h) => (h.id === WORKER_ID ? { ...h, state: "running" } : h)) }, new RegExp(`handle "${WORKER_ID}" was saved mid-turn \\(running\\); save between turns`))
  refused({ ...saved, handles: saved.handles.map((h) => (h.id === WORKER_ID ? { ...h, pending: undefined } : h)) }, new RegExp(`handle "${WORKER_ID}" is suspended without a pending request`))
  refused({ ...saved, handles: [saved.handles[0], saved.handles[2], saved.handles[1]] }, /no parent "root\/lead\.1" before it/)
  // Foreign: a registry without the worker.
  const alone = agent("lead", { does: "runs the release", model: "m-lead" })
  refused(saved, /it names agent "worker", which this registry does not have \(known: lead\)/, { ...options, registry: alone.registry() })
  throws(() => AgentRuntime.restore({ ...options, inboxCap: 0 }, saved), "invalid_options", /inboxCap must be a whole number of at least 1, got 0/)
  throws(() => AgentRuntime.restore(null, saved), "invalid_options", /AgentRuntime: options must be an object/)

  // Nothing was hurt: the same state restores and finishes, and a plain runtime still builds.
  const restored = AgentRuntime.restore(options, saved)
  const done = await restored.resume({ id: r.pending.id, ok: true })
  assert.deepEqual([done.status, done.text], ["done", "lead: worker: notes-42 | deployed v2"])
  assert.ok(new AgentRuntime({ llm, registry: lead.registry() }).root instanceof Handle)
  await restored.close(restored.root)
  await r.runtime.close(r.runtime.root)
})

test("savedState() while a turn runs is refused (invalid_argument); between turns it is saved", async () => {
  gate = deferred()
  const runtime = new AgentRuntime({ llm, registry: { slow: { does: "x", model: "m-gate" } } })
  const h = runtime.spawn(runtime.root, "slow")
  runtime.wake(h, "go")
  throws(() => runtime.savedState(), "invalid_argument", /savedState: the state is not saved while a turn runs \(handle "root\/slow\.1"\); save between turns/)
  gate.resolve()
  assert.equal((await runtime.wait(h)).text, "gate-done")
  assert.deepEqual(runtime.savedState().handles.map((x) => [x.id, x.state]), [["root", "idle"], ["root/slow.1", "idle"]])
  await runtime.close(runtime.root)
})
