// Lifecycle hooks (SPEC §8) through real runs: what each hook receives, what it may replace
// (beforeLLM messages/tools for the rest of the run, beforeTool args or result, afterTool
// result), async hooks, and a throwing hook stopping the run with code "hook".
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool } from "../../pkg/node.mjs"
import { startOpenAIStub, openai, reply } from "./support/stub-server.mjs"
import { assertCode, clearKeyEnv, rejection, sleep } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

const ran = []
const schema = { type: "object", properties: { q: { type: "string" } } }
const recorded = (name, output) => ({ q }) => {
  ran.push([name, q])
  return output(q)
}
const search = defineTool({ name: "search", description: "Searches", inputSchema: schema, run: recorded("search", (q) => `results for ${q}`) })
const fetchPage = defineTool({ name: "fetch_page", description: "Fetches", inputSchema: schema, run: recorded("fetch_page", (q) => `page ${q}`) })
const toolkit = await createToolkit({ extraTools: [search, fetchPage] })
const client = (hooks, extra = {}) => createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", hooks, ...extra })
const callSearch = (q = "wasm", id = "s1") => openai.toolCalls([{ id, name: "search", args: { q } }])

test("beforeLLM sees messages, tools, model and turn for every model call", async () => {
  const events = []
  stub.script(callSearch(), openai.text("done"))
  await client({ beforeLLM: (e) => { events.push(structuredClone(e)) } }, { model: "vendor/m" }).run("find wasm", { toolkit })
  assert.equal(events.length, 2)
  assert.deepEqual(events[0], { messages: [{ role: "user", content: "find wasm" }], tools: toolkit.toOpenAI(), model: "vendor/m", turn: 0 })
  assert.equal(events[1].turn, 1)
  assert.equal(events[1].model, "vendor/m")
  assert.deepEqual(events[1].messages.map((m) => m.role), ["user", "assistant", "tool"])
})

test("beforeLLM replacing messages and tools persists to later turns", async () => {
  const hooks = {
    beforeLLM: ({ turn }) => (turn === 0
      ? { messages: [{ role: "system", content: "compacted" }, { role: "user", content: "only this" }], tools: [toolkit.toOpenAI()[0]] }
      : undefined),
  }
  stub.script(callSearch(), openai.text("done"))
  const r = await client(hooks).run("a long prompt", { toolkit })
  const [first, second] = stub.requests
  assert.deepEqual(first.body.messages, [{ role: "system", content: "compacted" }, { role: "user", content: "only this" }])
  assert.deepEqual(first.body.tools, [toolkit.toOpenAI()[0]])
  assert.deepEqual(second.body.messages.slice(0, 2), first.body.messages, "the replaced transcript is the working one")
  assert.deepEqual(second.body.messages.map((m) => m.role), ["system", "user", "assistant", "tool"])
  assert.deepEqual(second.body.tools, [toolkit.toOpenAI()[0]], "the replaced tools stay")
  assert.equal(r.messages[1].content, "only this")
})

test("beforeLLM returning tools: [] omits tools and tool_choice", async () => {
  stub.script(openai.text("no tools"))
  await client({ beforeLLM: () => ({ tools: [] }) }).run("hi", { toolkit })
  assert.deepEqual(stub.requests[0].body, { model: "m", messages: [{ role: "user", content: "hi" }] })
})

test("afterLLM receives the raw response object of each call", async () => {
  const raw = { ...callSearch().body, id: "chatcmpl-raw", system_fingerprint: "fp_1", x_vendor: { cost: 0.01 } }
  const events = []
  stub.script(reply(200, raw), openai.text("done"))
  await client({ afterLLM: async (e) => { await sleep(1); events.push(e) } }).run("q", { toolkit })
  assert.equal(events.length, 2)
  assert.deepEqual(events[0], { response: raw, model: "m", turn: 0 })
  assert.deepEqual(events[1].response, openai.text("done").body)
  assert.equal(events[1].turn, 1)
})

test("beforeTool gets {name, args, id, turn}; returning {args} rewrites the call", async () => {
  ran.length = 0
  const events = []
  const hooks = { beforeTool: async (e) => { events.push(structuredClone(e)); await sleep(1); return { args: { q: `${e.args.q} site:docs` } } } }
  stub.script(callSearch("wasm", "s9"), openai.text("done"))
  const r = await client(hooks).run("q", { toolkit })
  assert.deepEqual(events, [{ name: "search", args: { q: "wasm" }, id: "s9", turn: 0 }])
  assert.deepEqual(ran, [["search", "wasm site:docs"]])
  assert.deepEqual(r.toolCalls, [{ name: "search", args: { q: "wasm site:docs" }, output: "results for wasm site:docs", isError: false }])
  assert.equal(stub.requests[1].body.messages.at(-1).content, "results for wasm site:docs")
})

test("beforeTool returning {result} short-circuits: the tool never runs", async () => {
  ran.length = 0
  const afterTool = []
  const hooks = {
    beforeTool: ({ name }) => (name === "fetch_page" ? { result: { output: "denied by policy", isError: true } } : undefined),
    afterTool: (e) => { afterTool.push(e.name) },
  }
  stub.script(openai.toolCalls([{ id: "a", name: "fetch_page", args: { q: "x" } }, { id: "b", name: "search", args: { q: "y" } }]), openai.text("done"))
  const r = await client(hooks).run("q", { toolkit })
  assert.deepEqual(ran, [["search", "y"]])
  assert.deepEqual(r.toolCalls.map((c) => [c.name, c.output, c.isError]),
    [["fetch_page", "denied by policy", true], ["search", "results for y", false]])
  assert.deepEqual(stub.requests[1].body.messages.slice(-2).map((m) => m.content), ["denied by policy", "results for y"])
  assert.deepEqual(afterTool, ["search"])
})

test("afterTool gets the result and returning {result} replaces it", async () => {
  const events = []
  const hooks = {
    afterTool: async (e) => {
      events.push(structuredClone(e))
      return { result: { output: e.result.output.toUpperCase(), isError: false, metadata: { redacted: true } } }
    },
  }
  stub.script(callSearch("abc", "s2"), openai.text("done"))
  const r = await client(hooks).run("q", { toolkit })
  assert.deepEqual(events, [{ name: "search", args: { q: "abc" }, id: "s2", turn: 0, result: { output: "results for abc", isError: false } }])
  assert.deepEqual(r.toolCalls, [{ name: "search", args: { q: "abc" }, output: "RESULTS FOR ABC", isError: false, metadata: { redacted: true } }])
  assert.equal(stub.requests[1].body.messages.at(-1).content, "RESULTS FOR ABC")
})

test("hooks returning nothing change nothing; `this` is the hooks object", async () => {
  const hooks = {
    seen: 0,
    beforeLLM() { this.seen++ },
    afterLLM() { this.seen++ },
    beforeTool() { this.seen++; return null },
    afterTool() { this.seen++; return {} },
  }
  stub.script(callSearch(), openai.text("done"))
  const r = await client(hooks).run("q", { toolkit })
  assert.equal(hooks.seen, 6)
  assert.equal(r.toolCalls[0].output, "results for wasm")
})

test("a hook that throws or rejects stops the run with code hook and a message naming it", async () => {
  const names = ["beforeLLM", "afterLLM", "beforeTool", "afterTool"]
  for (const name of names) {
    for (const style of ["throws", "rejects"]) {
      const fail = style === "throws"
        ? () => { throw new Error(`${name} said no`) }
        : async () => { await sleep(1); throw new Error(`${name} said no`) }
      stub.script(callSearch(), openai.text("done"))
      const error = assertCode(await rejection(client({ [name]: fail }).run("q", { toolkit })), "hook")
      assert.match(error.message, new RegExp(`${name}.*${name} said no`), `${name} ${style}`)
      const expectedRequests = name === "beforeLLM" ? 0 : 1
      assert.equal(stub.requests.length, expectedRequests, `${name} ${style}`)
    }
  }
})

test("a hook that returns a malformed result stops the run with code hook", async () => {
  const cases = {
    beforeLLM: () => ({ messages: "not an array" }),
    beforeTool: () => ({ result: { output: 5 } }),
    afterTool: () => ({ result: "just a string" }),
  }
  for (const [name, hook] of Object.entries(cases)) {
    stub.script(callSearch(), openai.text("done"))
    const error = assertCode(await rejection(client({ [name]: hook }).run("q", { toolkit })), "hook")
    assert.match(error.message, new RegExp(name))
  }
})
