// ToolnexusError: every failure the library reports is one, from the wasm module (a failed run,
// a refused option) and from its plain-JavaScript parts (stores, httpTool); `status` and
// `retryable` say what a caller can do; `isToolnexusError` also knows one made by another copy
// of the package (here the CommonJS build, a second class object).
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createRequire } from "node:module"
import { createClient, createToolkit, defineTool, httpTool, InMemoryConversationStore, ToolnexusError, isToolnexusError } from "../../pkg/node.mjs"
import * as core from "../../pkg/core/node.mjs"
import { startOpenAIStub, reply, openai } from "./support/stub-server.mjs"
import { clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())
const toolkit = await createToolkit({})
const client = (extra = {}) => createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "sk-test", retries: 0, ...extra })

test("an HTTP failure: a ToolnexusError with code, status and retryable", async () => {
  stub.script(reply(401, "bad key"))
  const unauthorized = await rejection(client().run("hi", { toolkit }))
  assert.ok(unauthorized instanceof ToolnexusError)
  assert.ok(unauthorized instanceof Error)
  assert.equal(unauthorized.name, "ToolnexusError")
  assert.equal(unauthorized.code, "http_status")
  assert.equal(unauthorized.status, 401)
  assert.equal(unauthorized.retryable, false, "a 401 will fail again")
  assert.match(unauthorized.message, /LLM 401 from \/v1\/chat\/completions: bad key/)

  stub.script(reply(503, "busy"))
  const busy = await rejection(client().run("hi", { toolkit }))
  assert.equal(busy.status, 503)
  assert.equal(busy.retryable, true, "a 503 may pass later")
})

test("a network failure is retryable and has no status", async () => {
  const error = await rejection(client({ baseUrl: "http://127.0.0.1:1/v1" }).run("hi", { toolkit }))
  assert.ok(isToolnexusError(error))
  assert.equal(error.code, "network")
  assert.equal(error.status, undefined)
  assert.equal(error.retryable, true)
})

test("an aborted run stays an AbortError by name and is a ToolnexusError", async () => {
  const controller = new AbortController()
  controller.abort(new Error("user left"))
  const error = await rejection(client().run("hi", { toolkit, signal: controller.signal }))
  assert.equal(error.name, "AbortError")
  assert.equal(error.code, "aborted")
  assert.ok(error instanceof ToolnexusError)
  assert.equal(error.retryable, false)
})

test("refused options from the module and from the plain-JavaScript makers", async () => {
  const fromModule = (() => {
    try {
      createClient({ style: "openai" })
    } catch (e) {
      return e
    }
  })()
  assert.ok(fromModule instanceof ToolnexusError, String(fromModule))
  assert.equal(fromModule.code, "invalid_options")

  assert.throws(() => defineTool({ name: "bad name!", run: () => "" }), (e) => e instanceof ToolnexusError && e.code === "invalid_tool")
  assert.throws(() => httpTool({ name: "h" }), (e) => e instanceof ToolnexusError && e.code === "invalid_options")
  const fromStore = await rejection(new InMemoryConversationStore().get(42))
  assert.ok(fromStore instanceof ToolnexusError)
  assert.equal(fromStore.code, "invalid_argument")
})

test("isToolnexusError: across copies of the package, and false for everything else", () => {
  const require = createRequire(import.meta.url)
  const cjs = require("../../pkg/node.cjs")
  assert.notEqual(cjs.ToolnexusError, ToolnexusError, "two copies, two classes")
  const other = new cjs.ToolnexusError("store", "from the other copy")
  assert.ok(!(other instanceof ToolnexusError))
  assert.ok(isToolnexusError(other))
  assert.ok(cjs.isToolnexusError(new ToolnexusError("store", "x")))
  for (const value of [new Error("plain"), Object.assign(new Error("coded"), { code: "network" }), { code: "network" }, null, undefined, "network", 7]) {
    assert.equal(isToolnexusError(value), false, String(value))
  }
  const throwing = new Proxy({}, { get() { throw new Error("trap") } })
  assert.equal(isToolnexusError(throwing), false)
})

test("the constructor: retryable from code and status unless given; the cause is kept", () => {
  const cause = new Error("socket hang up")
  const e = new ToolnexusError("network", "failed", { cause })
  assert.equal(e.cause, cause)
  assert.equal(e.retryable, true)
  assert.equal(new ToolnexusError("http_status", "x", { status: 429 }).retryable, true)
  assert.equal(new ToolnexusError("http_status", "x", { status: 400 }).retryable, false)
  assert.equal(new ToolnexusError("invalid_options", "x", { retryable: true }).retryable, true)
})

test("the lean core build throws the same kind of error", async () => {
  stub.script(reply(500, "boom"))
  const leanToolkit = await core.createToolkit({})
  const lean = core.createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", retries: 0 })
  const error = await rejection(lean.run("hi", { toolkit: leanToolkit }))
  assert.ok(error instanceof core.ToolnexusError)
  assert.ok(isToolnexusError(error))
  assert.equal(error.status, 500)
})

test("the module still runs after all of it", async () => {
  stub.script(openai.text("fine"))
  assert.equal((await client().run("hi", { toolkit })).text, "fine")
})
