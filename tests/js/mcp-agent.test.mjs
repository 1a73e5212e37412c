// A full agent run whose tools come from MCP: an in-process scripted model sees the MCP tools
// in its request, calls two of them (one remote over HTTP, one local over stdio), and answers
// with what they returned; the same tools through an HTTP client.
import { after, before, test } from "node:test"
import assert from "node:assert/strict"
import { fileURLToPath } from "node:url"
import { createClient, createInProcessClient, createToolkit } from "../../pkg/node.mjs"
import { startMcpServer } from "./support/mcp-server.mjs"
import { openai, startOpenAIStub } from "./support/stub-server.mjs"

const script = fileURLToPath(new URL("./support/mcp-stdio-server.mjs", import.meta.url))
let server, toolkit
before(async () => {
  server = await startMcpServer()
  toolkit = await createToolkit({
    builtins: false,
    mcpConfig: {
      mcpServers: {
        weather: { url: server.url("/mcp"), tools: { "get.weather": true, add: true } },
        local: { command: [process.execPath, script], tools: { greet: true } },
      },
    },
  })
})
after(async () => {
  await toolkit?.close()
  await server.close()
})

/** Calls both tools in one turn, then answers with their outputs. */
function model() {
  const requests = []
  const generate = async (request) => {
    requests.push(request)
    const last = request.messages[request.messages.length - 1]
    if (last.role === "tool") {
      const results = request.messages.filter((m) => m.role === "tool").map((m) => m.content)
      return { content: results.join(" | ") }
    }
    return {
      toolCalls: [
        { id: "c1", name: "weather_get_weather", arguments: { city: "Lisbon" } },
        { id: "c2", name: "local_greet", arguments: { name: "Ada" } },
      ],
    }
  }
  return { requests, generate }
}

test("the model sees the MCP tools and the run uses them", async () => {
  const { requests, generate } = model()
  const client = createInProcessClient({ model: "scripted", generate })
  const result = await client.run("Weather in Lisbon, and greet Ada", { toolkit })
  assert.equal(result.status, "done")
  assert.equal(result.text, "Sunny in Lisbon | Hello, Ada!")
  assert.equal(result.turns, 2)
  assert.deepEqual(result.toolCalls.map((c) => [c.name, c.output, c.isError]), [
    ["weather_get_weather", "Sunny in Lisbon", false],
    ["local_greet", "Hello, Ada!", false],
  ])
  const offered = requests[0].tools.map((t) => t.function.name)
  assert.deepEqual(offered, ["weather_add", "weather_get_weather", "local_greet"])
  assert.equal(requests[0].tools[1].function.parameters.additionalProperties, false)
})

test("the same tools through createClient against an OpenAI-style endpoint", async () => {
  const stub = await startOpenAIStub()
  try {
    stub.script(
      openai.toolCalls([{ id: "c1", name: "weather_get_weather", args: { city: "Porto" } }]),
      openai.text("It is sunny in Porto."),
    )
    const client = createClient({ baseUrl: stub.baseUrl, style: "openai", model: "gpt-test", apiKey: "k" })
    const result = await client.run("Weather in Porto?", { toolkit })
    assert.equal(result.text, "It is sunny in Porto.")
    assert.deepEqual(stub.requests[0].body.tools.map((t) => t.function.name), ["weather_add", "weather_get_weather", "local_greet"])
    const toolMessage = stub.requests[1].body.messages.find((m) => m.role === "tool")
    assert.deepEqual(toolMessage, { role: "tool", tool_call_id: "c1", content: "Sunny in Porto" })
  } finally {
    await stub.close()
  }
})

test("a model call with bad arguments gets a clear error, not a crash", async () => {
  let turn = 0
  const generate = async ({ messages }) =>
    turn++ === 0 ? { toolCalls: [{ name: "weather_add", arguments: { a: "one", b: 2 } }] } : { content: messages.at(-1).content }
  const result = await createInProcessClient({ model: "scripted", generate }).run("add", { toolkit })
  assert.match(result.text, /^Invalid arguments for tool "weather_add": /)
})
