// The toolnexus contender in a page: the package's browser entry (instantiates itself).
import { createClient, createToolkit, defineTool } from "/pkg/index.js"
import { MODEL } from "../lib/script.mjs"

export const name = "toolnexus"

export async function setup(tools, fetch, { baseUrl, maxTurns = 10 }) {
  const toolkit = await createToolkit({
    builtins: false,
    extraTools: tools.map((t) => defineTool({ name: t.name, description: t.description, inputSchema: t.inputSchema, run: t.run })),
  })
  const client = createClient({ baseUrl, style: "openai", model: MODEL, apiKey: "bench", fetch, maxTurns })
  return {
    async run(prompt) {
      const result = await client.run(prompt, { toolkit })
      if (result.status !== "done") throw new Error(`run ended ${result.status}`)
      return result.text
    },
  }
}
