// Conversation memory (SPEC §8): ask(prompt, {toolkit, id}) loads and saves through the
// client's ConversationStore (the in-memory default, or the one passed in, returned as is by
// conversationStore()); a failing save keeps the result with saveError; conversation() keeps a
// transcript between sends; run(prompt, {history}) continues a transcript.
import { createRequire } from "node:module"
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, InMemoryConversationStore } from "../../pkg/node.mjs"
import { startOpenAIStub, startAnthropicStub, openai, anthropic } from "./support/stub-server.mjs"
import { clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
const astub = await startAnthropicStub()
after(() => Promise.all([stub.close(), astub.close()]))
const toolkit = await createToolkit({})
const client = (extra = {}) => createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", ...extra })
const user = (content) => ({ role: "user", content })
const assistant = (content) => ({ role: "assistant", content })

/** A store that records its calls. */
function recordingStore(overrides = {}) {
  const data = new Map()
  const calls = []
  return {
    calls,
    data,
    async get(id) { calls.push(["get", id]); return data.get(id) },
    async save(id, messages) { calls.push(["save", id]); data.set(id, structuredClone(messages)) },
    ...overrides,
  }
}

test("ask with the same id twice: the second request carries the first exchange", async () => {
  const c = client({ systemPrompt: "sys" })
  stub.script(openai.text("Hi Ada."), openai.text("You are Ada."))
  const first = await c.ask("I am Ada", { toolkit, id: "thread-1" })
  const second = await c.ask("Who am I?", { toolkit, id: "thread-1" })
  assert.equal(first.text, "Hi Ada.")
  assert.equal(second.text, "You are Ada.")
  const system = { role: "system", content: "sys" }
  assert.deepEqual(stub.requests[0].body.messages, [system, user("I am Ada")])
  assert.deepEqual(stub.requests[1].body.messages, [system, user("I am Ada"), assistant("Hi Ada."), user("Who am I?")])
  assert.deepEqual(second.messages, [...stub.requests[1].body.messages, assistant("You are Ada.")])

  // Another id is another thread; no id is stateless.
  stub.script(openai.text("new"), openai.text("oneshot"))
  await c.ask("Fresh", { toolkit, id: "thread-2" })
  await c.ask("Alone", { toolkit })
  assert.deepEqual(stub.requests[0].body.messages, [system, user("Fresh")])
  assert.deepEqual(stub.requests[1].body.messages, [system, user("Alone")])
})

test("the default store is the client's own InMemoryConversationStore holding the transcripts", async () => {
  const c = client()
  const store = c.conversationStore()
  assert.ok(store instanceof InMemoryConversationStore)
  assert.equal(await store.get("t"), undefined)
  stub.script(openai.text("pong"))
  const r = await c.ask("ping", { toolkit, id: "t" })
  assert.deepEqual(await store.get("t"), r.messages)
  assert.deepEqual(await c.conversationStore().get("t"), r.messages)

  // A host can rewind the thread through the same store.
  await store.save("t", [user("earlier"), assistant("ok")])
  stub.script(openai.text("again"))
  await c.ask("next", { toolkit, id: "t" })
  assert.deepEqual(stub.requests[0].body.messages, [user("earlier"), assistant("ok"), user("next")])

  // Two clients do not share their default stores.
  assert.equal(await client().conversationStore().get("t"), undefined)
})

test("an InMemoryConversationStore can be shared between clients and copies on get/save", async () => {
  const shared = new InMemoryConversationStore()
  const messages = [user("a")]
  await shared.save("x", messages)
  messages.push(user("b"))
  assert.deepEqual(await shared.get("x"), [user("a")])
  const got = await shared.get("x")
  got.push("mutated")
  assert.deepEqual(await shared.get("x"), [user("a")])

  stub.script(openai.text("seen"))
  const r = await client({ store: shared }).ask("c", { toolkit, id: "x" })
  assert.deepEqual(stub.requests[0].body.messages, [user("a"), user("c")])
  assert.deepEqual(await shared.get("x"), r.messages)
})

test("an InMemoryConversationStore refuses a non-string id and a non-array transcript, as a rejection with a code", async () => {
  const store = new InMemoryConversationStore()
  await assert.rejects(store.get(7), { code: "invalid_argument", message: "get: id must be a string, got number" })
  await assert.rejects(store.save(null, []), { code: "invalid_argument", message: "save: id must be a string, got null" })
  await assert.rejects(store.save("t", { role: "user" }), {
    code: "invalid_argument",
    message: "save: messages must be an array, got object",
  })
  assert.equal(await store.get("t"), undefined)
  // A transcript keeps only what JSON keeps, as it would through any other store.
  await store.save("t", [{ role: "user", content: "hi", extra: undefined, at: new Date(0) }])
  assert.deepEqual(await store.get("t"), [{ role: "user", content: "hi", at: "1970-01-01T00:00:00.000Z" }])
})

test("the module's own glue, loaded without an entry, has no default store and says so", async () => {
  const require = createRequire(import.meta.url)
  const glue = require("../../pkg/node/toolnexus.js")
  assert.throws(() => glue.createClient({ baseUrl: "http://127.0.0.1:1/v1", style: "openai", model: "m" }), {
    code: "invalid_options",
    message: /^createClient: no store option, and no default store/,
  })
  // With a store of its own, a client needs none.
  const store = { get: async () => undefined, save: async () => {} }
  const c = glue.createClient({ baseUrl: "http://127.0.0.1:1/v1", style: "openai", model: "m", store })
  assert.equal(c.conversationStore(), store)
})

test("a custom store is returned by conversationStore() itself and used by ask", async () => {
  const store = recordingStore()
  const c = client({ store })
  assert.equal(c.conversationStore(), store)
  stub.script(openai.text("one"), openai.text("two"))
  await c.ask("first", { toolkit, id: "u-1" })
  await c.ask("second", { toolkit, id: "u-1" })
  assert.deepEqual(store.calls, [["get", "u-1"], ["save", "u-1"], ["get", "u-1"], ["save", "u-1"]])
  assert.deepEqual(store.data.get("u-1"), [user("first"), assistant("one"), user("second"), assistant("two")])

  store.calls.length = 0
  stub.script(openai.text("stateless"))
  await c.ask("no id", { toolkit })
  assert.deepEqual(store.calls, [], "ask without id leaves the store alone")
  stub.script(openai.text("run"))
  await c.run("a run", { toolkit })
  assert.deepEqual(store.calls, [])
})

test("a synchronous store works too", async () => {
  const data = {}
  const store = { get: (id) => data[id], save: (id, messages) => { data[id] = messages } }
  stub.script(openai.text("1"), openai.text("2"))
  const c = client({ store })
  await c.ask("a", { toolkit, id: "s" })
  await c.ask("b", { toolkit, id: "s" })
  assert.deepEqual(stub.requests[1].body.messages, [user("a"), assistant("1"), user("b")])
})

test("a store whose save rejects: ask still resolves with the result and saveError", async () => {
  for (const save of [async () => { throw new Error("disk full") }, () => { throw new Error("disk full") }]) {
    const store = recordingStore({ save })
    stub.script(openai.text("answer"))
    const r = await client({ store }).ask("q", { toolkit, id: "t" })
    assert.equal(r.status, "done")
    assert.equal(r.text, "answer")
    assert.equal(typeof r.saveError, "string")
    assert.match(r.saveError, /disk full/)
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r)
  }
  stub.script(openai.text("answer"))
  const ok = await client({ store: recordingStore() }).ask("q", { toolkit, id: "t" })
  assert.equal("saveError" in ok, false)
})

test("a store whose get rejects (or returns a non-array) rejects ask before the model is called", async () => {
  for (const get of [async () => { throw new Error("db down") }, async () => "not messages"]) {
    stub.script(openai.text("unused"))
    const error = await rejection(client({ store: recordingStore({ get }) }).ask("q", { toolkit, id: "t" }))
    assert.ok(error instanceof Error)
    assert.equal(typeof error.code, "string")
    assert.match(error.message, /db down|array/)
    assert.equal(stub.requests.length, 0)
  }
})

test("conversation().send keeps history; messages is the transcript; reset() clears it", async () => {
  const chat = client({ systemPrompt: "sys" }).conversation({ toolkit })
  assert.deepEqual(chat.messages, [])
  stub.script(openai.text("Hello Ada"), openai.text("Ada"), openai.text("Who?"))
  const first = await chat.send("I am Ada")
  assert.deepEqual(chat.messages, first.messages)
  const second = await chat.send("Name?")
  const system = { role: "system", content: "sys" }
  assert.deepEqual(stub.requests[1].body.messages, [system, user("I am Ada"), assistant("Hello Ada"), user("Name?")])
  assert.deepEqual(chat.messages, second.messages)
  assert.equal(chat.messages.length, 5)

  // `messages` is a copy.
  chat.messages.push("junk")
  assert.equal(chat.messages.length, 5)

  chat.reset()
  assert.deepEqual(chat.messages, [])
  await chat.send("Name?")
  assert.deepEqual(stub.requests[2].body.messages, [system, user("Name?")])
})

test("run(prompt, {toolkit, history}) continues a transcript (no second system message)", async () => {
  const c = client({ systemPrompt: "sys" })
  stub.script(openai.text("first answer"), openai.text("second answer"))
  const r1 = await c.run("one", { toolkit })
  const r2 = await c.run("two", { toolkit, history: r1.messages })
  assert.deepEqual(stub.requests[1].body.messages, [...r1.messages, user("two")])
  assert.equal(stub.requests[1].body.messages.filter((m) => m.role === "system").length, 1)
  assert.deepEqual(r2.messages, [...r1.messages, user("two"), assistant("second answer")])
  // The caller's history array is not modified.
  assert.equal(r1.messages.length, 3)
})

test("anthropic: ask remembers too, with anthropic-shaped messages", async () => {
  const c = createClient({ baseUrl: astub.baseUrl, style: "anthropic", model: "c", systemPrompt: "sys" })
  astub.script(anthropic.text("Hi"), anthropic.text("Again"))
  await c.ask("hello", { toolkit, id: "a" })
  await c.ask("more", { toolkit, id: "a" })
  const body = astub.requests[1].body
  assert.equal(body.system, "sys")
  assert.deepEqual(body.messages, [user("hello"), { role: "assistant", content: [{ type: "text", text: "Hi" }] }, user("more")])
})
