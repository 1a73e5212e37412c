// The harness and the completion gate (the reference's js/test/loop.test.ts behaviours, on a
// real local model endpoint): harness() is the spec; a Loop without gate or guardrails is a
// plain run; allTodosDone blocks an open plan and re-prompts; an unverifiable run stops as
// incomplete with limit "completion"; maxAttempts is required; the gate judges accumulated
// work; guardrails deny first-wins ahead of an existing beforeTool; a per-call model; turns.
// The Level-1 `agents.agent(...)` that also projects specs into a runtime registry comes with
// the sub-agent runtime; here an agent is `{name, spec}`.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { agents, createClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

const options = { baseUrl: stub.baseUrl, style: "openai", model: "test-model", apiKey: "k" }
const todo = (items) => openai.toolCalls([{ id: `t${items.length}`, name: "todowrite", args: { todos: items } }])
const todoToolkit = () => createToolkit({ builtins: { tools: { todowrite: true, bash: false, read: false, write: false, edit: false, glob: false, grep: false, webfetch: false, apply_patch: false, question: false } } })
const loopOf = (spec, toolkit) => new agents.Loop({ name: "a", spec: agents.harness(spec) }, options, toolkit)

test("harness() is the spec itself", () => {
  const spec = { does: "x", soul: "y" }
  assert.equal(agents.harness(spec), spec)
})

test("a loop without a gate or guardrails is one plain run, with the soul as its system prompt", async () => {
  stub.script(openai.text("hello"))
  const out = await loopOf({ does: "answers", soul: "You are terse." }, await createToolkit({ builtins: false })).run("hi")
  assert.deepEqual({ ...out, result: undefined }, { text: "hello", status: "done", attempts: 1, turns: 1, result: undefined })
  assert.equal(out.stoppedBy, undefined)
  assert.deepEqual(stub.requests[0].body.messages, [{ role: "system", content: "You are terse." }, { role: "user", content: "hi" }])
})

test("allTodosDone blocks an open item and re-prompts; the retry closes it and passes", async () => {
  stub.script(
    todo([{ id: "1", text: "draft", completed: true }, { id: "2", text: "proofread", completed: false }]),
    openai.text("I think I am finished"),
    todo([{ id: "1", text: "draft", completed: true }, { id: "2", text: "proofread", completed: true }]),
    openai.text("all done"),
  )
  const loop = loopOf({ does: "plans", completion: { verify: agents.allTodosDone, maxAttempts: 3 } }, await todoToolkit())
  const out = await loop.run("do the thing")
  assert.equal(out.status, "done")
  assert.equal(out.text, "all done")
  assert.equal(out.attempts, 2)
  assert.equal(stub.requests[2].body.messages.at(-1).content, "Your work did not verify: 1 item(s) still open: proofread. Fix it and finish.")
  assert.equal(out.turns, 4)
  assert.equal(out.result.toolCalls.length, 2, "the result carries the calls of both attempts")
})

test("an unverifiable run stops as incomplete, bounded by maxAttempts, naming the reason", async () => {
  stub.script(openai.text("done!"), openai.text("done!!"))
  const never = { verify: () => ({ ok: false, reason: "always red" }), maxAttempts: 2 }
  const out = await loopOf({ does: "never verifies", completion: never }, await createToolkit({ builtins: false })).run("go")
  assert.equal(out.status, "incomplete")
  assert.equal(out.attempts, 2)
  assert.equal(out.stoppedBy, "completion.verify failed 2×: always red")
  assert.equal(out.result.limit, "completion")
  assert.equal(stub.requests.length, 2)
})

test("maxAttempts is required and checked; nothing is sent", async () => {
  stub.script()
  const toolkit = await createToolkit({ builtins: false })
  for (const [maxAttempts, got] of [[0, "0"], [1.5, "1.5"], [undefined, "undefined"]]) {
    await assert.rejects(loopOf({ completion: { verify: () => ({ ok: true }), maxAttempts } }, toolkit).run("go"),
      { code: "invalid_options", message: `completion.maxAttempts must be an integer >= 1, got ${got}` })
  }
  await assert.rejects(agents.runGated(async () => ({}), "go", { maxAttempts: 1 }), { code: "invalid_options", message: "completion.verify must be a function, got undefined" })
  assert.equal(stub.requests.length, 0)
})

test("no plan declared: the built-in verifier passes", async () => {
  stub.script(openai.text("answered without a plan"))
  const out = await loopOf({ completion: { verify: agents.allTodosDone, maxAttempts: 2 } }, await todoToolkit()).run("go")
  assert.deepEqual([out.status, out.attempts], ["done", 1])
})

test("the gate judges accumulated work: a retry that drops the plan cannot escape", async () => {
  stub.script(todo([{ id: "1", text: "ship it", completed: false }]), openai.text("I am finished, honest"), openai.text("still finished"))
  const out = await loopOf({ completion: { verify: agents.allTodosDone, maxAttempts: 2 } }, await todoToolkit()).run("go")
  assert.equal(out.status, "incomplete")
  assert.equal(out.stoppedBy, "completion.verify failed 2×: 1 item(s) still open: ship it")
})

test("guardrails: first deny wins, a later one never runs, an existing beforeTool runs only when all allow", async () => {
  const seen = []
  let priorRuns = 0
  const hooks = agents.guardedHooks(
    [(e) => (e.name === "danger" ? "policy: no" : "allow"), () => { seen.push("second"); return undefined }],
    { beforeTool: async () => { priorRuns++ } },
  )
  assert.deepEqual(await hooks.beforeTool({ name: "danger", args: {}, id: "1", turn: 0 }), { result: { output: "denied: policy: no", isError: true } })
  assert.deepEqual([seen, priorRuns], [[], 0])
  assert.equal(await hooks.beforeTool({ name: "safe", args: {}, id: "2", turn: 0 }), undefined)
  assert.deepEqual([seen, priorRuns], [["second"], 1])
  const own = { afterTool: () => {} }
  assert.equal(agents.guardedHooks([], own), own, "no guardrails: the hooks as given")
  assert.equal(agents.guardedHooks(undefined, undefined), undefined)
  assert.throws(() => agents.guardedHooks(["allow"], undefined), { code: "invalid_options" })
})

test("guardrails in a loop: the denied tool never runs, the model reads the denial", async () => {
  let ran = 0
  const wipe = defineTool({ name: "wipe", run: () => (ran++, "wiped") })
  const toolkit = await createToolkit({ builtins: false, extraTools: [wipe] })
  stub.script(openai.toolCalls([{ id: "c1", name: "wipe" }]), openai.text("could not"))
  const out = await loopOf({ guardrails: [({ name }) => (name === "wipe" ? "destructive" : "allow")] }, toolkit).run("clean up")
  assert.equal(ran, 0)
  assert.equal(out.text, "could not")
  assert.equal(stub.requests[1].body.messages.at(-1).content, "denied: destructive")
})

test("a per-call model reaches the wire and does not persist; turns accumulate; status is observed", async () => {
  stub.script(openai.text("a"), openai.text("b"))
  const loop = loopOf({ does: "x" }, await createToolkit({ builtins: false }))
  assert.equal(loop.status, "idle")
  const first = await loop.run("one", { model: "override-model" })
  await loop.run("two")
  assert.deepEqual(stub.requests.map((r) => r.body.model), ["override-model", "test-model"])
  assert.equal(first.result.model, "override-model")
  assert.equal(loop.turns, 2)
  assert.equal(loop.status, "idle")
  assert.deepEqual(stub.requests[1].body.messages.map((m) => m.content), ["one", "a", "two"], "the second run continues the conversation")
})

test("runGated over any ask: a pending run is returned as it is, never re-judged", async () => {
  let verified = 0
  const pending = { text: "ok?", status: "pending", toolCalls: [], pending: { id: "p", kind: "approval", prompt: "ok?" } }
  const r = await agents.runGated(async () => pending, "go", { verify: () => (verified++, { ok: false }), maxAttempts: 3 })
  assert.equal(r.status, "pending")
  assert.equal(verified, 0)
  const client = createClient(options)
  stub.script(openai.text("plain"))
  const toolkit = await createToolkit({ builtins: false })
  const plain = await agents.runGated((p) => client.run(p, { toolkit }), "go", undefined)
  assert.equal(plain.text, "plain", "no gate: one run")
})
