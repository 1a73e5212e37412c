// The completion gate on runtime agents (the reference's `completion: {verify, maxAttempts}` run
// inside the §7D turn), from JavaScript on a real local model endpoint: `agents.allTodosDone`
// over the real `todowrite` built-in re-asks until the plan is closed; an unverifiable turn ends
// `incomplete` / `limit: "completion"` with the reference's text; the verifier gets the turn's
// RunResult (every attempt's tool calls) and may be async; a suspended turn is not judged and
// its resume is; a verifier that throws, rejects or answers nonsense is an error result and the
// runtime keeps serving; `agents.agent(name, {completion})` is gated through `.run`, `.asTool`
// and as a team member; bad gates are precise `invalid_options` errors.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { agents, createClient, createToolkit, defineTool, isToolnexusError, pending } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { clearKeyEnv } from "./support/helpers.mjs"

const { AgentRuntime, agent, allTodosDone } = agents

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

const RETRY = "Your work did not verify: "
const usage = openai.usage(30, 10, 40)
const say = (content) => openai.text(content, usage)
const todo = (items) => openai.toolCalls([{ id: `t${items.length}${items.filter((i) => i.completed).length}`, name: "todowrite", args: { todos: items } }], usage)

/** The last user message of a request body. */
const lastUser = (body) => String(body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "")

function model(request) {
  const body = request.body
  const toolMsgs = body.messages.filter((m) => m.role === "tool")
  const retry = lastUser(body).startsWith(RETRY)
  switch (body.model) {
    case "m-plan": // an open plan, a claim of done; on the re-ask the plan closed, then done
      if (toolMsgs.length === 0) return todo([{ id: "1", text: "draft", completed: true }, { id: "2", text: "proofread", completed: false }])
      if (toolMsgs.length === 1 && !retry) return say("I think I am finished")
      if (toolMsgs.length === 1) return todo([{ id: "1", text: "draft", completed: true }, { id: "2", text: "proofread", completed: true }])
      return say("all done")
    case "m-fix": // "first try", then "fixed" on a re-ask
      return say(retry ? "fixed" : "first try")
    case "m-ask":
      if (toolMsgs.length === 0) return openai.toolCalls([{ id: "a1", name: "approve", args: {} }], usage)
      return say(`got ${toolMsgs[0].content}`)
    case "m-lead":
      if (toolMsgs.length === 0) return openai.toolCalls([{ id: "d1", name: "task", args: { agent: "fixer", prompt: "fix it" } }], usage)
      return say(`lead saw: ${toolMsgs[0].content}`)
    case "m-classic":
      if (toolMsgs.length === 0) return openai.toolCalls([{ id: "k1", name: "fixer", args: { prompt: "fix it" } }], usage)
      return say(`classic saw: ${toolMsgs[0].content}`)
    default:
      return say("ok")
  }
}

const llm = { baseUrl: stub.baseUrl, style: "openai", apiKey: "test-key" }

/** The real `todowrite` built-in, as a Tool object a definition can list. */
async function todowrite() {
  const toolkit = await createToolkit({ builtins: { tools: { todowrite: true, bash: false, read: false, write: false, edit: false, glob: false, grep: false, webfetch: false, apply_patch: false, question: false } } })
  return toolkit.tools().find((t) => t.name === "todowrite")
}

const fixOnRetry = () => {
  const seen = []
  const verify = (result) => {
    seen.push(result)
    return result.text === "first try" ? { ok: false, reason: "no proof" } : { ok: true }
  }
  return { seen, verify }
}

async function runOnce(registry, name, prompt) {
  const runtime = new AgentRuntime({ llm, registry })
  const h = runtime.spawn(runtime.root, name)
  assert.ok(runtime.wake(h, prompt).ok)
  return { runtime, h, result: await runtime.wait(h) }
}

test("allTodosDone on a runtime agent re-asks with the open items until the plan is closed", async () => {
  stub.respond(model)
  const registry = { planner: { does: "plans", model: "m-plan", tools: [await todowrite()], completion: { verify: allTodosDone, maxAttempts: 3 } } }
  const { runtime, h, result } = await runOnce(registry, "planner", "write and proofread")
  assert.deepEqual([result.status, result.text, result.isError, result.turns, result.totalTokens], ["done", "all done", false, 4, 160])
  const users = stub.requests.map((r) => lastUser(r.body))
  assert.deepEqual(users, ["write and proofread", "write and proofread",
    "Your work did not verify: 1 item(s) still open: proofread. Fix it and finish.",
    "Your work did not verify: 1 item(s) still open: proofread. Fix it and finish."])
  // The re-ask continues the handle's conversation.
  assert.ok(stub.requests[2].body.messages.some((m) => m.content === "I think I am finished"))
  assert.equal(runtime.inspect(h).turns, 4)
  assert.ok(runtime.trace.includes("root/planner.1: running→idle (done, turns=4, tokens=160)"))
})

test("an unverifiable turn ends incomplete with limit completion and the reference's text", async () => {
  stub.respond(model)
  const verify = async () => ({ ok: false, reason: "always red" }) // async verdicts are awaited
  const { runtime, result } = await runOnce({ w: { does: "x", model: "m-fix", completion: { verify, maxAttempts: 2 } } }, "w", "go")
  assert.deepEqual({ ...result }, { text: "completion.verify failed 2×: always red", isError: true, status: "incomplete", turns: 2, totalTokens: 80, limit: "completion" })
  assert.equal(stub.requests.length, 2, "bounded by maxAttempts")
  assert.ok(runtime.trace.includes("root/w.1: running→idle (incomplete: completion)"))
  // A verdict without a reason is "unspecified".
  stub.respond(model)
  const quiet = await runOnce({ w: { does: "x", model: "m-fix", completion: { verify: () => ({ ok: false }), maxAttempts: 1 } } }, "w", "go")
  assert.equal(quiet.result.text, "completion.verify failed 1×: unspecified")
  assert.equal(stub.requests.length, 1)
})

test("the verifier is handed the turn's RunResult with the tool calls of every attempt", async () => {
  stub.respond(model)
  const seen = []
  const verify = (result) => {
    seen.push({ text: result.text, status: result.status, calls: result.toolCalls.map((c) => c.name), count: result.toolCallCount, turns: result.turns })
    return allTodosDone(result)
  }
  const registry = { planner: { does: "plans", model: "m-plan", tools: [await todowrite()], completion: { verify, maxAttempts: 2 } } }
  const { result } = await runOnce(registry, "planner", "go")
  assert.equal(result.status, "done")
  assert.deepEqual(seen, [
    { text: "I think I am finished", status: "done", calls: ["todowrite"], count: 1, turns: 2 },
    { text: "all done", status: "done", calls: ["todowrite", "todowrite"], count: 2, turns: 4 },
  ])
})

test("a suspended turn is not judged; its resumed turn is", async () => {
  stub.respond(model)
  const approve = defineTool({
    name: "approve",
    description: "needs a person",
    inputSchema: { type: "object", properties: {} },
    run: (_args, ctx) => (ctx?.answer?.ok ? "approved" : pending({ id: "req-1", kind: "approval", prompt: "may I?" })),
  })
  const judged = []
  const registry = { asker: { does: "asks", model: "m-ask", tools: [approve], completion: { verify: (r) => (judged.push(r.text), { ok: true }), maxAttempts: 2 } } }
  const { runtime, result } = await runOnce(registry, "asker", "go")
  assert.equal(result.status, "pending")
  assert.equal(result.pending.id, "req-1")
  assert.deepEqual(judged, [], "a suspension is not judged")
  const done = await runtime.resume({ id: "req-1", ok: true })
  assert.deepEqual([done.status, done.text], ["done", "got approved"])
  assert.deepEqual(judged, ["got approved"])
})

test("a verifier that throws, rejects or answers nonsense is an error result; the runtime keeps serving", async () => {
  const cases = [
    [() => { throw new Error("boom") }, "completion.verify threw: boom"],
    [async () => { throw new TypeError("late boom") }, "completion.verify threw: late boom"],
    [() => undefined, "completion.verify returned undefined, not a verdict {ok, reason?}"],
    [() => "yes", "completion.verify returned string, not a verdict {ok, reason?}"],
  ]
  for (const [verify, text] of cases) {
    stub.respond(model)
    const registry = { w: { does: "x", model: "m-fix", completion: { verify, maxAttempts: 3 } }, plain: { does: "y", model: "m-fix" } }
    const { runtime, h, result } = await runOnce(registry, "w", "go")
    assert.deepEqual([result.status, result.text, result.isError, result.turns], ["error", text, true, 1])
    assert.equal(h.state, "idle")
    assert.ok(runtime.trace.includes(`root/w.1: running→idle (error: ${text})`))
    // The same handle and a sibling still run.
    const p = runtime.spawn(runtime.root, "plain")
    runtime.wake(p, "again")
    assert.equal((await runtime.wait(p)).status, "done")
  }
})

test("a verdict that never comes: interrupt ends the turn, the handle is idle and closes cleanly", async () => {
  stub.respond(model)
  let asked
  const judging = new Promise((resolve) => (asked = resolve))
  const verify = () => {
    asked()
    return new Promise(() => {}) // never settles
  }
  const runtime = new AgentRuntime({ llm, registry: { w: { does: "x", model: "m-fix", completion: { verify, maxAttempts: 2 } } } })
  const h = runtime.spawn(runtime.root, "w")
  runtime.wake(h, "go")
  const waiting = runtime.wait(h)
  await judging
  assert.equal(h.state, "running", "the verdict is awaited")
  runtime.interrupt(h)
  const r = await waiting
  assert.deepEqual([r.status, h.state], ["interrupted", "idle"])
  assert.ok(runtime.trace.includes("root/w.1: running→idle (interrupted; inbox intact)"))
  await runtime.close(runtime.root)
  assert.equal(h.state, "closed")
})

test("agents.agent(name, {completion}) is gated through .run, as a team member and through .asTool", async () => {
  // .run
  stub.respond(model)
  const a = fixOnRetry()
  const fixer = agent("fixer", { does: "fixes things", model: "m-fix", completion: { verify: a.verify, maxAttempts: 2 } })
  const ran = await fixer.run("fix it", { llm })
  assert.deepEqual([ran.status, ran.text, ran.turns], ["done", "fixed", 2])
  assert.equal(a.seen.length, 2)
  assert.ok(stub.requests.some((r) => lastUser(r.body) === "Your work did not verify: no proof. Fix it and finish."))

  // As a delegated team member: the child's own gate runs inside the `task` call.
  stub.respond(model)
  const b = fixOnRetry()
  const member = agent("fixer", { does: "fixes things", model: "m-fix", completion: { verify: b.verify, maxAttempts: 2 } })
  const lead = agent("lead", { does: "delegates", model: "m-lead", team: [member] })
  const led = await lead.run("ship", { llm })
  assert.deepEqual([led.status, led.text], ["done", "lead saw: fixed"])
  assert.equal(b.seen.length, 2)

  // An exhausted child gate reaches its parent as the task's result.
  stub.respond(model)
  const red = agent("fixer", { does: "fixes things", model: "m-fix", completion: { verify: () => ({ ok: false, reason: "tests fail" }), maxAttempts: 2 } })
  const redLead = agent("lead", { does: "delegates", model: "m-lead", team: [red] })
  const redRun = await redLead.run("ship", { llm })
  assert.equal(redRun.text, "lead saw: [incomplete] completion.verify failed 2×: tests fail")
  assert.ok(redRun.runtime.trace.includes("root/lead.1/fixer.1: running→idle (incomplete: completion)"))

  // .asTool in a classic client run.
  stub.respond(model)
  const c = fixOnRetry()
  const asTool = agent("fixer", { does: "fixes things", model: "m-fix", completion: { verify: c.verify, maxAttempts: 2 } }).asTool({ llm })
  const client = createClient({ ...llm, model: "m-classic" })
  const toolkit = await createToolkit({ builtins: false, extraTools: [asTool] })
  const classic = await client.run("use the fixer", { toolkit })
  assert.equal(classic.text, "classic saw: fixed")
  assert.deepEqual(classic.toolCalls[0].metadata, { agent: "fixer", turns: 2, totalTokens: 80 })
  assert.equal(c.seen.length, 2)
})

test("a bad gate is a precise invalid_options error", async () => {
  const bad = (completion, message) => {
    assert.throws(() => new AgentRuntime({ llm, registry: { w: { does: "x", completion } } }), (e) => {
      assert.ok(isToolnexusError(e), `not a ToolnexusError: ${e}`)
      assert.equal(e.code, "invalid_options")
      assert.equal(e.message, message)
      return true
    })
  }
  const at = "AgentRuntime: registry[\"w\"].completion"
  const verify = () => ({ ok: true })
  bad({ verify, maxAttempts: 0 }, `${at}.maxAttempts must be an integer >= 1, got 0`)
  bad({ verify, maxAttempts: 1.5 }, `${at}.maxAttempts must be an integer >= 1, got 1.5`)
  bad({ verify, maxAttempts: -2 }, `${at}.maxAttempts must be an integer >= 1, got -2`)
  bad({ verify, maxAttempts: "3" }, `${at}.maxAttempts must be an integer >= 1, got string`)
  bad({ verify }, `${at}.maxAttempts must be an integer >= 1, got undefined`)
  bad({ maxAttempts: 2 }, `${at}.verify must be a function, got undefined`)
  bad({ verify: "allTodosDone", maxAttempts: 2 }, `${at}.verify must be a function, got string`)
  bad(true, `${at} must be an object {verify, maxAttempts}, got boolean`)
  // Through the Level-1 surface the same error rejects the run.
  await assert.rejects(agent("w", { does: "x", completion: { verify, maxAttempts: 0 } }).run("go", { llm }),
    { code: "invalid_options", message: `${at}.maxAttempts must be an integer >= 1, got 0` })
  // The module still serves.
  stub.respond(model)
  const ok = await agent("w", { does: "x", model: "m-fix", completion: { verify, maxAttempts: 1 } }).run("go", { llm })
  assert.equal(ok.status, "done")
})
