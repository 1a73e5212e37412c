// A streamed run whose tool suspends (SPEC §10), against a real local SSE server: with waitFor,
// the `pending` event reaches the consumer before waitFor is called, and the run resumes with the
// answer; without waitFor, the iteration ends with `done` whose result is `status: "pending"`.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { startSseStub, sse, streamOf, baseUrlOf } from "./support/sse-stub.mjs"
import { assertPlainJson, clearKeyEnv, sleep } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startSseStub()
after(() => stub.close())

const request = { id: "req-pay", kind: "approval", prompt: "Pay Ada 42 EUR?", data: { amount: 42 } }
const pay = defineTool({
  name: "pay",
  inputSchema: { type: "object", properties: { to: { type: "string" } } },
  run: (args, ctx) => (ctx.answer?.ok ? `paid ${args.to}` : pending(request)),
})
const toolkit = await createToolkit({ extraTools: [pay] })
const STYLES = ["openai", "anthropic"]
const PENDING_FIRST = {}
const client = (style, extra = {}) => createClient({ baseUrl: baseUrlOf(stub, style), style, model: "m", ...extra })
const turns = (style) => [
  sse(streamOf(style, [], [{ id: "c1", name: "pay", args: { to: "Ada" } }]), { cut: { random: 2 } }),
  sse(streamOf(style, ["Paid", " Ada."]), { cut: { random: 3 } }),
]

for (const style of STYLES) {
  test(`${style}: with waitFor, pending arrives before waitFor is called and the run resumes`, PENDING_FIRST, async () => {
    stub.script(...turns(style))
    const log = []
    const waitFor = async (req) => {
      log.push(`waitFor:${req.id}`)
      await sleep(20)
      return { id: req.id, ok: true }
    }
    const events = []
    for await (const event of client(style, { waitFor }).stream("pay Ada", { toolkit })) {
      events.push(event)
      log.push(`event:${event.type}`)
    }
    assert.deepEqual(events.map((e) => e.type), ["tool_call", "pending", "tool_result", "text", "text", "usage", "done"])
    assert.deepEqual(events[1], { type: "pending", request })
    const seen = log.indexOf("event:pending")
    const asked = log.indexOf("waitFor:req-pay")
    assert.ok(seen >= 0 && asked >= 0, log.join(" "))
    assert.ok(seen < asked, `the consumer saw pending only after waitFor was called: ${log.join(" ")}`)
    assert.deepEqual(events[2], { type: "tool_result", id: "c1", name: "pay", output: "paid Ada", isError: false })
    const { result } = events.at(-1)
    assert.equal(result.status, "done")
    assert.equal(result.text, "Paid Ada.")
    assert.equal(stub.requests.length, 2)
  })

  test(`${style}: with waitFor, pending is emitted (in order) before the tool's result`, async () => {
    stub.script(...turns(style))
    const waitFor = async (req) => ({ id: req.id, ok: true })
    const events = []
    for await (const event of client(style, { waitFor }).stream("pay Ada", { toolkit })) events.push(event)
    assert.deepEqual(events.map((e) => e.type), ["tool_call", "pending", "tool_result", "text", "text", "usage", "done"])
    assert.equal(events.at(-1).result.toolCalls[0].output, "paid Ada")
  })

  test(`${style}: without waitFor, the iteration ends with done and status pending`, async () => {
    stub.script(...turns(style))
    const events = []
    for await (const event of client(style).stream("pay Ada", { toolkit })) events.push(event)
    assert.deepEqual(events.map((e) => e.type), ["tool_call", "pending", "usage", "done"])
    const { result } = events.at(-1)
    assert.equal(result.status, "pending")
    assert.deepEqual(result.pending, request)
    assert.equal(result.text, "Pay Ada 42 EUR?")
    assert.equal(stub.requests.length, 1, "no second model call")
    assertPlainJson(result)
  })
}
