// Two ways a run avoids copying a transcript through the module. A history given to `run`
// stays JavaScript text: each request body is completed in JavaScript, and what the real
// 127.0.0.1 server receives is the history byte for byte (retries and tool turns included).
// And a RunResult's `messages` and `toolCalls` arrive as JSON text parsed on first read: the
// result still behaves as plain data (keys, JSON, structuredClone, spread, assignment).
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool, pending } from "../../pkg/node.mjs"
import { startOpenAIStub, openai, reply } from "./support/stub-server.mjs"
import { assertPlainJson, clearKeyEnv } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

const echo = defineTool({
  name: "echo",
  description: "Echoes its text",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  run: ({ text }) => `echo:${text}`,
})
const toolkit = await createToolkit({ builtins: false, extraTools: [echo] })

// Characters that need care on the way: a NUL (JSON writes it `\u0000`), the text `\u0000`
// itself, a line separator, non-ASCII and an astral character; and one long message.
const history = [
  { role: "user", content: "nul:\u0000 text:\\u0000 sep:\u2028 é 😀 \"q\"" },
  { role: "assistant", content: "x".repeat(200_000) },
]
const items = JSON.stringify(history).slice(1, -1)

test("a history is sent byte for byte in every request, a retry's and a tool turn's too", async () => {
  stub.script(
    reply(503, { error: { message: "busy" } }),
    openai.toolCalls([{ id: "call_1", name: "echo", args: { text: "hi" } }]),
    openai.text("done"),
  )
  const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", retries: 1, retryBaseMs: 0 })
  const before = stub.requests.length
  const r = await client.run("now?", { toolkit, history })
  const sent = stub.requests.slice(before)
  assert.equal(sent.length, 3)
  const user = '{"role":"user","content":"now?"}'
  for (const [i, request] of sent.entries()) {
    assert.ok(request.text.includes(`"messages":[${items},${user}`), `request ${i} holds the history as it is`)
    assert.ok(!request.text.includes("\u0000"), `request ${i} holds no raw NUL`)
    assert.deepEqual(request.body.messages.slice(0, 2), history, `request ${i}`)
  }
  assert.equal(sent[0].text, sent[1].text, "the retry sends the same body")
  assert.equal(sent[2].body.messages.length, 5)
  assert.equal(r.text, "done")
  assert.deepEqual(r.messages.slice(0, 2), history, "the result starts with the history")
  assert.equal(r.messages.length, 6)
  assert.deepEqual(r.messages.at(-2), { role: "tool", tool_call_id: "call_1", content: "echo:hi" })
})

test("a fetch option gets the whole body as one string", async () => {
  const bodies = []
  const fetch = async (url, init) => {
    bodies.push(init.body)
    return new Response(JSON.stringify(openai.text("ok").body), { headers: { "content-type": "application/json" } })
  }
  const client = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: "m", fetch })
  const r = await client.run("now?", { toolkit, history })
  assert.equal(r.text, "ok")
  assert.equal(typeof bodies[0], "string")
  assert.deepEqual(JSON.parse(bodies[0]).messages, [...history, { role: "user", content: "now?" }])
})

test("an empty history is no history, and a history that cannot be JSON is an invalid_options error", async () => {
  stub.script(openai.text("fresh"))
  const r = await createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", systemPrompt: "S" }).run("hi", { toolkit, history: [] })
  assert.deepEqual(r.messages.map((m) => m.role), ["system", "user", "assistant"])
  const cyclic = [{ role: "user", content: "a" }]
  cyclic[0].self = cyclic
  const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" })
  await assert.rejects(client.run("x", { toolkit, history: cyclic }), (e) => e.code === "invalid_options")
  await assert.rejects(client.run("x", { toolkit, history: [1n] }), (e) => e.code === "invalid_options")
})

test("a RunResult is plain data: its lists parse on first read, then behave as ordinary properties", async () => {
  stub.script(openai.toolCalls([{ id: "call_1", name: "echo", args: { text: "a" } }]), openai.text("fine"))
  const r = await createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" }).run("go", { toolkit })
  assert.deepEqual(Object.keys(r), ["text", "messages", "toolCalls", "toolCallCount", "turns", "usage", "model", "status"])
  const viaJson = JSON.parse(JSON.stringify(r))
  assert.deepEqual(structuredClone(r), viaJson)
  assert.deepEqual({ ...r }, viaJson)
  assert.equal(r.messages, r.messages, "read twice, the same array")
  assert.deepEqual(r.toolCalls, [{ name: "echo", args: { text: "a" }, output: "echo:a", isError: false }])
  r.messages.push({ role: "user", content: "more" })
  assert.equal(r.messages.length, 5, "changes stay")
  r.toolCalls = []
  assert.deepEqual(r.toolCalls, [])
  assert.deepEqual(Object.getOwnPropertyDescriptor(r, "messages"), { value: r.messages, writable: true, enumerable: true, configurable: true })
  assertPlainJson(r)
})

test("assigning a list before reading it replaces it without parsing", async () => {
  stub.script(openai.text("x"))
  const r = await createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" }).run("go", { toolkit })
  r.messages = ["mine"]
  assert.deepEqual(r.messages, ["mine"])
  delete r.toolCalls
  assert.equal("toolCalls" in r, false)
})

test("a conversation's results are the same plain data", async () => {
  stub.script(openai.text("one"), openai.text("two"))
  const conversation = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" }).conversation({ toolkit })
  await conversation.send("hi")
  const second = await conversation.send("again")
  assert.deepEqual(second.messages, conversation.messages)
  assert.deepEqual(second.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"])
  assertPlainJson(second)
})

test("a halted and a stopped result keep the contract's key order, their extra fields last", async () => {
  const ask = defineTool({
    name: "ask",
    description: "Asks first",
    inputSchema: { type: "object" },
    run: () => pending({ id: "req-1", kind: "approval", prompt: "Go?" }),
  })
  const kit = await createToolkit({ builtins: false, extraTools: [ask, echo] })
  const keys = ["text", "messages", "toolCalls", "toolCallCount", "turns", "usage", "model", "status"]
  stub.script(openai.toolCalls([{ id: "call_a", name: "ask", args: {} }]))
  const halted = await createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" }).run("go", { toolkit: kit })
  assert.equal(halted.status, "pending")
  assert.deepEqual(Object.keys(halted), [...keys, "pending"])
  assert.deepEqual(halted.pending, { id: "req-1", kind: "approval", prompt: "Go?" })
  assertPlainJson(halted)
  stub.script(openai.toolCalls([{ id: "call_e", name: "echo", args: { text: "a" } }]))
  const stopped = await createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", maxTurns: 1 }).run("go", { toolkit: kit })
  assert.equal(stopped.status, "incomplete")
  assert.deepEqual(Object.keys(stopped), [...keys, "limit"])
  assert.equal(stopped.limit, "maxTurns")
})

test("a result's lists read through an object that inherits from it are the result's own; assigned through it, that object's", async () => {
  stub.script(openai.text("inherited"))
  const r = await createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m" }).run("go", { toolkit })
  const reader = Object.create(r)
  assert.deepEqual(reader.toolCalls, [])
  assert.equal(reader.toolCalls, r.toolCalls)
  const writer = Object.create(r)
  writer.messages = ["the writer's own"]
  assert.deepEqual(writer.messages, ["the writer's own"])
  assert.deepEqual(Object.keys(writer), ["messages"])
  assert.deepEqual(r.messages.map((m) => m.role), ["user", "assistant"], "the result keeps its own list")
  assert.equal(reader.messages, r.messages)
})
