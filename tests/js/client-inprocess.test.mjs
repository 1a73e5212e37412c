// createInProcessClient({model, generate}): the same loop with the model in this process.
// generate gets {messages, tools, model, body} with OpenAI-shaped messages, returns {content}
// to finish or {toolCalls} to run tools; its failures and malformed answers reject the run.
import { test } from "node:test"
import assert from "node:assert/strict"
import { getEventListeners } from "node:events"
import { createInProcessClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { assertCode, assertPlainJson, clearKeyEnv, rejection, sleep, thrown } from "./support/helpers.mjs"

clearKeyEnv()
const weather = defineTool({
  name: "weather",
  description: "Weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => `Rain in ${city}`,
})
const toolkit = await createToolkit({ builtins: false, extraTools: [weather] })
const empty = await createToolkit({ builtins: false })

/** A generate that answers from `script` in order and records what it was handed. */
function scripted(...script) {
  const seen = []
  const generate = async (request) => {
    seen.push(structuredClone(request))
    const next = script.shift()
    return typeof next === "function" ? next(request) : next
  }
  return { seen, generate }
}

test("generate gets {messages, tools, model, body}; {content} ends the run", async () => {
  const { seen, generate } = scripted({ content: "Hello!" })
  const r = await createInProcessClient({ model: "local-1", generate, systemPrompt: "sys" }).run("hi", { toolkit })
  assert.equal(r.text, "Hello!")
  assert.equal(r.status, "done")
  assert.equal(r.model, "local-1")
  assert.equal(r.turns, 1)
  assert.deepEqual(r.usage, { promptTokens: 0, completionTokens: 0, totalTokens: 0 })
  const messages = [{ role: "system", content: "sys" }, { role: "user", content: "hi" }]
  assert.deepEqual(seen, [{
    messages,
    tools: toolkit.toOpenAI(),
    model: "local-1",
    body: { model: "local-1", messages, tools: toolkit.toOpenAI(), tool_choice: "auto" },
  }])
  assert.deepEqual(r.messages, [...messages, { role: "assistant", content: "Hello!" }])
  assertPlainJson(r)
})

test("with an empty toolkit, tools is absent from the request", {
}, async () => {
  const { seen, generate } = scripted({ content: "ok" })
  await createInProcessClient({ model: "m", generate }).run("hi", { toolkit: empty })
  assert.equal(seen[0].tools, undefined)
})

test("{toolCalls: [{name, arguments: {...}}]} runs the tools; the next call sees OpenAI-shaped messages", async () => {
  const { seen, generate } = scripted(
    { toolCalls: [{ name: "weather", arguments: { city: "Oslo" } }, { id: "mine", name: "weather", arguments: '{"city":"Bergen"}' }],
      usage: { promptTokens: 5, completionTokens: 2 } },
    { content: "Rainy everywhere.", usage: { promptTokens: 9, completionTokens: 3, totalTokens: 13 } },
  )
  const r = await createInProcessClient({ model: "m", generate }).run("weather?", { toolkit })
  assert.equal(r.text, "Rainy everywhere.")
  assert.equal(r.turns, 2)
  assert.deepEqual(r.usage, { promptTokens: 14, completionTokens: 5, totalTokens: 20 })
  assert.deepEqual(r.toolCalls, [
    { name: "weather", args: { city: "Oslo" }, output: "Rain in Oslo", isError: false },
    { name: "weather", args: { city: "Bergen" }, output: "Rain in Bergen", isError: false },
  ])
  assert.deepEqual(seen[1].messages, [
    { role: "user", content: "weather?" },
    {
      role: "assistant",
      tool_calls: [
        { id: "call_0", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
        { id: "mine", type: "function", function: { name: "weather", arguments: '{"city":"Bergen"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_0", content: "Rain in Oslo" },
    { role: "tool", tool_call_id: "mine", content: "Rain in Bergen" },
  ])
})

test("a synchronous generate and a call without arguments work", async () => {
  const ping = defineTool({ name: "ping", run: () => "pong" })
  const answers = [{ toolCalls: [{ name: "ping" }] }, { content: "got pong" }]
  const r = await createInProcessClient({ model: "m", generate: () => answers.shift() })
    .run("go", { toolkit: await createToolkit({ builtins: false, extraTools: [ping] }) })
  assert.equal(r.text, "got pong")
  assert.deepEqual(r.toolCalls, [{ name: "ping", args: {}, output: "pong", isError: false }])
})

test("a generate that throws or rejects: the run rejects with code model and the thrown message", async () => {
  const failures = [
    () => { throw new Error("GPU out of memory") },
    async () => { await sleep(1); throw new Error("GPU out of memory") },
    () => Promise.reject(new Error("GPU out of memory")),
  ]
  for (const generate of failures) {
    const error = assertCode(await rejection(createInProcessClient({ model: "m", generate }).run("hi", { toolkit })), "model")
    assert.match(error.message, /GPU out of memory/)
  }
  let calls = 0
  const once = () => { calls++; throw new Error("fatal") }
  await rejection(createInProcessClient({ model: "m", generate: once }).run("hi", { toolkit }))
  assert.equal(calls, 1, "failures are final: no retry")
})

test("invalid generate output rejects clearly", async () => {
  const cases = [
    [5, /generate must return/],
    ["text", /generate must return/],
    [null, /generate must return/],
    [undefined, /generate must return/],
    [[{ content: "x" }], /generate must return/],
    [{ toolCalls: "weather" }, /toolCalls must be an array/],
    [{ toolCalls: { name: "weather" } }, /toolCalls must be an array/],
    [{ toolCalls: [{ arguments: {} }] }, /toolCalls\[0\].*name/],
    [{ content: 42 }, /content must be a string/],
  ]
  for (const [answer, pattern] of cases) {
    const error = await rejection(createInProcessClient({ model: "m", generate: async () => answer }).run("hi", { toolkit }))
    assertCode(error, "model")
    assert.match(error.message, pattern, JSON.stringify(answer))
  }
})

test("an empty answer ({}) ends the run with empty text", async () => {
  const r = await createInProcessClient({ model: "m", generate: () => ({}) }).run("hi", { toolkit })
  assert.equal(r.status, "done")
  assert.equal(r.text, "")
})

test("hooks, requestParams and bodyTransform apply to an in-process model", async () => {
  const events = []
  const { seen, generate } = scripted({ toolCalls: [{ name: "weather", arguments: { city: "Rome" } }] }, { content: "done" })
  const client = createInProcessClient({
    model: "m",
    generate,
    requestParams: { temperature: 0.5 },
    bodyTransform: (body) => ({ ...body, seed: 7 }),
    hooks: {
      beforeLLM: ({ turn }) => { events.push(`beforeLLM:${turn}`) },
      afterLLM: ({ response, turn }) => { events.push(`afterLLM:${turn}:${response.choices[0].message.role}`) },
      beforeTool: ({ args }) => { events.push("beforeTool"); return { args: { city: args.city.toUpperCase() } } },
      afterTool: ({ result }) => { events.push("afterTool"); return { result: { ...result, output: `${result.output}!` } } },
    },
  })
  const r = await client.run("go", { toolkit })
  assert.deepEqual(events, ["beforeLLM:0", "afterLLM:0:assistant", "beforeTool", "afterTool", "beforeLLM:1", "afterLLM:1:assistant"])
  assert.equal(r.toolCalls[0].output, "Rain in ROME!")
  assert.equal(seen[0].body.temperature, 0.5)
  assert.equal(seen[0].body.seed, 7)
  assert.equal(seen[1].messages.at(-1).content, "Rain in ROME!")
})

test("ask and conversation remember with an in-process model", async () => {
  const { seen, generate } = scripted({ content: "one" }, { content: "two" }, { content: "three" })
  const client = createInProcessClient({ model: "m", generate })
  await client.ask("a", { toolkit: empty, id: "t" })
  await client.ask("b", { toolkit: empty, id: "t" })
  assert.deepEqual(seen[1].messages.map((m) => m.content), ["a", "one", "b"])
  const chat = client.conversation({ toolkit: empty })
  await chat.send("c")
  assert.deepEqual(chat.messages.map((m) => m.content), ["c", "three"])
})

test("a run's signal reaches the tools; no abort listener is left behind once the run settles", async () => {
  const signals = []
  const ask = defineTool({
    name: "ask",
    run: (_, ctx) => {
      signals.push(ctx.signal)
      return ctx.answer ? "approved" : pending({ kind: "approval", prompt: "ok?" })
    },
  })
  const kit = await createToolkit({ builtins: false, extraTools: [ask] })
  const controller = new AbortController()
  const answers = [{ toolCalls: [{ name: "ask" }, { name: "ask" }] }, { content: "done" }]
  const client = createInProcessClient({ model: "m", generate: () => answers.shift(), waitFor: async (req) => ({ id: req.id, ok: true }) })
  const r = await client.run("go", { toolkit: kit, signal: controller.signal })
  assert.equal(r.text, "done")
  assert.equal(signals.length, 4)
  // Each run has its own signal that follows the caller's (so a deadline can abort it too).
  for (const signal of signals) {
    assert.ok(signal instanceof AbortSignal)
    assert.equal(signal, signals[0])
    assert.equal(signal.aborted, false)
  }
  assert.notEqual(signals[0], controller.signal)
  assert.equal(getEventListeners(controller.signal, "abort").length, 0)
})

test("a run nothing can abort makes no AbortController; a tool that reads ctx.signal gets one that never fires", async () => {
  const Real = globalThis.AbortController
  let made = 0
  globalThis.AbortController = class extends Real {
    constructor() {
      super()
      made++
    }
  }
  try {
    const seen = []
    const quiet = defineTool({ name: "quiet", run: (_, ctx) => { seen.push(Object.keys(ctx)); return "ok" } })
    const reader = defineTool({ name: "reader", run: (_, ctx) => { seen.push([ctx.signal, ctx.signal]); return "ok" } })
    const kit = await createToolkit({ builtins: false, extraTools: [quiet, reader] })
    const run = (name) => {
      const answers = [{ toolCalls: [{ name }] }, { content: "done" }]
      return createInProcessClient({ model: "m", generate: () => answers.shift() }).run("go", { toolkit: kit })
    }
    assert.equal((await run("quiet")).text, "done")
    assert.equal(made, 0, "no controller when no tool reads ctx.signal")
    assert.deepEqual(seen.pop(), ["signal"], "ctx.signal is still there to read")
    assert.equal((await run("reader")).text, "done")
    assert.equal(made, 1, "one controller, made on the first read")
    const [first, second] = seen.pop()
    assert.ok(first instanceof AbortSignal)
    assert.equal(first, second, "the same signal on every read")
    assert.equal(first.aborted, false)
  } finally {
    globalThis.AbortController = Real
  }
})

test("aborting while a tool never settles rejects the run as aborted", async () => {
  const hang = defineTool({ name: "hang", run: () => new Promise(() => {}) })
  const controller = new AbortController()
  const client = createInProcessClient({ model: "m", generate: () => ({ toolCalls: [{ name: "hang" }] }) })
  setTimeout(() => controller.abort(new Error("user cancelled")), 20)
  const kit = await createToolkit({ builtins: false, extraTools: [hang] })
  const error = assertCode(await rejection(client.run("go", { toolkit: kit, signal: controller.signal })), "aborted")
  assert.equal(error.name, "AbortError")
  assert.match(error.message, /user cancelled/)
})

test("missing or mistyped generate/model throws invalid_options", () => {
  for (const options of [{ model: "m" }, { model: "m", generate: "x" }, { generate: () => ({}) }, { model: 5, generate: () => ({}) }, undefined]) {
    assertCode(thrown(() => createInProcessClient(options)), "invalid_options")
  }
  // The reference port's text, word for word.
  const error = thrown(() => createInProcessClient({ model: "m" }))
  assert.equal(error.message, "toolnexus: createInProcessClient requires a `generate` function")
  assert.match(thrown(() => createInProcessClient({ model: "m", generate: "x" })).message, /^toolnexus: createInProcessClient requires a `generate` function, got string$/)
  assertCode(thrown(() => createInProcessClient({ model: "m", generate: () => ({}), retries: -1 })), "invalid_options")
})

test("streaming is refused with the reference port's text, never faked as one chunk", async () => {
  let calls = 0
  const client = createInProcessClient({ model: "m", generate: () => (calls++, { content: "x" }) })
  const error = await rejection((async () => {
    for await (const event of client.stream("hi", { toolkit })) void event
  })())
  assert.ok(
    error.message.includes(
      "toolnexus: createInProcessClient does not support streaming — `generate` returns a complete answer. " +
        "Use the non-streaming run, or supply a `fetch`/transport that streams.",
    ),
    error.message,
  )
  assert.equal(calls, 0, "generate never ran")
})
