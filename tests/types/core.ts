// Type tests of toolnexus-wasm/core, the lean build (tsc --noEmit --strict): the loop's API is
// typed as in the full build, and the full build's sources are absent from its types.
import { createClient, createToolkit, defineTool, httpTool, InMemoryConversationStore, type RunResult, type ToolkitOptions } from "toolnexus-wasm/core"
import * as core from "toolnexus-wasm/core"

const weather = defineTool({
  name: "get_weather",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  run: ({ city }) => `Sunny in ${String(city)}`,
})
const lookup = httpTool({ name: "lookup", method: "GET", url: "http://127.0.0.1:1/{id}" })
const options: ToolkitOptions = { extraTools: [weather, lookup], builtins: false, disableTools: ["x"] }
const toolkit = await createToolkit(options)
toolkit.register(weather)
const client = createClient({ baseUrl: "http://127.0.0.1:1/v1", style: "openai", model: "m", store: new InMemoryConversationStore() })
const result: RunResult = await client.run("hi", { toolkit })
const text: string = result.text
for await (const event of client.stream("hi", { toolkit })) if (event.type === "text") console.log(event.delta, text)
// The browser stores come with the lean build too.
const durable: core.PendingStore = new core.IndexedDbConversationStore()
await durable.savePending("k", result)
createClient({ baseUrl: "u", style: "anthropic", model: "m", store: new core.WebStorageConversationStore("session") })

// @ts-expect-error the lean build has no skills
core.listSkills
// @ts-expect-error nor an MCP client
core.parseMcpConfig
// @ts-expect-error nor the built-ins' filesystem
core.MemoryFileSystem
// @ts-expect-error nor the skill texts
core.SKILLS_PROMPT_PREAMBLE
// @ts-expect-error nor loadMcp
core.loadMcp
// @ts-expect-error nor createBuiltinTools
core.createBuiltinTools
// @ts-expect-error nor translate (a proxy's feature, in the full build)
core.finishReasonFor
// @ts-expect-error nor translate's method on the client
client.translate
// The decorator sugar and the toolkit's signal are the lean build's too.
const sugar: core.Tool[] = core.collectTools({ t: core.tool("d")(function t() { return "x" }) })
await createToolkit({ extraTools: sugar, signal: AbortSignal.timeout(1000) })
// @ts-expect-error and its toolkit options have no MCP config
const mcp: ToolkitOptions = { mcpConfig: { mcpServers: {} } }
void mcp
