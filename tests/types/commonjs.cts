// Type tests of the require() entries: a CommonJS TypeScript project (module node16, where a
// require of an ES module's typings is an error) gets the package's CommonJS typings (.d.cts).
import toolnexus = require("toolnexus-wasm")
import lean = require("toolnexus-wasm/core")

const tool = toolnexus.defineTool({ name: "a", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, run: ({ n }) => String(n * 2) })
const named: string = tool.name
const store = new toolnexus.InMemoryConversationStore()
async function failing(): Promise<string> {
  try {
    await toolnexus.createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m" }).run("hi", { toolkit: await toolnexus.createToolkit({}) })
    return "ok"
  } catch (e) {
    return toolnexus.isToolnexusError(e) ? e.code : "other"
  }
}
const leanTool = lean.defineTool({ name: "b", run: () => "x" })
// @ts-expect-error the lean build has no skills
lean.listSkills
const compact = toolnexus.agents.compactor({ maxTokens: 100, summarize: (older) => `${older.length}` })
const estimate: number = lean.agents.estimateTokens([{ role: "user", content: "hi" }])
export = { named, store, failing, leanTool, compact, estimate }
