// createClient({style: "openai"}) against a real local Chat Completions stub: the request it
// sends (URL, headers, exact body), the tool loop (parallel calls, results in call order), the
// RunResult it resolves to, key resolution from the environment, requestParams, bodyTransform.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { assertCode, assertPlainJson, clearKeyEnv, deferred, rejection, runClientInChild, timeout } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => `Sunny in ${city}`,
})
const time = defineTool({
  name: "get_time",
  description: "Local time in a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => ({ output: `12:00 in ${city}`, isError: false }),
})
const toolkit = await createToolkit({ builtins: false, extraTools: [weather, time] })
const empty = await createToolkit({ builtins: false })
const client = (extra = {}) => createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "k", ...extra })

test("a full run: two parallel tool calls, then the answer", async () => {
  const calls = [
    { id: "call_w", name: "get_weather", args: { city: "Paris" } },
    { id: "call_t", name: "get_time", args: { city: "Oslo" } },
  ]
  stub.script(openai.toolCalls(calls, openai.usage(10, 5, 15)), openai.text("Sunny, noon.", openai.usage(20, 7, 27)))
  const model = "vendor/Model-Name:free"
  const r = await client({ model, systemPrompt: "You are terse." }).run("Weather and time?", { toolkit })

  assert.equal(r.text, "Sunny, noon.")
  assert.equal(r.status, "done")
  assert.equal(r.model, model)
  assert.equal(r.turns, 2)
  assert.equal(r.toolCallCount, 2)
  assert.deepEqual(r.toolCalls, [
    { name: "get_weather", args: { city: "Paris" }, output: "Sunny in Paris", isError: false },
    { name: "get_time", args: { city: "Oslo" }, output: "12:00 in Oslo", isError: false },
  ])
  assert.deepEqual(r.usage, { promptTokens: 30, completionTokens: 12, totalTokens: 42 })
  assert.equal("pending" in r, false)
  assert.equal("limit" in r, false)
  assertPlainJson(r)

  const system = { role: "system", content: "You are terse." }
  const user = { role: "user", content: "Weather and time?" }
  const results = [
    { role: "tool", tool_call_id: "call_w", content: "Sunny in Paris" },
    { role: "tool", tool_call_id: "call_t", content: "12:00 in Oslo" },
  ]
  assert.deepEqual(r.messages, [system, user, openai.assistant(calls), ...results,
    { role: "assistant", content: "Sunny, noon." }])

  assert.equal(stub.requests.length, 2)
  const [first, second] = stub.requests
  assert.equal(first.method, "POST")
  assert.equal(first.url, "/v1/chat/completions")
  assert.equal(first.headers.authorization, "Bearer k")
  assert.match(first.headers["content-type"], /^application\/json/)
  assert.deepEqual(first.body, { model, messages: [system, user], tools: toolkit.toOpenAI(), tool_choice: "auto" })
  assert.deepEqual(Object.keys(first.body), ["model", "messages", "tools", "tool_choice"])
  assert.deepEqual(second.body, {
    model,
    messages: [system, user, openai.assistant(calls), ...results],
    tools: toolkit.toOpenAI(),
    tool_choice: "auto",
  })
})

test("the base URL may end with a slash; extra headers are sent and win over the client's", async () => {
  stub.script(openai.text("a"))
  const c = createClient({ baseUrl: `${stub.baseUrl}/`, style: "openai", model: "m", apiKey: "k",
    headers: { "X-Trace": "t-1", "HTTP-Referer": "https://app.example" } })
  await c.run("hi", { toolkit: empty })
  const req = stub.requests[0]
  assert.equal(req.url, "/v1/chat/completions")
  assert.equal(req.headers["x-trace"], "t-1")
  assert.equal(req.headers["http-referer"], "https://app.example")
  assert.equal(req.headers.authorization, "Bearer k")

  stub.script(openai.text("b"))
  await client({ headers: { Authorization: "Bearer override" } }).run("hi", { toolkit: empty })
  assert.equal(stub.requests[0].headers.authorization, "Bearer override")
})

test("no apiKey and no key in the environment: no authorization header", async () => {
  stub.script(openai.text("hello"))
  const r = await createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" }).run("hi", { toolkit: empty })
  assert.equal(r.text, "hello")
  assert.equal("authorization" in stub.requests[0].headers, false)

  stub.script(openai.text("hello"))
  await client({ apiKey: "" }).run("hi", { toolkit: empty })
  assert.equal("authorization" in stub.requests[0].headers, false)
})

test("the key comes from OPENAI_API_KEY, and OPENROUTER_API_KEY wins over it", async () => {
  const options = { baseUrl: stub.baseUrl, style: "openai", model: "m" }
  stub.script(openai.text("from child"))
  assert.equal(await runClientInChild({ OPENAI_API_KEY: "sk-env" }, options), "from child")
  assert.equal(stub.requests[0].headers.authorization, "Bearer sk-env")

  stub.script(openai.text("x"))
  await runClientInChild({ OPENAI_API_KEY: "sk-env", OPENROUTER_API_KEY: "sk-or" }, options)
  assert.equal(stub.requests[0].headers.authorization, "Bearer sk-or")

  stub.script(openai.text("x"))
  await runClientInChild({ OPENAI_API_KEY: "sk-env" }, { ...options, apiKey: "sk-explicit" })
  assert.equal(stub.requests[0].headers.authorization, "Bearer sk-explicit")
})

test("tools of one turn run concurrently and their results keep call order", async () => {
  const gate = deferred()
  const order = []
  const waits = defineTool({
    name: "waits",
    run: async () => {
      order.push("waits:start")
      await Promise.race([gate.promise, timeout(3000, "the second tool never ran while the first waited")])
      order.push("waits:end")
      return "waited"
    },
  })
  const releases = defineTool({
    name: "releases",
    run: () => {
      order.push("releases")
      gate.resolve()
      return "released"
    },
  })
  const kit = await createToolkit({ builtins: false, extraTools: [waits, releases] })
  stub.script(
    openai.toolCalls([{ id: "a", name: "waits" }, { id: "b", name: "releases" }]),
    openai.text("done"),
  )
  const r = await client().run("go", { toolkit: kit })
  assert.deepEqual(order, ["waits:start", "releases", "waits:end"])
  assert.deepEqual(r.toolCalls.map((c) => [c.name, c.output]), [["waits", "waited"], ["releases", "released"]])
  assert.deepEqual(stub.requests[1].body.messages.slice(-2), [
    { role: "tool", tool_call_id: "a", content: "waited" },
    { role: "tool", tool_call_id: "b", content: "released" },
  ])
})

test("an empty toolkit sends neither tools nor tool_choice", async () => {
  stub.script(openai.text("plain"))
  const r = await client().run("hi", { toolkit: empty })
  assert.equal(r.text, "plain")
  assert.equal(r.turns, 1)
  assert.deepEqual(r.toolCalls, [])
  assert.deepEqual(stub.requests[0].body, { model: "m", messages: [{ role: "user", content: "hi" }] })
})

test("requestParams are merged into every body and win over the client's keys", async () => {
  stub.script(openai.toolCalls([{ id: "c", name: "get_weather", args: { city: "Rome" } }]), openai.text("ok"))
  const r = await client({ requestParams: { temperature: 0.2, model: "override/model", max_tokens: 64 } })
    .run("hi", { toolkit })
  assert.equal(r.model, "m")
  for (const req of stub.requests) {
    assert.equal(req.body.temperature, 0.2)
    assert.equal(req.body.model, "override/model")
    assert.equal(req.body.max_tokens, 64)
    assert.deepEqual(req.body.tools, toolkit.toOpenAI())
  }
  assert.equal(stub.requests[1].body.messages.length, 3)
})

test("bodyTransform gets the merged body and what it returns is what the server sees", async () => {
  const seen = []
  const bodyTransform = (body) => {
    seen.push(structuredClone(body))
    return { ...body, messages: [{ role: "user", content: "rewritten" }], extra: { a: 1 } }
  }
  stub.script(openai.text("ok"))
  const r = await client({ requestParams: { temperature: 1 }, bodyTransform }).run("hi", { toolkit: empty })
  assert.equal(r.text, "ok")
  assert.deepEqual(seen, [{ model: "m", messages: [{ role: "user", content: "hi" }], temperature: 1 }])
  assert.deepEqual(stub.requests[0].body,
    { model: "m", messages: [{ role: "user", content: "rewritten" }], temperature: 1, extra: { a: 1 } })
  // The run's own transcript is not the rewritten one.
  assert.deepEqual(r.messages[0], { role: "user", content: "hi" })

  for (const unchanged of [() => undefined, () => null, () => false]) {
    stub.script(openai.text("ok"))
    await client({ bodyTransform: unchanged }).run("hi", { toolkit: empty })
    assert.deepEqual(stub.requests[0].body, { model: "m", messages: [{ role: "user", content: "hi" }] })
  }
})

test("a bodyTransform that edits the body in place and returns nothing sends the edited body", {
}, async () => {
  stub.script(openai.text("ok"))
  await client({ bodyTransform: (body) => { body.temperature = 0 } }).run("hi", { toolkit: empty })
  assert.equal(stub.requests[0].body.temperature, 0)
})

test("a bodyTransform that throws (or returns a non-object / a Promise) rejects the run with code hook", async () => {
  const cases = [
    [() => { throw new Error("transform exploded") }, /bodyTransform.*transform exploded/],
    [() => 5, /bodyTransform/],
    [async (body) => body, /bodyTransform/],
  ]
  for (const [bodyTransform, pattern] of cases) {
    stub.script(openai.text("never sent"))
    const error = assertCode(await rejection(client({ bodyTransform }).run("hi", { toolkit: empty })), "hook")
    assert.match(error.message, pattern)
    assert.equal(stub.requests.length, 0)
  }
})

test("the fetch option is the transport: called with (url, {method, headers, body, signal})", async () => {
  const calls = []
  const controller = new AbortController()
  const fetchOption = (url, init) => {
    calls.push({ url, init })
    return fetch(url, init)
  }
  stub.script(openai.text("via custom fetch"))
  const r = await client({ fetch: fetchOption, headers: { "X-A": "1" } }).run("hi", { toolkit: empty, signal: controller.signal })
  assert.equal(r.text, "via custom fetch")
  assert.equal(calls.length, 1)
  assert.equal(calls[0].url, `${stub.baseUrl}/chat/completions`)
  assert.equal(calls[0].init.method, "POST")
  assert.deepEqual(calls[0].init.headers, { Authorization: "Bearer k", "Content-Type": "application/json", "X-A": "1" })
  assert.equal(typeof calls[0].init.body, "string")
  assert.deepEqual(JSON.parse(calls[0].init.body), stub.requests[0].body)
  // The run's own signal, which follows the caller's (and the run's deadline).
  assert.ok(calls[0].init.signal instanceof AbortSignal)
  assert.notEqual(calls[0].init.signal, controller.signal)
  controller.abort()

  const canned = () => Promise.resolve(new Response(JSON.stringify(openai.text("canned").body), { status: 200 }))
  stub.script()
  assert.equal((await client({ fetch: canned }).run("hi", { toolkit: empty })).text, "canned")
  assert.equal(stub.requests.length, 0, "the network is not used")
})

test("two runs of one client at the same time keep their transcripts apart", async () => {
  const echoLast = (req) => openai.text(`echo: ${req.body.messages.at(-1).content}`)
  stub.script(echoLast, echoLast, echoLast)
  const c = client()
  const results = await Promise.all(["one", "two", "three"].map((p) => c.run(p, { toolkit: empty })))
  assert.deepEqual(results.map((r) => r.text), ["echo: one", "echo: two", "echo: three"])
  for (const r of results) assert.equal(r.messages.length, 2)
})

test("unicode survives the round trip to the server and back", async () => {
  const text = "naïve café — 日本語 😀 \u2028 \"quoted\" \\ back"
  stub.script(openai.text(text))
  const r = await client({ systemPrompt: text }).run(text, { toolkit: empty })
  assert.equal(r.text, text)
  assert.deepEqual(stub.requests[0].body.messages, [{ role: "system", content: text }, { role: "user", content: text }])
})

test("a tool registered between runs is in the next run's request body", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather] })
  const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" })
  stub.script(openai.text("one"))
  await client.run("first", { toolkit })
  const sent = () => stub.requests.at(-1).body.tools.map((t) => t.function.name)
  assert.deepEqual(sent(), ["get_weather"])
  toolkit.register(time)
  stub.script(openai.text("two"))
  await client.run("second", { toolkit })
  assert.deepEqual(sent(), ["get_weather", "get_time"])
  assert.deepEqual(stub.requests.at(-1).body.tools, toolkit.toOpenAI())
})

test("run with a history: sent before the prompt (no system message added), returned as a fresh copy, the same with beforeLLM and bodyTransform", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather] })
  const history = [
    { role: "user", content: "earlier \u2028 é \"q\"" },
    { role: "assistant", content: "noted", extra: { keep: [1, 2] } },
  ]
  const calls = [{ id: "call_w", name: "get_weather", args: { city: "Paris" } }]
  const variants = {
    plain: {},
    beforeLLM: { hooks: { beforeLLM: () => undefined } },
    bodyTransform: { bodyTransform: (body) => ({ ...body, seen: true }) },
  }
  for (const [label, extra] of Object.entries(variants)) {
    const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", systemPrompt: "Be terse.", ...extra })
    stub.script(openai.toolCalls(calls), openai.text("done"))
    const before = stub.requests.length
    const r = await client.run("now?", { toolkit, history })
    const [first, second] = stub.requests.slice(before)
    const user = { role: "user", content: "now?" }
    assert.deepEqual(first.body.messages, [...history, user], label)
    assert.equal(second.body.messages.length, 5, label)
    assert.deepEqual(second.body.messages.slice(0, 3), [...history, user], label)
    assert.equal(first.body.seen, label === "bodyTransform" ? true : undefined)
    assert.deepEqual(r.messages.slice(0, 3), [...history, user], label)
    assert.equal(r.messages.length, 6, label)
    assert.notEqual(r.messages[0], history[0], `${label}: a copy, not the caller's object`)
    assertPlainJson(r)
  }
  await assert.rejects(
    createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" }).run("x", { toolkit, history: { not: "an array" } }),
    (e) => e.code === "invalid_options",
  )
})

test("a response body is read as its bytes: a byte order mark is dropped and bytes that are not UTF-8 become U+FFFD, as Response.text() reads them", async () => {
  const reply = JSON.stringify({ choices: [{ message: { role: "assistant", content: "caf\u00e9 XX" } }] })
  // The two X bytes become an invalid lead byte and a lone continuation byte.
  const bytes = new TextEncoder().encode(reply)
  const at = bytes.indexOf(0x58)
  bytes[at] = 0xc3
  bytes[at + 1] = 0x80 + 0x40
  const body = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes])
  const expected = JSON.parse(await new Response(body).text()).choices[0].message.content
  const lite = { status: 200, headers: new Headers(), text: async () => new Response(body).text() }
  for (const answer of [() => new Response(body, { status: 200 }), () => lite]) {
    const c = createClient({ baseUrl: "http://bytes.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch: async () => answer() })
    const r = await c.run("hi", { toolkit: empty })
    assert.equal(r.text, expected)
  }
  assert.ok(expected.includes("\ufffd"), "the invalid bytes were replaced")
})

test("response texts of every size and alphabet come through whole: short, long ASCII, non-ASCII past the one-byte guess, and past a megabyte", async () => {
  const contents = ["ok", "a".repeat(200), `caf\u00e9 \u65e5\u672c \ud83d\ude00 ${"\u00e9".repeat(300)}`, "x".repeat(1_500_000) + "\u00e9", "plain again"]
  for (const content of contents) {
    const reply = JSON.stringify({ choices: [{ message: { role: "assistant", content } }] })
    const lite = { status: 200, headers: new Headers(), text: async () => reply }
    const c = createClient({ baseUrl: "http://texts.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch: async () => lite })
    const r = await c.run("hi", { toolkit: empty })
    assert.equal(r.text.length, content.length)
    assert.equal(r.text, content)
  }
})
