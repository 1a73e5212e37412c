// The floor: a hand-written loop, fetch → parse → run the tools → fetch, nothing else.
import { MODEL } from "../lib/script.mjs"

export const name = "bare"
export const label = "bare loop (floor)"

export async function setup(tools, fetch, { baseUrl, maxTurns = 10 }) {
  const byName = new Map(tools.map((t) => [t.name, t]))
  const toolDefs = tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }))
  const url = `${baseUrl}/chat/completions`
  const headers = { "content-type": "application/json", authorization: "Bearer bench" }
  const runTool = async (call) => {
    const tool = byName.get(call.function.name)
    if (!tool) return `unknown tool ${call.function.name}`
    return String(await tool.run(JSON.parse(call.function.arguments || "{}")))
  }
  return {
    toolDefs: () => tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.inputSchema },
    })),
    async run(prompt, { history } = {}) {
      const messages = history ? [...history, { role: "user", content: prompt }] : [{ role: "user", content: prompt }]
      for (let turn = 0; turn < maxTurns; turn++) {
        const body = JSON.stringify({ model: MODEL, messages, tools: toolDefs })
        const res = await fetch(url, { method: "POST", headers, body })
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        const message = (await res.json()).choices[0].message
        messages.push(message)
        const calls = message.tool_calls
        if (!calls || calls.length === 0) return message.content ?? ""
        const outputs = await Promise.all(calls.map(runTool))
        for (let i = 0; i < calls.length; i++) {
          messages.push({ role: "tool", tool_call_id: calls[i].id, content: outputs[i] })
        }
      }
      throw new Error("maxTurns reached")
    },
  }
}

/** The hand-written equivalent of toOpenAI (the only format this loop speaks). */
export function convert(inst, format) {
  return format === "toOpenAI" ? () => inst.toolDefs() : null
}
