// client.stream() against a real local SSE server: for both styles, a stream sent whole, one
// byte at a time or in seeded random chunks yields the same RunResult as the plain run; the
// `for await` event sequence; `ask` with on_text; `stream` with an id loads and saves history;
// the in-process client refuses to stream.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createInProcessClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startSseStub, sse, plain, streamOf, baseUrlOf } from "./support/sse-stub.mjs"
import { openai, anthropic } from "./support/stub-server.mjs"
import { assertCode, assertPlainJson, clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startSseStub()
after(() => stub.close())

const weather = defineTool({
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => `Sunny in ${city}`,
})
const toolkit = await createToolkit({ extraTools: [weather] })
const STYLES = ["openai", "anthropic"]
const client = (style, extra = {}) => createClient({ baseUrl: baseUrlOf(stub, style), style, model: "m", apiKey: "k", ...extra })
const call = { id: "call_1", name: "get_weather", args: { city: "Zürich 🌤" } }
const PARTS = ["Sun", "ny ☀️ in ", "Zürich", "."]

/** Every event of a stream, in order. */
async function collect(iterable) {
  const events = []
  for await (const event of iterable) events.push(event)
  return events
}

function plainTurns(style) {
  return style === "openai"
    ? [openai.toolCalls([call], openai.usage(10, 5)), openai.text(PARTS.join(""), openai.usage(20, 7))]
    : [anthropic.toolUse([{ id: call.id, name: call.name, input: call.args }], anthropic.usage(10, 5)), anthropic.text(PARTS.join(""), anthropic.usage(20, 7))]
}

function streamedTurns(style, cut) {
  return [sse(streamOf(style, [], [call], [10, 5]), { cut }), sse(streamOf(style, PARTS, [], [20, 7]), { cut })]
}

for (const style of STYLES) {
  test(`${style}: whole, byte-by-byte and random chunks give the plain run's result`, async () => {
    stub.script(...plainTurns(style))
    const expected = await client(style).run("weather?", { toolkit })
    assert.equal(expected.text, "Sunny ☀️ in Zürich.")
    for (const cut of ["whole", "bytes", { random: 7 }, { random: 99, max: 5 }, [1, 2, 3, 50]]) {
      stub.script(...streamedTurns(style, cut))
      const events = await collect(client(style).stream("weather?", { toolkit }))
      const done = events.at(-1)
      assert.equal(done.type, "done", JSON.stringify(cut))
      assert.deepEqual(done.result, expected, `cut ${JSON.stringify(cut)}`)
      assertPlainJson(done.result)
      assert.equal(stub.requests.length, 2)
      assert.equal(stub.requests[0].body.stream, true)
      assert.equal(events.filter((e) => e.type === "text").map((e) => e.delta).join(""), expected.text)
      for (const e of events.filter((e) => e.type === "text")) {
        assert.deepEqual(Object.keys(e), ["type", "delta"])
        assert.equal(typeof e.delta, "string")
        assertPlainJson(e)
      }
    }
  })

  test(`${style}: the for-await event sequence`, async () => {
    stub.script(...streamedTurns(style, { random: 3 }))
    const events = await collect(client(style).stream("weather?", { toolkit }))
    assert.deepEqual(events.map((e) => e.type), ["tool_call", "tool_result", "text", "text", "text", "text", "usage", "done"])
    assert.deepEqual(events[0], { type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Zürich 🌤" } })
    assert.deepEqual(events[1], { type: "tool_result", id: "call_1", name: "get_weather", output: "Sunny in Zürich 🌤", isError: false })
    assert.deepEqual(events.slice(2, 6).map((e) => e.delta), PARTS)
    assert.deepEqual(events[6], { type: "usage", usage: { promptTokens: 30, completionTokens: 12, totalTokens: 42 } })
    assert.equal(events[7].result.status, "done")
    if (style === "openai") assert.deepEqual(stub.requests[0].body.stream_options, { include_usage: true })
  })

  test(`${style}: ask with onText (and its deprecated on_text) streams the deltas, resolves to the RunResult and saves history`, async () => {
    stub.script(sse(streamOf(style, ["I am ", "Ada."], [], [3, 2]), { cut: "bytes" }), sse(streamOf(style, ["Still ", "Ada."]), { cut: { random: 5 } }))
    const c = client(style)
    const deltas = []
    const r = await c.ask("Who are you?", { toolkit, id: "thread-1", onText: (t) => deltas.push(t) })
    assert.deepEqual(deltas, ["I am ", "Ada."])
    assert.equal(r.text, "I am Ada.")
    assert.equal(r.usage.totalTokens, 5)
    assert.equal(stub.requests[0].body.stream, true)
    assert.deepEqual(await c.conversationStore().get("thread-1"), r.messages)
    const again = []
    const r2 = await c.ask("And now?", { toolkit, id: "thread-1", on_text: (t) => again.push(t) })
    assert.deepEqual(again, ["Still ", "Ada."])
    const sent = stub.requests[1].body.messages
    assert.deepEqual(sent.slice(0, r.messages.length), r.messages, "the history was loaded")
    assert.deepEqual(await c.conversationStore().get("thread-1"), r2.messages)
  })

  test(`${style}: stream with an id loads the history before and saves it on done`, async () => {
    const c = client(style)
    stub.script(sse(streamOf(style, ["one"]), { cut: [4] }), sse(streamOf(style, ["two"]), { cut: [4] }))
    const first = (await collect(c.stream("first", { toolkit, id: "s-1" }))).at(-1).result
    assert.deepEqual(await c.conversationStore().get("s-1"), first.messages)
    const second = (await collect(c.stream("second", { toolkit, id: "s-1" }))).at(-1).result
    assert.deepEqual(stub.requests[1].body.messages.slice(0, first.messages.length), first.messages)
    assert.deepEqual(await c.conversationStore().get("s-1"), second.messages)
    assert.equal(await c.conversationStore().get("s-none"), undefined)
  })
}

test("a plain run and ask without on_text never ask for a stream", async () => {
  stub.script(openai.text("a"), openai.text("b"))
  await client("openai").run("x", { toolkit })
  await client("openai").ask("y", { toolkit })
  assert.equal(stub.requests.length, 2)
  for (const r of stub.requests) assert.equal("stream" in r.body, false)
})

test("stream rejects a bad prompt or context synchronously with a clear error", () => {
  const c = client("openai")
  assert.throws(() => c.stream(42, { toolkit }), (e) => e.code === "invalid_argument" && /stream: prompt must be a string/.test(e.message))
  assert.throws(() => c.stream("x", {}), (e) => e.code === "invalid_options" && /stream: ctx.toolkit/.test(e.message))
})

test("the in-process client's stream() refuses clearly and never calls generate", async () => {
  let calls = 0
  const c = createInProcessClient({ model: "local", generate: async () => (calls++, { content: "hi" }) })
  const error = await rejection(collect(c.stream("hi", { toolkit })))
  assertCode(error, "model")
  // The reference port's text, word for word.
  assert.match(error.message, /does not support streaming — `generate` returns a complete answer\. Use the non-streaming run/)
  assert.equal(calls, 0)
  const viaAsk = await rejection(c.ask("hi", { toolkit, on_text: () => {} }))
  assert.match(viaAsk.message, /does not support streaming/)
  assert.equal((await c.run("hi", { toolkit })).text, "hi", "run still works")
})

test("a non-2xx answer to a streamed request is a status error with its body", async () => {
  stub.script(plain(400, { error: { message: "stream not allowed here" } }))
  const error = await rejection(collect(client("openai").stream("x", { toolkit })))
  assertCode(error, "http_status")
  assert.match(error.message, /400 from \/v1\/chat\/completions/)
  assert.match(error.message, /stream not allowed here/)
})
