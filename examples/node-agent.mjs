// @ts-check
// An agent run with a tool that asks a human first. The model here is an in-process scripted
// one so the example runs offline; swap in createClient({baseUrl, style, model, apiKey}) for a
// real endpoint. Run: node examples/node-agent.mjs
import { createInProcessClient, createToolkit, defineTool, pending } from "toolnexus-wasm"

const transfer = defineTool({
  name: "transfer",
  description: "Sends money; asks for approval first",
  inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  run: (args, ctx) =>
    ctx.answer?.ok ? `sent ${args.amount} EUR` : pending({ kind: "approval", prompt: `Send ${args.amount} EUR?` }),
})
const toolkit = await createToolkit({ extraTools: [transfer] })

/** @type {import("toolnexus-wasm").InProcessOptions["generate"]} */
const scripted = async ({ messages }) => {
  const last = messages[messages.length - 1]
  if (last.role === "tool") return { content: `The transfer says: ${String(last.content)}` }
  return { toolCalls: [{ name: "transfer", arguments: { amount: 25 } }] }
}

// 1. In-page resolution: waitFor answers at once (a page would show a dialog here).
const approving = createInProcessClient({
  model: "scripted",
  generate: scripted,
  waitFor: async (request) => ({ id: request.id, ok: true }),
})
console.log((await approving.run("Pay Bob 25", { toolkit })).text)

// 2. Durable halt: no waitFor, so the run stops as plain JSON that can be stored.
const durable = createInProcessClient({ model: "scripted", generate: scripted })
const halted = await durable.run("Pay Bob 25", { toolkit })
console.log(halted.status, "→", halted.pending?.prompt)
console.log("stored as", JSON.stringify(halted).length, "bytes of JSON")
