// Diagnostic variant of the toolnexus contender: the same client, but the tools are handed to
// createToolkit as plain reference-shaped objects ({name, description, inputSchema, execute})
// instead of defineTool() results. Shows what the tool path itself costs (see bench/README.md).
import { MODEL } from "../lib/script.mjs"
import { pkgUrl } from "./pkg.mjs"

const { createClient, createToolkit } = await import(pkgUrl("node.mjs"))

export const name = "toolnexus-toollike"
export const label = "toolnexus-wasm, ToolLike tools"

export async function setup(tools, fetch, { baseUrl, maxTurns = 10 }) {
  const toolkit = await createToolkit({
    builtins: false,
    extraTools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      source: "native",
      execute: (args) => t.run(args),
    })),
  })
  const client = createClient({ baseUrl, style: "openai", model: MODEL, apiKey: "bench", fetch, maxTurns })
  return {
    toolkit,
    async run(prompt, { history } = {}) {
      const result = await client.run(prompt, history ? { toolkit, history } : { toolkit })
      if (result.status !== "done") throw new Error(`run ended ${result.status}`)
      return result.text
    },
  }
}
