// The demo's three ordinary tools as plain specs (no import), so both a page and a Service
// Worker can make Tools of them with the `defineTool` of the entry they load: the page's
// `toolnexus-wasm` (demo-tools.js) or `toolnexus-wasm/web` in a worker (a2a-sw.js), which may
// not use top-level await.
//
//   import { defineTool } from "/pkg/web.js"
//   const tools = EVERYDAY_TOOLS.map(defineTool)

export const CALCULATOR = {
  name: "calculator",
  description: "Applies an arithmetic operation to two numbers",
  inputSchema: {
    type: "object",
    properties: {
      a: { type: "number" },
      b: { type: "number" },
      op: { type: "string", enum: ["add", "subtract", "multiply", "divide"] },
    },
    required: ["a", "b", "op"],
    additionalProperties: false,
  },
  run: ({ a, b, op }) => {
    if (op === "divide" && b === 0) throw new Error("division by zero")
    const ops = { add: a + b, subtract: a - b, multiply: a * b, divide: a / b }
    return String(ops[op])
  },
}

export const CLOCK = {
  name: "clock",
  description: "The current date and time in an IANA time zone",
  inputSchema: {
    type: "object",
    properties: { timeZone: { type: "string", description: "For example Europe/Paris; UTC when absent" } },
  },
  run: ({ timeZone = "UTC" }) =>
    new Intl.DateTimeFormat("en-GB", { timeZone, dateStyle: "full", timeStyle: "long" }).format(new Date()),
}

export const ROLL_DICE = {
  name: "roll_dice",
  description: "Rolls dice and returns each roll and the total",
  inputSchema: {
    type: "object",
    properties: {
      count: { type: "integer", minimum: 1, maximum: 20 },
      sides: { type: "integer", minimum: 2, maximum: 100 },
    },
    required: ["count", "sides"],
  },
  run: ({ count, sides }) => {
    const rolls = Array.from(crypto.getRandomValues(new Uint32Array(count)), (n) => 1 + (n % sides))
    return { rolls, total: rolls.reduce((s, r) => s + r, 0) }
  },
}

export const EVERYDAY_TOOLS = [CALCULATOR, CLOCK, ROLL_DICE]
