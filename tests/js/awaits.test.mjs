// What the module awaits in JavaScript (each fetch, each asynchronous tool) comes back through
// numbered slots the shim settles (src/js/slot.rs). Many awaits settling out of order each get
// their own value; an await abandoned by an aborted run takes its late value with it and never
// hands it to a later one; an exchange that fails in a way only a rejection can show (a throwing
// `status` getter, a body whose `toString` throws) is an error, never a hang.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createClient, createToolkit, defineTool } from "../../pkg/node.mjs"

const completion = (message) => JSON.stringify({ choices: [{ message: { role: "assistant", ...message } }] })
const calls = (n, tool) =>
  completion({ content: null, tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, type: "function", function: { name: tool, arguments: JSON.stringify({ i }) } })) })
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A fetch that answers `first` to the first request of a run and `then` to the next. */
function scripted(first, then) {
  return async (url, init) => {
    const body = JSON.parse(init.body)
    const text = body.messages.some((m) => m.role === "tool") ? then(body) : first
    return new Response(text, { headers: { "content-type": "application/json" } })
  }
}

test("64 asynchronous tools settling in reverse order each get their own result", async () => {
  const slow = defineTool({
    name: "slow",
    inputSchema: { type: "object", properties: { i: { type: "integer" } }, required: ["i"] },
    run: async ({ i }) => {
      await sleep(64 - i)
      return `done ${i}`
    },
  })
  const toolkit = await createToolkit({ builtins: false, extraTools: [slow] })
  const fetch = scripted(calls(64, "slow"), (body) => {
    const outputs = body.messages.filter((m) => m.role === "tool")
    const right = outputs.every((m, i) => m.tool_call_id === `c${i}` && m.content === `done ${i}`)
    return completion({ content: right ? "all paired" : "mixed up" })
  })
  const client = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: "m", fetch })
  const results = await Promise.all([client.run("go", { toolkit }), client.run("go", { toolkit })])
  assert.deepEqual(results.map((r) => r.text), ["all paired", "all paired"])
  assert.deepEqual(results[0].toolCalls.map((c) => c.output), Array.from({ length: 64 }, (_, i) => `done ${i}`))
})

test("a tool still running when its run is aborted settles later into nothing; the next runs are right", async () => {
  let finish
  const late = defineTool({ name: "late", inputSchema: { type: "object" }, run: () => new Promise((resolve) => (finish = resolve)) })
  const quick = defineTool({ name: "quick", inputSchema: { type: "object" }, run: async () => "quick result" })
  const toolkit = await createToolkit({ builtins: false, extraTools: [late, quick] })
  let tool = "late"
  const fetch = scripted(null, (body) => completion({ content: body.messages.at(-1).content }))
  const client = createClient({
    baseUrl: "http://fake.invalid/v1",
    style: "openai",
    model: "m",
    fetch: (url, init) => (JSON.parse(init.body).messages.some((m) => m.role === "tool") ? fetch(url, init) : scripted(calls(1, tool), () => "")(url, init)),
  })
  const controller = new AbortController()
  const aborted = client.run("go", { toolkit, signal: controller.signal })
  while (!finish) await sleep(1)
  controller.abort()
  await assert.rejects(aborted, (e) => e.name === "AbortError")
  tool = "quick"
  const next = client.run("go", { toolkit })
  finish("the late value")
  assert.equal((await next).text, "quick result")
  for (let i = 0; i < 5; i++) assert.equal((await client.run("go", { toolkit })).text, "quick result")
})

test("an exchange that only fails as a rejection is a network error, not a hang", async () => {
  const toolkit = await createToolkit({ builtins: false })
  const answers = {
    "a status getter that throws": () => ({ get status() { throw new Error("no status") }, text: async () => "{}" }),
    "a body whose toString throws": () => ({ status: 200, text: async () => ({ toString() { throw new Error("no text") } }) }),
  }
  for (const [label, answer] of Object.entries(answers)) {
    const client = createClient({ baseUrl: "http://fake.invalid/v1", style: "openai", model: "m", fetch: async () => answer() })
    const error = await client.run("go", { toolkit }).then(() => null, (e) => e)
    assert.ok(error instanceof Error, label)
    assert.equal(error.code, "network", `${label}: ${error.message}`)
  }
})
