// Stores and relays on the built package: askWithAnswer through a file-backed store (a wrong id
// leaves the file untouched), a relay round trip through JSON, the relay collision guard, the
// Web Storage store over a Storage look-alike (quota errors included), and IndexedDB's clear
// refusal where there is no indexedDB.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  createInProcessClient, createToolkit, defineTool, pending, relayTool,
  IndexedDbConversationStore, WebStorageConversationStore,
} from "../../pkg/node.mjs"
import { assertCode, rejection, thrown } from "./support/helpers.mjs"

const dir = mkdtempSync(join(tmpdir(), "toolnexus-stores-"))
after(() => rmSync(dir, { recursive: true, force: true }))

/** A conversation store over one JSON file per id. */
class FileStore {
  constructor(root) { this.root = root }
  path(id) { return join(this.root, `${encodeURIComponent(id)}.json`) }
  async get(id) { return existsSync(this.path(id)) ? JSON.parse(readFileSync(this.path(id), "utf8")) : undefined }
  async save(id, messages) { writeFileSync(this.path(id), JSON.stringify(messages)) }
}

const book = defineTool({
  name: "book",
  description: "Books a table; asks first",
  inputSchema: { type: "object", properties: { guests: { type: "number" } }, required: ["guests"] },
  run: (args, ctx) => (ctx.answer?.ok ? `booked for ${args.guests}` : pending({ id: "req-book", kind: "approval", prompt: `Book for ${args.guests}?` })),
})

/** An in-process model: calls `name` once with `args`, then reports the tool results it got. */
function scripted(calls) {
  const seen = []
  const generate = ({ messages }) => {
    seen.push(structuredClone(messages))
    const last = messages.at(-1)
    if (last.role === "tool") {
      const results = messages.filter((m) => m.role === "tool").map((m) => m.content)
      return { content: `Results: ${results.join(" | ")}` }
    }
    return { toolCalls: calls }
  }
  return { generate, seen }
}

test("askWithAnswer resumes through a file-backed store and saves the balanced transcript", async () => {
  const store = new FileStore(dir)
  const model = scripted([{ id: "c1", name: "book", arguments: { guests: 4 } }])
  const client = createInProcessClient({ model: "scripted", generate: model.generate, store })
  const toolkit = await createToolkit({ extraTools: [book], builtins: false })
  const halted = await client.ask("Book for 4", { toolkit, id: "dinner" })
  assert.equal(halted.status, "pending")
  assert.deepEqual(await store.get("dinner"), halted.messages)

  const before = readFileSync(store.path("dinner"), "utf8")
  const wrong = await rejection(client.askWithAnswer({ toolkit, id: "dinner", pending: halted.pending, answer: { id: "nope", ok: true } }))
  assertCode(wrong, "invalid_resume")
  assert.equal(readFileSync(store.path("dinner"), "utf8"), before, "a refused resume leaves the store as it was")

  const stored = JSON.parse(JSON.stringify(halted.pending))
  const done = await client.askWithAnswer({ toolkit, id: "dinner", pending: stored, answer: { id: stored.id, ok: true } })
  assert.equal(done.status, "done")
  assert.equal(done.text, "Results: booked for 4")
  const saved = await store.get("dinner")
  assert.deepEqual(saved, done.messages)
  assert.deepEqual(saved.filter((m) => m.role === "tool"), [{ role: "tool", tool_call_id: "c1", content: "booked for 4" }])
  assert.equal(saved.filter((m) => m.role === "user").length, 1)
})

test("a relay round trip: the calls go out as JSON, the host's results come back", async () => {
  const lookup = relayTool("lookup", "Looks a person up on the host", { type: "object", properties: { name: { type: "string" } } })
  assert.equal(lookup.source, "relay")
  const toolkit = await createToolkit({ extraTools: [lookup], builtins: false })
  const model = scripted([
    { id: "c1", name: "lookup", arguments: { name: "Ada" } },
    { id: "c2", name: "lookup", arguments: { name: "Alan" } },
  ])
  const client = createInProcessClient({ model: "scripted", generate: model.generate })
  const halted = JSON.parse(JSON.stringify(await client.run("Who are they?", { toolkit })))
  assert.equal(halted.status, "pending")
  assert.equal(halted.pending.kind, "tool_call")
  assert.deepEqual(halted.pending.data.calls, [
    { id: "c1", name: "lookup", input: { name: "Ada" }, arguments: '{"name":"Ada"}' },
    { id: "c2", name: "lookup", input: { name: "Alan" }, arguments: '{"name":"Alan"}' },
  ])
  // The host runs the calls (here: a table) and answers with one result per id.
  const people = { Ada: "Ada Lovelace, 1815", Alan: "Alan Turing, 1912" }
  const results = halted.pending.data.calls.map((c) => ({ id: c.id, output: people[c.input.name], isError: false }))
  const answer = JSON.parse(JSON.stringify({ id: halted.pending.id, ok: true, data: { results } }))
  const fresh = createInProcessClient({ model: "scripted", generate: model.generate })
  const done = await fresh.runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer })
  assert.equal(done.status, "done")
  assert.equal(done.text, "Results: Ada Lovelace, 1815 | Alan Turing, 1912")

  // ok: false gives every relay call an error result.
  const refused = await fresh.runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending, answer: { id: halted.pending.id, ok: false } })
  const tools = refused.messages.filter((m) => m.role === "tool").map((m) => m.content)
  assert.deepEqual(tools, ["declined/expired: Run on the host: lookup, lookup", "declined/expired: Run on the host: lookup, lookup"])
})

test("a relay tool named like a built-in tool is refused, even with built-ins off", async () => {
  for (const builtins of [false, undefined]) {
    const error = await rejection(createToolkit({ extraTools: [relayTool("bash", "not the shell")], builtins }))
    assertCode(error, "invalid_tool")
    assert.match(error.message, /relay tool "bash" has the name of a built-in tool/)
  }
  const toolkit = await createToolkit({ builtins: false })
  assertCode(thrown(() => toolkit.register(relayTool("read", "reads on the host"))), "invalid_tool")
  assert.equal(toolkit.get("read"), undefined)
  // Any other name is fine, and a non-relay tool may still shadow nothing.
  toolkit.register(relayTool("read_host_file", "reads on the host"))
  assert.equal(toolkit.get("read_host_file").source, "relay")
})

test("relayTool takes an options object as every other maker does; the positional form stays", () => {
  const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] }
  const byOptions = relayTool({ name: "find", description: "Finds on the host", inputSchema: schema })
  const byPosition = relayTool("find", "Finds on the host", schema)
  for (const tool of [byOptions, byPosition]) {
    assert.equal(tool.name, "find")
    assert.equal(tool.description, "Finds on the host")
    assert.equal(tool.source, "relay")
    assert.deepEqual(tool.inputSchema, schema)
  }
  assert.deepEqual(relayTool({ name: "bare", description: "no schema" }).inputSchema, relayTool("bare", "no schema").inputSchema)
  assertCode(thrown(() => relayTool({ description: "no name" })), "invalid_tool")
  assertCode(thrown(() => relayTool({ name: "x", description: "d", inputSchema: 5 })), "invalid_tool")
})

/** A Storage look-alike; `limit` characters in all, beyond which setItem throws like a browser. */
function fakeStorage(limit = Infinity) {
  const map = new Map()
  const size = () => [...map].reduce((n, [k, v]) => n + k.length + v.length, 0)
  return {
    map,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem(k, v) {
      const grown = size() - (map.get(k)?.length ?? 0) + (map.has(k) ? 0 : k.length) + v.length
      if (grown > limit) throw new DOMException("The quota has been exceeded.", "QuotaExceededError")
      map.set(k, String(v))
    },
    removeItem: (k) => map.delete(k),
  }
}

test("WebStorageConversationStore keeps transcripts and halted runs under its prefix", async () => {
  const storage = fakeStorage()
  const store = new WebStorageConversationStore(storage, "app:")
  assert.equal(await store.get("t1"), undefined)
  await store.save("t1", [{ role: "user", content: "hi" }])
  assert.deepEqual(await store.get("t1"), [{ role: "user", content: "hi" }])
  assert.deepEqual([...storage.map.keys()], ["app:conversation:t1"])

  const model = scripted([{ id: "c1", name: "book", arguments: { guests: 2 } }])
  const client = createInProcessClient({ model: "scripted", generate: model.generate, store })
  const toolkit = await createToolkit({ extraTools: [book], builtins: false })
  const halted = await client.ask("Book for 2", { toolkit, id: "t2" })
  await store.savePending("t2", halted)
  assert.ok(storage.map.has("app:pending:t2"))
  const loaded = await store.loadPending("t2")
  assert.deepEqual(loaded, JSON.parse(JSON.stringify(halted)))
  const done = await client.askWithAnswer({ toolkit, id: "t2", pending: loaded.pending, answer: { id: loaded.pending.id, ok: true } })
  assert.equal(done.text, "Results: booked for 2")
  assert.deepEqual(await store.get("t2"), done.messages)
  await store.deletePending("t2")
  assert.equal(await store.loadPending("t2"), undefined)

  assertCode(await rejection(store.savePending("x", { status: "done", messages: [] })), "invalid_argument")
  assertCode(await rejection(store.save("x", "not messages")), "invalid_argument")
  assertCode(await rejection(store.get(42)), "invalid_argument")
  storage.setItem("app:conversation:bad", "{not json")
  assertCode(await rejection(store.get("bad")), "store")
})

test("a full Web Storage rejects with quota_exceeded and a clear message; the old value stays", async () => {
  const storage = fakeStorage(200)
  const store = new WebStorageConversationStore(storage)
  await store.save("small", [{ role: "user", content: "hi" }])
  const error = await rejection(store.save("small", [{ role: "user", content: "x".repeat(500) }]))
  assertCode(error, "quota_exceeded")
  assert.match(error.message, /^save: the storage is full: \d+ characters under "toolnexus:conversation:small" did not fit/)
  assert.match(error.message, /IndexedDbConversationStore/)
  assert.deepEqual(await store.get("small"), [{ role: "user", content: "hi" }])
})

test("stores refuse clearly where the runtime has no such storage", () => {
  const idb = thrown(() => new IndexedDbConversationStore())
  assertCode(idb, "unsupported")
  assert.match(idb.message, /IndexedDB is not available in this runtime/)
  if (globalThis.localStorage === undefined) {
    assertCode(thrown(() => new WebStorageConversationStore("local")), "unsupported")
    assertCode(thrown(() => new WebStorageConversationStore()), "unsupported")
  }
  if (globalThis.sessionStorage === undefined) {
    assert.match(thrown(() => new WebStorageConversationStore("session")).message, /sessionStorage is not available/)
  }
  assertCode(thrown(() => new WebStorageConversationStore("disk")), "invalid_argument")
})
