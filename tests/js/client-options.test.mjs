// createClient option validation: a missing or mistyped option throws at construction with
// code "invalid_options"; the reference options this version does not have yet throw with code
// "unsupported"; forbidden requestParams keys are stripped with a console warning.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit } from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { assertCode, clearKeyEnv, thrown } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())
const toolkit = await createToolkit({ builtins: false })
const valid = { baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m" }

test("a valid minimal option set makes a client", () => {
  const client = createClient(valid)
  for (const method of ["run", "ask", "conversation", "conversationStore"]) {
    assert.equal(typeof client[method], "function", method)
  }
  assert.equal(typeof createClient({ ...valid, style: "anthropic" }).run, "function")
})

test("missing baseUrl, model or style throws invalid_options naming it", () => {
  const cases = [
    [{ style: "openai", model: "m" }, /baseUrl/],
    [{ baseUrl: valid.baseUrl, style: "openai" }, /model/],
    [{ baseUrl: valid.baseUrl, model: "m" }, /style/],
    [{}, /style|baseUrl|model/],
  ]
  for (const [options, pattern] of cases) {
    const error = assertCode(thrown(() => createClient(options)), "invalid_options")
    assert.match(error.message, pattern)
  }
})

test("an unknown style throws invalid_options", () => {
  for (const style of ["gemini", "OpenAI", "", 5, null, {}]) {
    const error = assertCode(thrown(() => createClient({ ...valid, style })), "invalid_options")
    assert.match(error.message, /style/, String(style))
  }
})

test("options that are not an object throw invalid_options", () => {
  for (const options of [undefined, null, 5, "openai", true]) {
    assertCode(thrown(() => createClient(options)), "invalid_options")
  }
})

test("mistyped options throw invalid_options naming the option", () => {
  const cases = [
    [{ baseUrl: 5 }, /baseUrl/],
    [{ model: 42 }, /model/],
    [{ model: {} }, /model/],
    [{ apiKey: 123 }, /apiKey/],
    [{ systemPrompt: ["x"] }, /systemPrompt/],
    [{ headers: "x-a: b" }, /headers/],
    [{ headers: { "x-a": 5 } }, /headers/],
    [{ maxTurns: 0 }, /maxTurns/],
    [{ maxTurns: 1.5 }, /maxTurns/],
    [{ maxTurns: "3" }, /maxTurns/],
    [{ maxTurns: -1 }, /maxTurns/],
    [{ hooks: 5 }, /hooks/],
    [{ hooks: "beforeLLM" }, /hooks/],
    [{ bodyTransform: "x" }, /bodyTransform/],
    [{ waitFor: true }, /waitFor/],
    [{ fetch: "fetch" }, /fetch/],
    [{ requestParams: ["temperature"] }, /requestParams/],
    [{ requestParams: "t=1" }, /requestParams/],
    [{ store: {} }, /store/],
    [{ store: { get() {} } }, /store/],
    [{ store: 5 }, /store/],
  ]
  for (const [bad, pattern] of cases) {
    const error = assertCode(thrown(() => createClient({ ...valid, ...bad })), "invalid_options")
    assert.match(error.message, pattern, JSON.stringify(bad))
  }
})

test("a refused option says what it got, and never echoes a string that may be a secret", () => {
  const said = (bad) => thrown(() => createClient({ ...valid, ...bad })).message
  assert.equal(said({ style: "gemini" }), 'createClient: style must be "openai" or "anthropic", got "gemini"')
  assert.equal(said({ style: 5 }), 'createClient: style must be "openai" or "anthropic", got 5')
  assert.equal(said({ style: null }), 'createClient: style must be "openai" or "anthropic", got null')
  assert.equal(said({ maxTurns: 0 }), "createClient: maxTurns must be a whole number from 1 to 10000, got 0")
  assert.equal(said({ maxTurns: "3" }), 'createClient: maxTurns must be a whole number from 1 to 10000, got "3"')
  assert.equal(said({ hooks: 5 }), "createClient: hooks must be an object, got number")
  assert.equal(said({ headers: { "x-a": 5 } }), 'createClient: headers["x-a"] must be a string, got number')
  assert.equal(said({ requestParams: ["temperature"] }), "createClient: requestParams must be an object, got array")
  assert.match(said({ retries: 1.5 }), /^createClient: retries must be a whole number from 0 to 100, got 1\.5$/)
  // A key pasted into the wrong option: its type only.
  const key = "sk-live-0123456789abcdefghijklmnop"
  const message = said({ style: key })
  assert.equal(message, 'createClient: style must be "openai" or "anthropic", got a string')
  assert.ok(!message.includes(key))
})

test("resilience and observability options are validated", () => {
  for (const options of [{ retries: 0 }, { retries: 5 }, { retryBaseMs: 0 }, { timeoutMs: 1000 }, { onMetric: () => {} }, { onError: () => "fail" }]) {
    assert.ok(createClient({ ...valid, ...options }), JSON.stringify(options))
  }
  for (const [key, value] of [["retries", -1], ["retries", 1.5], ["retries", "2"], ["retryBaseMs", -5], ["timeoutMs", 0], ["onMetric", 3], ["onError", "retry"]]) {
    const error = assertCode(thrown(() => createClient({ ...valid, [key]: value })), "invalid_options")
    assert.match(error.message, new RegExp(key), key)
  }
})

test("requestParams messages/tools/stream are stripped with a console.warn; the rest is sent", async (t) => {
  const warnings = []
  t.mock.method(console, "warn", (...args) => warnings.push(args.join(" ")))
  const client = createClient({
    baseUrl: stub.baseUrl,
    style: "openai",
    model: "m",
    requestParams: { messages: [{ role: "user", content: "injected" }], tools: [1], stream: true, temperature: 0 },
  })
  assert.equal(warnings.length, 3, warnings.join("\n"))
  for (const key of ["messages", "tools", "stream"]) {
    assert.ok(warnings.some((w) => w.includes(`"${key}"`)), `warned about ${key}: ${warnings.join("\n")}`)
  }
  stub.script(openai.text("ok"))
  const r = await client.run("hi", { toolkit })
  assert.equal(r.text, "ok")
  const body = stub.requests[0].body
  assert.deepEqual(body, { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 0 })
})

test("bad run arguments reject without calling the endpoint", async () => {
  const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" })
  stub.script()
  const noToolkit = await client.run("hi", {}).catch((e) => e)
  assertCode(noToolkit, "invalid_options")
  assert.match(noToolkit.message, /toolkit/)
  assertCode(await client.run("hi", { toolkit: {} }).catch((e) => e), "invalid_options")
  assertCode(await client.run("hi", { toolkit, history: "x" }).catch((e) => e), "invalid_options")
  assertCode(await client.run("hi", { toolkit, signal: 5 }).catch((e) => e), "invalid_options")
  assertCode(await client.run(5, { toolkit }).catch((e) => e), "invalid_argument")
  assertCode(await client.ask(undefined, { toolkit }).catch((e) => e), "invalid_argument")
  assert.equal(stub.requests.length, 0)
})
