// OpenAI Agents JS over the Chat Completions API of the `openai` client.
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents"
import OpenAI from "openai"
import { MODEL } from "../lib/script.mjs"

export const name = "agents"
export const label = "OpenAI Agents JS"

setTracingDisabled(true)

const asItem = (m) =>
  m.role === "assistant"
    ? { role: "assistant", status: "completed", content: [{ type: "output_text", text: m.content }] }
    : { role: m.role, content: m.content }

export async function setup(tools, fetch, { baseUrl, maxTurns = 10 }) {
  const client = new OpenAI({ apiKey: "bench", baseURL: baseUrl, fetch, maxRetries: 0 })
  const agent = new Agent({
    name: "bench",
    instructions: "",
    model: new OpenAIChatCompletionsModel(client, MODEL),
    tools: tools.map((t) =>
      tool({
        name: t.name,
        description: t.description,
        parameters: t.inputSchema,
        strict: false,
        execute: async (args) => t.run(args),
      }),
    ),
  })
  return {
    async run(prompt, { history } = {}) {
      const input = history ? [...history.map(asItem), { role: "user", content: prompt }] : prompt
      const result = await run(agent, input, { maxTurns })
      return result.finalOutput
    },
  }
}
