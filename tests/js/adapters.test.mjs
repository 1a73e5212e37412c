// Provider adapters, byte-exact: the JSON text of toOpenAI / toAnthropic / toGemini embeds each
// tool's schema exactly as JSON.stringify writes it (key order, number forms), for a toolkit
// and for the standalone exports alike.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createToolkit, defineTool, toAnthropic, toGemini, toOpenAI } from "../../pkg/node.mjs"

// Key order deliberately not alphabetical; numbers in several forms; a key JS itself reorders.
const weatherSchema = {
  type: "object",
  properties: {
    city: { type: "string", description: "City name", minLength: 1 },
    days: { type: "integer", minimum: 1, maximum: 1.5, default: -0 },
    units: { enum: ["c", "f"], default: "c" },
    bounds: { maximum: 1e21, minimum: 1e-7, step: 0.1, huge: 12345678901234567890, one: 1.0, neg: -2.5 },
    zeta: { type: "boolean" },
    alpha: { type: "null" },
  },
  required: ["city"],
  additionalProperties: false,
}
const searchSchema = {
  properties: {
    filter: {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" }, maxItems: 3 },
        range: { type: "object", properties: { from: { type: "number" }, to: { type: "number" } } },
      },
      required: ["tags"],
    },
    b: { type: "string" },
    10: { type: "string" },
  },
  type: "object",
  $schema: "https://json-schema.org/draft/2020-12/schema",
  "ünï": "☃ \u2028",
}

const WEATHER_TEXT =
  '{"type":"object","properties":{"city":{"type":"string","description":"City name","minLength":1},' +
  '"days":{"type":"integer","minimum":1,"maximum":1.5,"default":0},"units":{"enum":["c","f"],"default":"c"},' +
  '"bounds":{"maximum":1e+21,"minimum":1e-7,"step":0.1,"huge":12345678901234567000,"one":1,"neg":-2.5},' +
  '"zeta":{"type":"boolean"},"alpha":{"type":"null"}},"required":["city"],"additionalProperties":false}'
const SEARCH_TEXT =
  '{"properties":{"10":{"type":"string"},"filter":{"type":"object","properties":{"tags":{"type":"array",' +
  '"items":{"type":"string"},"maxItems":3},"range":{"type":"object","properties":{"from":{"type":"number"},' +
  '"to":{"type":"number"}}}},"required":["tags"]},"b":{"type":"string"}},"type":"object",' +
  '"$schema":"https://json-schema.org/draft/2020-12/schema","ünï":"☃ \u2028"}'

const WEATHER_DESC = 'Current "weather"\nfor a city'
const weather = defineTool({ name: "get_weather", description: WEATHER_DESC, inputSchema: weatherSchema, run: () => "" })
const search = { name: "search-docs", description: "Search", inputSchema: searchSchema, execute: () => "" }
const D1 = JSON.stringify(WEATHER_DESC)

const OPENAI =
  `[{"type":"function","function":{"name":"get_weather","description":${D1},"parameters":${WEATHER_TEXT}}},` +
  `{"type":"function","function":{"name":"search-docs","description":"Search","parameters":${SEARCH_TEXT}}}]`
const ANTHROPIC =
  `[{"name":"get_weather","description":${D1},"input_schema":${WEATHER_TEXT}},` +
  `{"name":"search-docs","description":"Search","input_schema":${SEARCH_TEXT}}]`
const GEMINI =
  `[{"functionDeclarations":[{"name":"get_weather","description":${D1},"parameters":${WEATHER_TEXT}},` +
  `{"name":"search-docs","description":"Search","parameters":${SEARCH_TEXT}}]}]`

test("the expected schema text is what JSON.stringify writes for the original schemas", () => {
  assert.equal(JSON.stringify(weatherSchema), WEATHER_TEXT)
  assert.equal(JSON.stringify(searchSchema), SEARCH_TEXT)
})

test("toolkit.toOpenAI() is byte-exact", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather, search] })
  assert.equal(JSON.stringify(toolkit.toOpenAI()), OPENAI)
})

test("toolkit.toAnthropic() is byte-exact", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather, search] })
  assert.equal(JSON.stringify(toolkit.toAnthropic()), ANTHROPIC)
})

test("toolkit.toGemini() is byte-exact", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [weather, search] })
  assert.equal(JSON.stringify(toolkit.toGemini()), GEMINI)
})

test("the standalone adapters give the same text", () => {
  assert.equal(JSON.stringify(toOpenAI([weather, search])), OPENAI)
  assert.equal(JSON.stringify(toAnthropic([weather, search])), ANTHROPIC)
  assert.equal(JSON.stringify(toGemini([weather, search])), GEMINI)
})

test("adapters follow the toolkit: registration order, disableTools, fresh values", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [search], disableTools: ["nope"] })
  toolkit.register(weather)
  const order = toolkit.toOpenAI().map((t) => t.function.name)
  assert.deepEqual(order, ["search-docs", "get_weather"])
  const first = toolkit.toAnthropic()
  first[0].input_schema.type = "changed"
  assert.equal(toolkit.toAnthropic()[0].input_schema.type, "object")
  const dropped = await createToolkit({ builtins: false, extraTools: [weather, search], disableTools: ["get_weather"] })
  assert.deepEqual(dropped.toGemini()[0].functionDeclarations.map((d) => d.name), ["search-docs"])
})

test("a tool without a schema gets the reference's default object schema in every adapter", () => {
  const bare = defineTool({ name: "ping", run: () => "pong" })
  const empty = '{"type":"object","properties":{}}'
  assert.equal(JSON.stringify(toOpenAI([bare])), `[{"type":"function","function":{"name":"ping","description":"","parameters":${empty}}}]`)
  assert.equal(JSON.stringify(toAnthropic([bare])), `[{"name":"ping","description":"","input_schema":${empty}}]`)
  assert.equal(JSON.stringify(toGemini([bare])), `[{"functionDeclarations":[{"name":"ping","description":"","parameters":${empty}}]}]`)
})

test("empty toolkit and empty lists: [], [], [{functionDeclarations: []}]", async () => {
  const toolkit = await createToolkit({ builtins: false })
  assert.equal(JSON.stringify(toolkit.toOpenAI()), "[]")
  assert.equal(JSON.stringify(toolkit.toAnthropic()), "[]")
  assert.equal(JSON.stringify(toolkit.toGemini()), '[{"functionDeclarations":[]}]')
  assert.equal(JSON.stringify(toOpenAI([])), "[]")
  assert.equal(JSON.stringify(toAnthropic([])), "[]")
  assert.equal(JSON.stringify(toGemini([])), '[{"functionDeclarations":[]}]')
})

test("standalone adapters refuse what is not a list of tools with code invalid_tool", () => {
  for (const adapter of [toOpenAI, toAnthropic, toGemini]) {
    assert.throws(() => adapter("x"), { code: "invalid_tool", message: "expected an array of tools, got string" })
    assert.throws(() => adapter(undefined), { code: "invalid_tool", message: "expected an array of tools, got undefined" })
    assert.throws(() => adapter([{ name: "a b" }]), {
      code: "invalid_tool",
      message: 'tool name "a b" is invalid: use only letters, digits, "_" and "-" (sanitize gives "a_b")',
    })
  }
})
