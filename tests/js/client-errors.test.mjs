// Failures of a run against real local servers: each is a rejected Error with a `code`, a
// message naming the status and the endpoint path, and never a key or a header value. Tool-level
// failures (unknown tool, bad JSON arguments) go back to the model instead; maxTurns stops a
// model that never answers as "incomplete". The last test runs normally after all of it.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import http from "node:http"
import { createClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startOpenAIStub, startAnthropicStub, openai, anthropic, reply } from "./support/stub-server.mjs"
import { assertCode, clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
const astub = await startAnthropicStub()
after(() => Promise.all([stub.close(), astub.close()]))

const KEY = "sk-live-0123456789abcdef"
const HEADER_SECRET = "secret-value-123"
const echo = defineTool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } }, run: ({ text }) => text })
const toolkit = await createToolkit({ extraTools: [echo] })
const client = (extra = {}) => createClient({
  // These tests are about what an error says; retries have their own tests.
  baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: KEY, headers: { "X-Token": HEADER_SECRET }, retries: 0, ...extra,
})
const messages = []

/** Asserts the error's code, that it names `parts`, and that no secret is in it. */
function check(error, code, ...parts) {
  assertCode(error, code)
  for (const part of parts) assert.ok(error.message.includes(part), `"${part}" in: ${error.message}`)
  assert.ok(!error.message.includes(KEY), `the key leaked: ${error.message}`)
  assert.ok(!error.message.includes(HEADER_SECRET), `a header value leaked: ${error.message}`)
  messages.push(error.message)
  return error
}

test("a 500 with a body: code http_status, the status, the path and the body", async () => {
  stub.script(reply(500, "upstream exploded"))
  const error = check(await rejection(client().run("hi", { toolkit })), "http_status", "500", "/v1/chat/completions", "upstream exploded")
  assert.equal(stub.requests.length, 1, "no retries in this version")
  assert.equal(error.name, "ToolnexusError")
  assert.equal(error.status, 500)

  astub.script(reply(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }))
  const anthropicClient = createClient({ baseUrl: astub.baseUrl, style: "anthropic", model: "c", apiKey: KEY, retries: 0 })
  check(await rejection(anthropicClient.run("hi", { toolkit })), "http_status", "529", "/v1/messages", "Overloaded")
})

test("a 401 echoing the key and a header value: both are redacted", async () => {
  const body = JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY} (X-Token: ${HEADER_SECRET})` } })
  stub.script(reply(401, body))
  const error = check(await rejection(client().run("hi", { toolkit })), "http_status", "401", "/v1/chat/completions", "[redacted]")
  assert.ok(error.message.includes("Incorrect API key provided"), error.message)
  // The header really was sent: redaction is in the message only.
  assert.equal(stub.requests[0].headers["x-token"], HEADER_SECRET)
  assert.equal(stub.requests[0].headers.authorization, `Bearer ${KEY}`)
})

test("a huge error body is truncated in the message", async () => {
  stub.script(reply(502, "x".repeat(10_000)))
  const error = check(await rejection(client().run("hi", { toolkit })), "http_status", "502", "/v1/chat/completions")
  assert.ok(error.message.length < 2500, `message length ${error.message.length}`)
  assert.match(error.message, /10000 bytes/)
})

test("a key straddling the truncation point does not leak a prefix of itself", {
}, async () => {
  stub.script(reply(401, `${"x".repeat(1990)}${KEY}`))
  const error = await rejection(client().run("hi", { toolkit }))
  assertCode(error, "http_status")
  assert.ok(!error.message.includes(KEY.slice(0, 10)), `a key prefix leaked: …${error.message.slice(-50)}`)
})

test("a 200 that cannot be read: code bad_response, naming the path", async () => {
  const cases = [
    reply(200, "<html>gateway page</html>"),
    reply(200, {}),
    reply(200, { choices: [] }),
    reply(200, { choices: [{ message: "text" }] }),
  ]
  for (const response of cases) {
    stub.script(response)
    check(await rejection(client().run("hi", { toolkit })), "bad_response", "/v1/chat/completions")
  }
  stub.script(reply(200, { error: { message: "rate limited upstream" } }))
  check(await rejection(client().run("hi", { toolkit })), "bad_response", "rate limited upstream")

  const anthropicClient = createClient({ baseUrl: astub.baseUrl, style: "anthropic", model: "c", apiKey: KEY, retries: 0 })
  for (const response of [reply(200, { id: "msg", usage: anthropic.usage(1, 1) }), reply(200, "not json")]) {
    astub.script(response)
    check(await rejection(anthropicClient.run("hi", { toolkit })), "bad_response", "/v1/messages")
  }
})

test("connection refused: code network, naming the path", async () => {
  const server = http.createServer()
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  const error = await rejection(client({ baseUrl: `http://127.0.0.1:${port}/v1` }).run("hi", { toolkit }))
  check(error, "network", "/v1/chat/completions")
})

test("a server that drops the connection (before or mid-body): code network", async () => {
  for (const entry of [{ drop: true }, { drop: true, partial: '{"choices": [' }]) {
    stub.script(entry)
    check(await rejection(client().run("hi", { toolkit })), "network", "/v1/chat/completions")
  }
})

test("an AbortSignal aborted before the run: AbortError, code aborted, nothing sent", async () => {
  stub.script(openai.text("unused"))
  for (const signal of [AbortSignal.abort(), AbortSignal.abort(new Error("user left"))]) {
    const error = check(await rejection(client().run("hi", { toolkit, signal })), "aborted")
    assert.equal(error.name, "AbortError")
  }
  assert.equal(stub.requests.length, 0)
})

test("an AbortSignal aborted during the request (the server never answers): AbortError", async () => {
  stub.script({ hang: true })
  const controller = new AbortController()
  const run = client().run("hi", { toolkit, signal: controller.signal })
  await stub.waitForRequests(1)
  controller.abort(new Error("stop now"))
  const error = check(await rejection(run), "aborted")
  assert.equal(error.name, "AbortError")
  assert.match(error.message, /stop now/)
})

test("an abort while the response body is still arriving: AbortError", async () => {
  stub.script({ hang: true, partial: '{"choices": [' })
  const controller = new AbortController()
  const run = client().run("hi", { toolkit, signal: controller.signal })
  await stub.waitForRequests(1)
  setTimeout(() => controller.abort(new Error("halfway")), 30)
  const error = check(await rejection(run), "aborted", "halfway")
  assert.equal(error.name, "AbortError")
})

test("an abort between turns (while a tool runs) stops the run", async () => {
  const controller = new AbortController()
  const slow = defineTool({ name: "slow", run: () => { controller.abort(); return "late" } })
  stub.script(openai.toolCalls([{ id: "c", name: "slow" }]), openai.text("unused"))
  const error = await rejection(client().run("hi", { toolkit: await createToolkit({ extraTools: [slow] }), signal: controller.signal }))
  check(error, "aborted")
  assert.equal(stub.requests.length, 1)
})

test("unknown tools and invalid JSON arguments come back as error tool results; the run goes on", async () => {
  stub.script(
    openai.toolCalls([
      { id: "u", name: "no_such_tool", args: {} },
      { id: "j", name: "echo", args: "{not json" },
      { id: "s", name: "echo", args: { text: 5 } },
      { id: "ok", name: "echo", args: { text: "fine" } },
    ]),
    openai.text("recovered"),
  )
  const r = await client().run("hi", { toolkit })
  assert.equal(r.status, "done")
  assert.equal(r.text, "recovered")
  assert.deepEqual(r.toolCalls.map((c) => c.isError), [true, true, true, false])
  assert.match(r.toolCalls[0].output, /no_such_tool/)
  assert.match(r.toolCalls[1].output, /echo/)
  assert.match(r.toolCalls[1].output, /JSON/i)
  assert.equal(r.toolCalls[3].output, "fine")
  const toolMessages = stub.requests[1].body.messages.filter((m) => m.role === "tool")
  assert.deepEqual(toolMessages.map((m) => m.tool_call_id), ["u", "j", "s", "ok"])
  assert.deepEqual(toolMessages.map((m) => m.content), r.toolCalls.map((c) => c.output))
})

test("maxTurns: 2 with a model that always calls tools: status incomplete, limit maxTurns", async () => {
  const call = (id) => openai.toolCalls([{ id, name: "echo", args: { text: id } }], openai.usage(3, 1))
  stub.script(call("t1"), call("t2"), call("t3"))
  const r = await client({ maxTurns: 2 }).run("loop", { toolkit })
  assert.equal(r.status, "incomplete")
  assert.equal(r.limit, "maxTurns")
  assert.equal(r.turns, 2)
  assert.equal(r.text, "")
  assert.equal(r.toolCallCount, 2)
  assert.deepEqual(r.usage, { promptTokens: 6, completionTokens: 2, totalTokens: 8 })
  assert.equal(stub.requests.length, 2)
  assert.equal("pending" in r, false)
  assert.deepEqual(JSON.parse(JSON.stringify(r)), r)
})

test("maxTurns with a model that also writes text while calling tools ends as done with that text", async () => {
  const withText = reply(200, {
    choices: [{ message: { ...openai.assistant([{ id: "x", name: "echo", args: { text: "a" } }]), content: "thinking" } }],
  })
  stub.script(withText)
  const r = await client({ maxTurns: 1 }).run("loop", { toolkit })
  assert.equal(r.status, "done")
  assert.equal(r.text, "thinking")
  assert.equal("limit" in r, false)
})

test("no error message ever held the key or a header value", () => {
  assert.ok(messages.length >= 10, `checked ${messages.length} messages`)
  for (const message of messages) {
    assert.ok(!message.includes(KEY) && !message.includes(HEADER_SECRET), message)
  }
})

test("after every failure above, the same module instance still serves a normal run", async () => {
  stub.script(openai.toolCalls([{ id: "c", name: "echo", args: { text: "still alive" } }]), openai.text("all good"))
  const r = await client().run("hi", { toolkit })
  assert.equal(r.status, "done")
  assert.equal(r.text, "all good")
  assert.deepEqual(r.toolCalls, [{ name: "echo", args: { text: "still alive" }, output: "still alive", isError: false }])
  astub.script(anthropic.text("anthropic too"))
  const a = await createClient({ baseUrl: astub.baseUrl, style: "anthropic", model: "c" }).run("hi", { toolkit })
  assert.equal(a.text, "anthropic too")
})
