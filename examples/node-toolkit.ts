// A toolkit of JavaScript tools in Node: provider schemas, and a call routed by name.
// Run (after `npm run build`): node_modules/.bin/tsc -p examples && node target/examples/node-toolkit.js
// `args` is typed from each `inputSchema` written in place: `city` is a string, `amount` a number.
import { createToolkit, defineTool, pending, pendingOf } from "toolnexus-wasm"

const weather = defineTool({
  name: "get_weather",
  description: "Current weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } },
    required: ["city"],
  },
  run: async ({ city, unit }) => `Sunny and ${unit === "f" ? "70°F" : "21°C"} in ${city.toUpperCase()}`,
})

const transfer = defineTool({
  name: "transfer",
  description: "Moves money; asks a human first",
  inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
  run: (args, ctx) =>
    ctx.answer?.ok ? `sent ${args.amount.toFixed(2)}` : pending({ kind: "approval", prompt: `Send ${args.amount}?` }),
})

const toolkit = await createToolkit({ extraTools: [weather, transfer], builtins: false })
console.log(JSON.stringify(toolkit.toOpenAI(), null, 2))
console.log(await toolkit.execute("get_weather", { city: "Paris" }))
console.log(await toolkit.execute("get_weather", { city: 42 }))
const suspended = await toolkit.execute("transfer", { amount: 5 })
console.log("suspended on:", pendingOf(suspended)?.prompt)
