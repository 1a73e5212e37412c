// @ts-check
// The lean build, toolnexus-wasm/core: the same loop, tools and stores without MCP, skills or
// the built-in tools, a third less to download. The model is an in-process scripted one so the
// example runs offline. Run: node examples/node-core-agent.mjs
import { createInProcessClient, createToolkit, defineTool, InMemoryConversationStore } from "toolnexus-wasm/core"

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => `Sunny in ${String(city)}`,
})
// Only the tools given: the lean build has no built-in tools.
const toolkit = await createToolkit({ extraTools: [weather] })

/** @type {import("toolnexus-wasm/core").InProcessOptions["generate"]} */
const scripted = async ({ messages }) => {
  const last = messages[messages.length - 1]
  if (last.role === "tool") return { content: `Here it is: ${String(last.content)}` }
  return { toolCalls: [{ name: "get_weather", arguments: { city: "Lisbon" } }] }
}

const client = createInProcessClient({ model: "scripted", generate: scripted, store: new InMemoryConversationStore() })
const result = await client.ask("Weather in Lisbon?", { toolkit, id: "thread-1" })
console.log(result.text, `(${result.toolCallCount} tool call, ${result.messages.length} messages kept)`)

// Options of the sources it lacks are refused by name, never ignored (and its types lack them).
try {
  // @ts-expect-error the lean build's ToolkitOptions has no skill options
  await createToolkit({ skillsDir: "./skills" })
} catch (error) {
  console.log(/** @type {Error} */ (error).message)
}
