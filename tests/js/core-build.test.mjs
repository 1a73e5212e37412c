// toolnexus-wasm/core, the lean build (no MCP, skills or built-in tools): the loop, JS and HTTP
// tools, memory, streaming and metrics behave exactly as in the full build (same requests on
// the wire, same results), and every option of a source it lacks is refused by name.
import { test, after } from "node:test"
import assert from "node:assert/strict"
import { createServer } from "node:http"
import * as core from "../../pkg/core/node.mjs"
import * as full from "../../pkg/node.mjs"
import { startOpenAIStub, openai } from "./support/stub-server.mjs"
import { startSseStub, sse, openaiStream } from "./support/sse-stub.mjs"
import { assertCode, clearKeyEnv, rejection } from "./support/helpers.mjs"

clearKeyEnv()
const stub = await startOpenAIStub()
after(() => stub.close())

const weatherOf = (lib) =>
  lib.defineTool({
    name: "get_weather",
    description: "Current weather for a city",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    run: ({ city }) => `Sunny in ${city}`,
  })

/** The same scripted two-turn run through one build: its result and the bodies it sent. */
async function scriptedRun(lib) {
  const toolkit = await lib.createToolkit({ builtins: false, extraTools: [weatherOf(lib)] })
  const calls = [
    { id: "call_a", name: "get_weather", args: { city: "Paris" } },
    { id: "call_b", name: "get_weather", args: {} },
  ]
  stub.script(openai.toolCalls(calls, openai.usage(10, 5, 15)), openai.text("Sunny.", openai.usage(20, 7, 27)))
  const client = lib.createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "k", systemPrompt: "Be terse." })
  const result = await client.run("Weather?", { toolkit })
  return { result, bodies: stub.requests.map((r) => r.body), metrics: client.metrics() }
}

test("a run through the lean build sends and returns exactly what the full build does", async () => {
  const lean = await scriptedRun(core)
  const whole = await scriptedRun(full)
  assert.equal(lean.result.text, "Sunny.")
  assert.equal(lean.result.toolCalls[1].isError, true)
  assert.deepEqual(lean.result, whole.result)
  assert.deepEqual(lean.bodies, whole.bodies)
  assert.equal(lean.bodies.length, 2)
  assert.equal(lean.metrics.replace(/_seconds_(sum|bucket)\{[^\n]*/g, ""), whole.metrics.replace(/_seconds_(sum|bucket)\{[^\n]*/g, ""))
})

test("streaming, memory and HTTP tools work in the lean build", async () => {
  const server = createServer((req, res) => {
    res.setHeader("content-type", "application/json")
    res.end(JSON.stringify({ path: req.url }))
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  after(() => server.close())
  const http = core.httpTool({
    name: "lookup",
    method: "GET",
    url: `http://127.0.0.1:${server.address().port}/items/{id}`,
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  })
  const toolkit = await core.createToolkit({ extraTools: [http] })
  assert.deepEqual(toolkit.toOpenAI().map((t) => t.function.name), ["lookup"])
  assert.deepEqual(await toolkit.execute("lookup", { id: "a b" }), { output: '{"path":"/items/a%20b"}', isError: false, metadata: { status: 200 } })

  const store = new core.InMemoryConversationStore()
  const client = core.createClient({ baseUrl: stub.baseUrl, style: "openai", model: "m", apiKey: "k", store })
  stub.script(openai.text("first"), openai.text("second"))
  await client.ask("one", { toolkit, id: "conv" })
  const second = await client.ask("two", { toolkit, id: "conv" })
  assert.deepEqual(second.messages.map((m) => m.content), ["one", "first", "two", "second"])

  const sseStub = await startSseStub()
  after(() => sseStub.close())
  sseStub.script(sse(openaiStream(["stream", "ed"]), { cut: "bytes" }))
  const streaming = core.createClient({ baseUrl: sseStub.openaiBaseUrl, style: "openai", model: "m", apiKey: "k" })
  const events = []
  for await (const event of streaming.stream("go", { toolkit })) events.push(event)
  assert.deepEqual(events.filter((e) => e.type === "text").map((e) => e.delta).join(""), "streamed")
  assert.equal(events.at(-1).type, "done")
  assert.equal(events.at(-1).result.text, "streamed")
})

test("every option of a source the lean build lacks is refused by name, with the entry that has it", async () => {
  const refusals = [
    ["mcpConfig", { mcpConfig: { mcpServers: {} } }],
    ["mcpConfig", { mcpConfig: "./mcp.json" }],
    ["skills", { skills: [{ name: "pdf", content: "x" }] }],
    ["skillProvider", { skillProvider: () => [] }],
    ["skillsDir", { skillsDir: "./skills" }],
    ["fs", { fs: {} }],
    ["exec", { exec: () => ({}) }],
    ["builtins", { builtins: true }],
    ["builtins", { builtins: { tools: { bash: false } } }],
  ]
  for (const [key, options] of refusals) {
    const error = await rejection(core.createToolkit(options))
    assertCode(error, "unsupported")
    assert.equal(error.message, `createToolkit: "${key}" needs the full build: import from "toolnexus-wasm", not "toolnexus-wasm/core"`)
  }
})

test("without those options the lean toolkit holds only the given tools, and its MCP views are empty", async () => {
  for (const options of [undefined, {}, { builtins: false }, { builtins: null, mcpConfig: null, skills: undefined }]) {
    const toolkit = await core.createToolkit(options)
    assert.deepEqual(toolkit.tools(), [])
  }
  const toolkit = await core.createToolkit({ extraTools: [weatherOf(core)] })
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["get_weather"])
  assert.deepEqual(toolkit.mcpStatus(), {})
  assert.deepEqual(toolkit.mcpErrors(), {})
  assert.equal(toolkit.skillsPrompt(), "")
  await toolkit.close()
  // The full build's default for the same options includes the built-in tools.
  const fullDefault = await full.createToolkit({ extraTools: [weatherOf(full)] })
  assert.ok(fullDefault.tools().length > 1)
})
