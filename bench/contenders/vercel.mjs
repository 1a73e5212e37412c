// The Vercel AI SDK: generateText over @ai-sdk/openai's Chat Completions model.
import { generateText, jsonSchema, stepCountIs, tool } from "ai"
import { createOpenAI } from "@ai-sdk/openai"
import { MODEL } from "../lib/script.mjs"

export const name = "vercel"
export const label = "Vercel AI SDK"

globalThis.AI_SDK_LOG_WARNINGS = false

export async function setup(tools, fetch, { baseUrl, maxTurns = 10 }) {
  const provider = createOpenAI({ baseURL: baseUrl, apiKey: "bench", fetch })
  const model = provider.chat(MODEL)
  const vtools = {}
  for (const t of tools) {
    vtools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema(t.inputSchema),
      execute: async (args) => t.run(args),
    })
  }
  return {
    async run(prompt, { history } = {}) {
      const options = { model, tools: vtools, stopWhen: stepCountIs(maxTurns), maxRetries: 0 }
      if (history) options.messages = [...history, { role: "user", content: prompt }]
      else options.prompt = prompt
      const result = await generateText(options)
      return result.text
    },
  }
}
