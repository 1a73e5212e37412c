// createClient({style: "anthropic"}) against a real local Messages stub: the endpoint path
// (with and without /v1), the x-api-key / anthropic-version headers, the body (max_tokens,
// system), tool results as one user turn of tool_result blocks, usage, browser access header.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startAnthropicStub, anthropic } from "./support/stub-server.mjs"
import { assertPlainJson, clearKeyEnv, runClientInChild } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startAnthropicStub()
after(() => stub.close())

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up",
  inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
  run: ({ word }) => `${word}: a definition`,
})
const fails = defineTool({ name: "fails", description: "Always fails", run: () => { throw new Error("no luck") } })
const toolkit = await createToolkit({ builtins: false, extraTools: [lookup, fails] })
const empty = await createToolkit({ builtins: false })
const client = (extra = {}) =>
  createClient({ baseUrl: stub.baseUrl, style: "anthropic", model: "claude-x", apiKey: "ak", ...extra })

test("a base URL without /v1 posts to /v1/messages; with /v1 (or /v1/) it is not doubled", async () => {
  for (const baseUrl of [stub.origin, `${stub.origin}/`, `${stub.origin}/v1`, `${stub.origin}/v1/`]) {
    stub.script(anthropic.text("hi"))
    const r = await client({ baseUrl }).run("hello", { toolkit: empty })
    assert.equal(r.text, "hi", baseUrl)
    assert.equal(stub.requests[0].url, "/v1/messages", baseUrl)
    assert.equal(stub.requests[0].method, "POST")
  }
})

test("headers: x-api-key and anthropic-version, no authorization, no browser-access header by default", async () => {
  stub.script(anthropic.text("hi"))
  await client().run("hello", { toolkit: empty })
  const { headers } = stub.requests[0]
  assert.equal(headers["x-api-key"], "ak")
  assert.equal(headers["anthropic-version"], "2023-06-01")
  assert.match(headers["content-type"], /^application\/json/)
  assert.equal("authorization" in headers, false)
  assert.equal("anthropic-dangerous-direct-browser-access" in headers, false)

  stub.script(anthropic.text("hi"))
  await client({ apiKey: undefined }).run("hello", { toolkit: empty })
  assert.equal("x-api-key" in stub.requests[0].headers, false)
  assert.equal(stub.requests[0].headers["anthropic-version"], "2023-06-01")
})

test("the key comes from ANTHROPIC_API_KEY, and OPENROUTER_API_KEY wins over it", async () => {
  const options = { baseUrl: stub.baseUrl, style: "anthropic", model: "claude-x" }
  stub.script(anthropic.text("from child"))
  assert.equal(await runClientInChild({ ANTHROPIC_API_KEY: "ak-env", OPENAI_API_KEY: "sk-other" }, options), "from child")
  assert.equal(stub.requests[0].headers["x-api-key"], "ak-env")

  stub.script(anthropic.text("x"))
  await runClientInChild({ ANTHROPIC_API_KEY: "ak-env", OPENROUTER_API_KEY: "sk-or" }, options)
  assert.equal(stub.requests[0].headers["x-api-key"], "sk-or")
})

test("anthropicBrowserAccess: true sends anthropic-dangerous-direct-browser-access: true", async () => {
  stub.script(anthropic.text("hi"))
  await client({ anthropicBrowserAccess: true }).run("hello", { toolkit: empty })
  assert.equal(stub.requests[0].headers["anthropic-dangerous-direct-browser-access"], "true")

  stub.script(anthropic.text("hi"))
  await client({ anthropicBrowserAccess: false }).run("hello", { toolkit: empty })
  assert.equal("anthropic-dangerous-direct-browser-access" in stub.requests[0].headers, false)
})

test("a full run: body, tool_use blocks, tool results as ONE user turn, usage summed", async () => {
  const uses = [
    { id: "toolu_1", name: "lookup", input: { word: "wasm" } },
    { id: "toolu_2", name: "fails", input: {} },
  ]
  stub.script(
    anthropic.toolUse(uses, anthropic.usage(11, 4), "Let me check."),
    anthropic.text("wasm is a format.", anthropic.usage(30, 9)),
  )
  const r = await client({ systemPrompt: "Be precise." }).run("What is wasm?", { toolkit })

  assert.equal(r.status, "done")
  assert.equal(r.text, "wasm is a format.")
  assert.equal(r.turns, 2)
  assert.equal(r.model, "claude-x")
  assert.deepEqual(r.usage, { promptTokens: 41, completionTokens: 13, totalTokens: 54 })
  assert.equal(r.toolCallCount, 2)
  assert.deepEqual(r.toolCalls[0], { name: "lookup", args: { word: "wasm" }, output: "wasm: a definition", isError: false })
  assert.equal(r.toolCalls[1].name, "fails")
  assert.equal(r.toolCalls[1].isError, true)
  assert.match(r.toolCalls[1].output, /no luck/)
  assertPlainJson(r)

  const [first, second] = stub.requests
  const user = { role: "user", content: "What is wasm?" }
  assert.deepEqual(first.body, {
    model: "claude-x",
    max_tokens: 4096,
    system: "Be precise.",
    messages: [user],
    tools: toolkit.toAnthropic(),
  })
  assert.deepEqual(Object.keys(first.body), ["model", "max_tokens", "system", "messages", "tools"])

  const assistant = { role: "assistant", content: anthropic.blocks(uses, "Let me check.") }
  const results = {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_1", content: "wasm: a definition", is_error: false },
      { type: "tool_result", tool_use_id: "toolu_2", content: r.toolCalls[1].output, is_error: true },
    ],
  }
  assert.deepEqual(second.body.messages, [user, assistant, results])
  assert.equal(second.body.system, "Be precise.")
  assert.deepEqual(r.messages, [user, assistant, results,
    { role: "assistant", content: [{ type: "text", text: "wasm is a format." }] }])
})

test("no system prompt: system is an empty string; an empty toolkit omits tools", async () => {
  stub.script(anthropic.text("hi"))
  await client().run("hello", { toolkit: empty })
  assert.deepEqual(stub.requests[0].body,
    { model: "claude-x", max_tokens: 4096, system: "", messages: [{ role: "user", content: "hello" }] })
})

test("requestParams override max_tokens", async () => {
  stub.script(anthropic.text("hi"))
  await client({ requestParams: { max_tokens: 256, temperature: 0 } }).run("hello", { toolkit: empty })
  assert.equal(stub.requests[0].body.max_tokens, 256)
  assert.equal(stub.requests[0].body.temperature, 0)
})

test("several text blocks are joined into the final text", async () => {
  stub.script({ status: 200, body: { content: [{ type: "text", text: "Hello, " }, { type: "text", text: "world" }], usage: anthropic.usage(1, 2) } })
  const r = await client().run("hi", { toolkit: empty })
  assert.equal(r.text, "Hello, world")
  assert.deepEqual(r.usage, { promptTokens: 1, completionTokens: 2, totalTokens: 3 })
})

test("a tool_use with no input runs the tool with {}", async () => {
  const seen = []
  const probe = defineTool({ name: "probe", run: (args) => { seen.push(args); return "ok" } })
  stub.script(
    { status: 200, body: { content: [{ type: "tool_use", id: "toolu_9", name: "probe" }], usage: anthropic.usage(1, 1) } },
    anthropic.text("done"),
  )
  const r = await client().run("go", { toolkit: await createToolkit({ builtins: false, extraTools: [probe] }) })
  assert.deepEqual(seen, [{}])
  assert.equal(r.text, "done")
})
