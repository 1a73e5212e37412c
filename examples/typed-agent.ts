// A typed agent in TypeScript: tools whose arguments are typed from their schema (a Zod schema,
// and a JSON Schema written in place), and a failure handled by its code. The model is an in-process scripted one so the example runs offline; swap in
// createClient({baseUrl, style, model, apiKey}) for a real endpoint.
// Run: npx tsc -p examples && node target/examples/typed-agent.js (tests/js/examples.test.mjs does)
import { z } from "zod"
import {
  createClient,
  createInProcessClient,
  createToolkit,
  defineTool,
  isToolnexusError,
  type InProcessOptions,
} from "toolnexus-wasm"

const convert = defineTool({
  name: "convert",
  description: "Converts an amount between currencies",
  inputSchema: z.object({ amount: z.number().positive(), from: z.enum(["EUR", "USD"]), to: z.enum(["EUR", "USD"]) }),
  // amount: number, from and to: "EUR" | "USD", checked by Zod before run is called.
  run: ({ amount, from, to }) => `${amount} ${from} is ${(from === to ? amount : amount * 1.1).toFixed(2)} ${to}`,
})

const clock = defineTool({
  name: "clock",
  description: "The time in a time zone",
  inputSchema: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"], additionalProperties: false },
  // zone: string, from the JSON Schema above.
  run: ({ zone }) => `It is noon in ${zone}`,
})

const toolkit = await createToolkit({ extraTools: [convert, clock] })

const generate: InProcessOptions["generate"] = async ({ messages }) => {
  const last = messages[messages.length - 1]
  if (last?.role === "tool") return { content: `Done: ${String(last.content)}` }
  return { toolCalls: [{ name: "convert", arguments: { amount: 20, from: "EUR", to: "USD" } }] }
}
const client = createInProcessClient({ model: "scripted", generate })

const result = await client.run("How much is 20 EUR in USD?", { toolkit })
console.log(result.text)

// A failure is a ToolnexusError: its code says what kind, status and retryable what to do.
const offline = createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m", retries: 0 })
try {
  await offline.run("hi", { toolkit })
} catch (e) {
  if (isToolnexusError(e)) console.log(`failed: ${e.code}, retryable: ${e.retryable}`)
  else throw e
}
