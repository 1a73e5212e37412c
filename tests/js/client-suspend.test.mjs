// Suspension (SPEC §10) through a real run: with `waitFor`, an approved answer re-runs the tool
// once with ctx.answer; every other answer (declined, wrong id, malformed, expired, a throwing
// waitFor) feeds "declined/expired: <prompt>" back and the run goes on; a retry that suspends
// again is "unresolved: <prompt>". Without `waitFor` the run halts as "pending" on the first
// suspension in call order, and a beforeTool guard halts the same way.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { startOpenAIStub, startAnthropicStub, openai, anthropic } from "./support/stub-server.mjs"
import { assertCode, assertPlainJson, clearKeyEnv, rejection, sleep, timeout } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
const astub = await startAnthropicStub()
after(() => Promise.all([stub.close(), astub.close()]))

const request = { id: "req-book", kind: "approval", prompt: "Book flight?" }
let runs = []
const book = defineTool({
  name: "book",
  inputSchema: { type: "object", properties: { flight: { type: "string" } } },
  run: (args, ctx) => {
    runs.push({ args, answer: ctx.answer })
    return ctx.answer ? `booked ${args.flight} (${ctx.answer.data?.seat})` : pending(request)
  },
})
const stubborn = defineTool({ name: "stubborn", run: () => pending({ id: "req-s", kind: "input", prompt: "Say it again?" }) })
const toolkit = await createToolkit({ extraTools: [book, stubborn] })
const client = (extra = {}) => createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", ...extra })
const callBook = openai.toolCalls([{ id: "c1", name: "book", args: { flight: "AF1" } }])
const lastToolMessage = (req) => req.body.messages.filter((m) => m.role === "tool").at(-1)

test("an approved answer re-runs the tool with ctx.answer and the model gets the real output", async () => {
  runs = []
  const asked = []
  const waitFor = async (req) => {
    asked.push(req)
    await sleep(5)
    return { id: req.id, ok: true, data: { seat: "12A" } }
  }
  stub.script(callBook, openai.text("Booked."))
  const r = await client({ waitFor }).run("Book AF1", { toolkit })
  assert.deepEqual(asked, [request])
  assert.deepEqual(runs, [
    { args: { flight: "AF1" }, answer: undefined },
    { args: { flight: "AF1" }, answer: { id: "req-book", ok: true, data: { seat: "12A" } } },
  ])
  assert.equal(r.status, "done")
  assert.equal(r.text, "Booked.")
  assert.deepEqual(r.toolCalls, [{ name: "book", args: { flight: "AF1" }, output: "booked AF1 (12A)", isError: false }])
  assert.deepEqual(lastToolMessage(stub.requests[1]), { role: "tool", tool_call_id: "c1", content: "booked AF1 (12A)" })
})

test("an answer without an id counts as the request's own; a synchronous waitFor works too", async () => {
  runs = []
  stub.script(callBook, openai.text("Booked."))
  const r = await client({ waitFor: () => ({ ok: true, data: { seat: "1C" } }) }).run("Book AF1", { toolkit })
  assert.equal(r.toolCalls[0].output, "booked AF1 (1C)")
  assert.equal(runs.length, 2)
})

test("every answer that is not a valid approval is declined and the run goes on", async () => {
  const declines = {
    "ok: false": async (req) => ({ id: req.id, ok: false, reason: "declined" }),
    "a wrong id": async () => ({ id: "someone-else", ok: true, data: { seat: "9F" } }),
    "a throwing waitFor": () => { throw new Error("dialog crashed") },
    "a rejecting waitFor": async () => { throw new Error("dialog closed") },
    "a string answer": async () => "yes",
    "an undefined answer": async () => undefined,
    "a null answer": async () => null,
    "ok not a boolean": async (req) => ({ id: req.id, ok: "true" }),
    "ok missing": async (req) => ({ id: req.id, data: { seat: "2B" } }),
    "data not an object": async (req) => ({ id: req.id, ok: true, data: "seat 3" }),
  }
  for (const [label, waitFor] of Object.entries(declines)) {
    runs = []
    stub.script(callBook, openai.text("Not booked."))
    const r = await client({ waitFor }).run("Book AF1", { toolkit })
    assert.equal(r.status, "done", label)
    assert.equal(r.text, "Not booked.", label)
    assert.equal(runs.length, 1, `${label}: the tool is not re-run`)
    assert.deepEqual(r.toolCalls, [{ name: "book", args: { flight: "AF1" }, output: "declined/expired: Book flight?", isError: true }], label)
    assert.deepEqual(lastToolMessage(stub.requests[1]), { role: "tool", tool_call_id: "c1", content: "declined/expired: Book flight?" }, label)
  }
})

test("a request whose expiresAt has passed is declined even when the answer is ok", async () => {
  let ran = 0
  const make = (expiresAt) => defineTool({
    name: "expiring",
    run: (_, ctx) => { ran++; return ctx.answer ? "done late" : pending({ id: "e1", kind: "approval", prompt: "Still want it?", expiresAt }) },
  })
  const waitFor = async (req) => ({ id: req.id, ok: true })
  for (const [expiresAt, output] of [["2000-01-01T00:00:00Z", "declined/expired: Still want it?"], ["2999-01-01T00:00:00.000Z", "done late"]]) {
    ran = 0
    stub.script(openai.toolCalls([{ id: "c1", name: "expiring" }]), openai.text("ok"))
    const r = await client({ waitFor }).run("go", { toolkit: await createToolkit({ extraTools: [make(expiresAt)] }) })
    assert.equal(r.toolCalls[0].output, output, expiresAt)
    assert.equal(ran, output === "done late" ? 2 : 1, expiresAt)
  }
})

test("a retry that suspends again is fed back as unresolved: <prompt>", async () => {
  let asked = 0
  stub.script(openai.toolCalls([{ id: "c1", name: "stubborn" }]), openai.text("gave up"))
  const r = await client({ waitFor: async (req) => { asked++; return { id: req.id, ok: true } } }).run("go", { toolkit })
  assert.equal(asked, 1, "waitFor is asked once, never in a loop")
  assert.equal(r.status, "done")
  assert.deepEqual(r.toolCalls, [{ name: "stubborn", args: {}, output: "unresolved: Say it again?", isError: true }])
  assert.equal(lastToolMessage(stub.requests[1]).content, "unresolved: Say it again?")
})

test("with waitFor, concurrent suspensions of one turn each resolve and none is lost", async () => {
  runs = []
  const asked = []
  stub.script(
    openai.toolCalls([{ id: "c1", name: "book", args: { flight: "AF1" } }, { id: "c2", name: "book", args: { flight: "BA2" } }]),
    openai.text("both"),
  )
  const r = await client({ waitFor: async (req) => { asked.push(req.id); return { id: req.id, ok: true, data: { seat: "7" } } } })
    .run("go", { toolkit })
  assert.deepEqual(asked, ["req-book", "req-book"])
  assert.deepEqual(r.toolCalls.map((c) => c.output), ["booked AF1 (7)", "booked BA2 (7)"])
})

// Without waitFor: a durable halt.
const note = defineTool({ name: "note", run: () => "noted" })
const slowAsk = defineTool({ name: "slow_ask", run: async () => { await sleep(30); return pending({ id: "r1", kind: "approval", prompt: "first?" }) } })
const fastAsk = defineTool({ name: "fast_ask", run: () => pending({ id: "r2", kind: "input", prompt: "second?" }) })
const haltKit = await createToolkit({ extraTools: [note, slowAsk, fastAsk] })
const haltCalls = [{ id: "c0", name: "note" }, { id: "c1", name: "slow_ask" }, { id: "c2", name: "fast_ask" }]

test("without waitFor the run halts as pending on the FIRST suspension in call order", async () => {
  stub.script(openai.toolCalls(haltCalls), openai.text("must not be asked"))
  const r = await Promise.race([client().run("go", { toolkit: haltKit }), timeout(5000, "the pending run hung")])
  assert.equal(r.status, "pending")
  assert.deepEqual(r.pending, { id: "r1", kind: "approval", prompt: "first?" })
  assert.equal(r.text, "first?")
  assert.equal(r.turns, 1)
  assert.equal(stub.requests.length, 1)
  assert.equal("limit" in r, false)
  assert.deepEqual(r.messages, [
    { role: "user", content: "go" },
    openai.assistant(haltCalls),
    { role: "tool", tool_call_id: "c0", content: "noted" },
    { role: "tool", tool_call_id: "c1", content: "first?" },
  ])
  assert.deepEqual(r.toolCalls.map((c) => [c.name, c.output, c.isError]), [["note", "noted", false], ["slow_ask", "first?", true]])
  assert.equal(r.toolCallCount, 2)
  assertPlainJson(r)
  assert.deepEqual(JSON.parse(JSON.stringify(r)).pending, r.pending)
})

test("an anthropic run halts the same way, with one user turn of the recorded results", async () => {
  astub.script(anthropic.toolUse(haltCalls.map(({ id, name }) => ({ id, name }))), anthropic.text("must not be asked"))
  const r = await createClient({ baseUrl: astub.baseUrl, style: "anthropic", model: "c" }).run("go", { toolkit: haltKit })
  assert.equal(r.status, "pending")
  assert.equal(r.pending.id, "r1")
  assert.deepEqual(r.messages.at(-1), {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "c0", content: "noted", is_error: false },
      { type: "tool_result", tool_use_id: "c1", content: "first?", is_error: true },
    ],
  })
  assert.equal(astub.requests.length, 1)
})

test("a beforeTool guard returning {result: pending(...)} halts; the tool and afterTool never run", async () => {
  let transfers = 0
  const afterTool = []
  const transfer = defineTool({
    name: "transfer",
    inputSchema: { type: "object", properties: { amount: { type: "number" } } },
    run: (_, ctx) => {
      transfers++
      return `sent (${ctx.answer?.ok})`
    },
  })
  const kit = await createToolkit({ extraTools: [transfer] })
  const hooks = {
    beforeTool: ({ name }) => (name === "transfer" ? { result: pending({ id: "g1", kind: "approval", prompt: "Allow transfer?" }) } : undefined),
    afterTool: (event) => { afterTool.push(event.result) },
  }
  stub.script(openai.toolCalls([{ id: "t1", name: "transfer", args: { amount: 5 } }]), openai.text("unused"))
  const r = await client({ hooks }).run("pay", { toolkit: kit })
  assert.equal(r.status, "pending")
  assert.deepEqual(r.pending, { id: "g1", kind: "approval", prompt: "Allow transfer?" })
  assert.deepEqual(r.messages.at(-1), { role: "tool", tool_call_id: "t1", content: "Allow transfer?" })
  assert.equal(transfers, 0)
  assert.deepEqual(afterTool, [])

  // With waitFor, the approved guard runs the tool once with the answer; afterTool sees only that result.
  stub.script(openai.toolCalls([{ id: "t1", name: "transfer", args: { amount: 5 } }]), openai.text("paid"))
  const approved = await client({ hooks, waitFor: async (req) => ({ id: req.id, ok: true }) }).run("pay", { toolkit: kit })
  assert.equal(approved.text, "paid")
  assert.equal(transfers, 1)
  assert.deepEqual(afterTool, [{ output: "sent (true)", isError: false }])
})

test("afterTool is not called for a tool's own suspension, only for the resolved result", async () => {
  runs = []
  const seen = []
  const hooks = { afterTool: ({ result }) => { seen.push(result) } }
  stub.script(callBook, openai.text("ok"))
  await client({ hooks }).run("go", { toolkit })
  assert.deepEqual(seen, [], "no afterTool on a durable halt")

  stub.script(callBook, openai.text("ok"))
  await client({ hooks, waitFor: async (req) => ({ id: req.id, ok: true, data: { seat: "4D" } }) }).run("go", { toolkit })
  assert.deepEqual(seen, [{ output: "booked AF1 (4D)", isError: false }])

  seen.length = 0
  stub.script(callBook, openai.text("ok"))
  await client({ hooks, waitFor: async (req) => ({ id: req.id, ok: false }) }).run("go", { toolkit })
  assert.deepEqual(seen, [], "no afterTool on a declined suspension")
})

test("aborting while waitFor is pending rejects the run as aborted", async () => {
  const controller = new AbortController()
  stub.script(callBook, openai.text("unused"))
  const waitFor = () => { setTimeout(() => controller.abort(), 10); return new Promise(() => {}) }
  const error = assertCode(await rejection(client({ waitFor }).run("go", { toolkit, signal: controller.signal })), "aborted")
  assert.equal(error.name, "AbortError")
  assert.equal(stub.requests.length, 1)
})
