// defineTool with a Standard Schema (Zod 4, the real library) as inputSchema: its JSON Schema goes
// to the model, its own validate runs on every call and hands run the parsed output, and a call
// it refuses, a validator that throws or returns nonsense, comes back as an error result the
// model can read. A plain JSON Schema is unchanged; bad schema options are refused clearly.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createRequire } from "node:module"
import { z } from "zod"
import { createToolkit, createInProcessClient, defineTool, toOpenAI, ToolnexusError } from "../../pkg/node.mjs"

const weatherSchema = z.object({ city: z.string().min(2), unit: z.enum(["C", "F"]).default("C") })
const seen = []
const weather = defineTool({
  name: "get_weather",
  description: "Weather for a city",
  inputSchema: weatherSchema,
  run: (args) => {
    seen.push(args)
    return `${args.city}: 21°${args.unit}`
  },
})

test("the model sees the schema's JSON Schema, without $schema", () => {
  const [spec] = toOpenAI([weather])
  const parameters = spec.function.parameters
  assert.equal(parameters.$schema, undefined)
  assert.equal(parameters.type, "object")
  assert.deepEqual(parameters.required, ["city"])
  assert.deepEqual(Object.keys(parameters.properties), ["city", "unit"])
  assert.deepEqual(parameters.properties.unit.enum, ["C", "F"])
})

test("a valid call: run gets the schema's output, defaults filled in", async () => {
  seen.length = 0
  assert.deepEqual(await weather.execute({ city: "Oslo" }), { output: "Oslo: 21°C", isError: false })
  assert.deepEqual(seen, [{ city: "Oslo", unit: "C" }])
})

test("a refused call: the module's JSON Schema check and the schema's own both answer in one form; run never runs", async () => {
  seen.length = 0
  // What the JSON Schema says (a minimum length, an enum) the module checks first.
  const bySchema = await weather.execute({ city: "O", unit: "K" })
  assert.equal(bySchema.isError, true)
  assert.match(bySchema.output, /^Invalid arguments for tool "get_weather": city: .*; unit: /)
  // What only the schema library knows (a refinement) its validate refuses, worded alike.
  const booking = defineTool({
    name: "book",
    inputSchema: z.object({ from: z.number(), to: z.number() }).refine(({ from, to }) => to > from, { message: "to must be after from", path: ["to"] }),
    run: (args) => (seen.push(args), "booked"),
  })
  assert.deepEqual(await booking.execute({ from: 5, to: 3 }), { output: 'Invalid arguments for tool "book": to: to must be after from', isError: true })
  assert.deepEqual(seen, [])
})

test("a nested path is written as the module writes one", async () => {
  const tool = defineTool({
    name: "nested",
    inputSchema: z.object({ order: z.object({ items: z.array(z.object({ qty: z.number().refine((n) => n % 2 === 0, "must be even") })) }) }),
    run: () => "ok",
  })
  const result = await tool.execute({ order: { items: [{ qty: 2 }, { qty: 3 }] } })
  assert.deepEqual(result, { output: 'Invalid arguments for tool "nested": order.items[1].qty: must be even', isError: true })
})

test("an async refinement is awaited", async () => {
  const tool = defineTool({
    name: "async_check",
    inputSchema: z.object({ user: z.string() }).refine(async ({ user }) => user !== "mallory", { message: "unknown user", path: ["user"] }),
    run: ({ user }) => `hello ${user}`,
  })
  assert.deepEqual(await tool.execute({ user: "ada" }), { output: "hello ada", isError: false })
  assert.deepEqual(await tool.execute({ user: "mallory" }), { output: 'Invalid arguments for tool "async_check": user: unknown user', isError: true })
})

/** A hand-made Standard Schema whose validate does what it is told. */
function standard(validate, extra = {}) {
  return { "~standard": { version: 1, vendor: "test", validate }, ...extra }
}
const anyObject = { type: "object", properties: {} }

test("a validator that throws, rejects or returns nonsense: an error result, and the module lives on", async () => {
  const cases = [
    [() => { throw new Error("validator exploded") }, /the schema's validation threw: validator exploded/],
    [() => Promise.reject("no reason"), /the schema's validation threw: no reason/],
    [() => 42, /the schema's validation returned number/],
    [() => ({ issues: [{ message: "whole value wrong" }] }), /"odd": whole value wrong$/],
  ]
  for (const [validate, expected] of cases) {
    const tool = defineTool({ name: "odd", inputSchema: standard(validate), jsonSchema: anyObject, run: () => "ran" })
    const result = await tool.execute({})
    assert.equal(result.isError, true)
    assert.match(result.output, expected)
  }
  const fine = defineTool({ name: "fine", inputSchema: standard((value) => ({ value: { ...value, added: true } })), jsonSchema: anyObject, run: (args) => JSON.stringify(args) })
  assert.deepEqual(await fine.execute({ a: 1 }), { output: '{"a":1,"added":true}', isError: false })
})

test("schema options refused with a ToolnexusError naming the problem", () => {
  const refused = (options, pattern) =>
    assert.throws(() => defineTool({ name: "bad", run: () => "", ...options }), (e) => e instanceof ToolnexusError && e.code === "invalid_tool" && pattern.test(e.message))
  refused({ inputSchema: { "~standard": { version: 1 } } }, /no ~standard.validate function/)
  refused({ inputSchema: standard(() => ({ value: {} })) }, /the test inputSchema has no JSON Schema converter: pass its JSON Schema as the jsonSchema option/)
  refused({ inputSchema: standard(() => ({ value: {} })), jsonSchema: [1] }, /must be an object, got array/)
  refused({ inputSchema: standard(() => ({ value: {} }), { toJSONSchema() { throw new Error("cannot") } }) }, /could not be made: cannot/)
})

test("a converter of the schema's own (toJSONSchema) is used when there is no Standard JSON Schema", async () => {
  const tool = defineTool({ name: "own", inputSchema: standard((value) => ({ value }), { toJSONSchema: () => ({ $schema: "x", type: "object", properties: { a: { type: "string" } } }) }), run: ({ a }) => a })
  assert.deepEqual(tool.inputSchema, { type: "object", properties: { a: { type: "string" } } })
  assert.deepEqual(await tool.execute({ a: "x" }), { output: "x", isError: false })
})

test("in a run: the model's bad call goes back to it as an error result, the fixed one runs", async () => {
  const calls = [
    { toolCalls: [{ id: "c1", name: "get_weather", arguments: { city: "X" } }] },
    { toolCalls: [{ id: "c2", name: "get_weather", arguments: { city: "Paris", unit: "F" } }] },
    { content: "done" },
  ]
  const requests = []
  const client = createInProcessClient({ model: "m", generate: (request) => (requests.push(request), calls.shift()) })
  const result = await client.run("weather?", { toolkit: await createToolkit({ extraTools: [weather] }) })
  assert.equal(result.text, "done")
  const toolMessages = result.messages.filter((m) => m.role === "tool").map((m) => m.content)
  assert.match(toolMessages[0], /^Invalid arguments for tool "get_weather": city: /)
  assert.equal(toolMessages[1], "Paris: 21°F")
})

test("the CommonJS build's defineTool takes a Standard Schema too", async () => {
  const require = createRequire(import.meta.url)
  const cjs = require("../../pkg/node.cjs")
  const tool = cjs.defineTool({ name: "cjs", inputSchema: z.object({ n: z.number() }), run: ({ n }) => String(n * 2) })
  assert.deepEqual(await tool.execute({ n: 21 }), { output: "42", isError: false })
  assert.equal((await tool.execute({ n: "x" })).isError, true)
})
