// defineTool: the definition checks, the getters, the context, and the one ToolResult every
// return value, throw and rejection becomes (src/js/tool_result.rs).
import { test } from "node:test"
import assert from "node:assert/strict"
import { createToolkit, defineTool, toOpenAI, Tool } from "../../pkg/node.mjs"

// The reference port's default: an object with no declared properties (any arguments).
const DEFAULT_SCHEMA = { type: "object", properties: {} }

async function outcome(run) {
  return defineTool({ name: "t", description: "d", run }).execute({})
}
const ok = (output) => ({ output, isError: false })
const err = (output) => ({ output, isError: true })

test("getters: name, description, source, inputSchema", () => {
  const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
  const tool = defineTool({ name: "get_weather", description: "Weather", inputSchema: schema, source: "custom", run: () => "" })
  assert.ok(tool instanceof Tool)
  assert.equal(tool.name, "get_weather")
  assert.equal(tool.description, "Weather")
  assert.equal(tool.source, "custom")
  assert.deepEqual(tool.inputSchema, schema)
  assert.equal(typeof tool.execute, "function")
})

test("defaults: description empty, source native, the empty object schema", () => {
  const tool = defineTool({ name: "bare", run: () => "" })
  assert.equal(tool.description, "")
  assert.equal(tool.source, "native")
  assert.deepEqual(tool.inputSchema, DEFAULT_SCHEMA)
})

test("the schema is copied in and handed out as a fresh copy", () => {
  const schema = { type: "object", properties: { a: { type: "number" } } }
  const tool = defineTool({ name: "copy", inputSchema: schema, run: () => "" })
  schema.properties.b = { type: "string" }
  assert.deepEqual(tool.inputSchema, { type: "object", properties: { a: { type: "number" } } })
  tool.inputSchema.properties.c = {}
  assert.notEqual(tool.inputSchema, tool.inputSchema)
  assert.deepEqual(Object.keys(tool.inputSchema.properties), ["a"])
})

test("run returning a string, a ToolResult, or a Promise of either", async () => {
  assert.deepEqual(await outcome(() => "hi"), ok("hi"))
  assert.deepEqual(await outcome(() => ""), ok(""))
  assert.deepEqual(await outcome(() => ({ output: "o", isError: false, metadata: { k: [1] } })), {
    output: "o", isError: false, metadata: { k: [1] },
  })
  assert.deepEqual(await outcome(() => ({ output: "failed", isError: true })), err("failed"))
  assert.deepEqual(await outcome(() => ({ output: "only" })), ok("only"))
  assert.deepEqual(await outcome(async () => "ps"), ok("ps"))
  assert.deepEqual(await outcome(() => Promise.resolve({ output: "po", isError: true })), err("po"))
  assert.deepEqual(await outcome(() => ({ then: (resolve) => resolve("thenable") })), ok("thenable"))
})

test("run returning undefined or null gives an empty successful output", async () => {
  assert.deepEqual(await outcome(() => undefined), ok(""))
  assert.deepEqual(await outcome(() => null), ok(""))
  assert.deepEqual(await outcome(async () => {}), ok(""))
})

test("run returning a number, a boolean or a bigint gives its text", {
}, async () => {
  for (const [value, text] of [[42, "42"], [1.5, "1.5"], [true, "true"], [false, "false"], [12345678901234567890n, "12345678901234567890"]]) {
    assert.deepEqual(await outcome(() => value), ok(text), text)
  }
})

test("run returning a plain object or an array gives its JSON text", async () => {
  assert.deepEqual(await outcome(() => ({ b: 2, a: [1, "x"], n: null })), ok('{"b":2,"a":[1,"x"],"n":null}'))
  assert.deepEqual(await outcome(() => [1, { a: 2 }]), ok('[1,{"a":2}]'))
  assert.deepEqual(await outcome(() => ({})), ok("{}"))
})

test("run returning what cannot be a result gives a clear error result", async () => {
  const cyclic = { a: 1 }
  cyclic.self = cyclic
  const c = await outcome(() => cyclic)
  assert.equal(c.isError, true)
  assert.ok(c.output.startsWith('Tool "t" returned a value that cannot be turned into JSON: Converting circular structure to JSON'), c.output)
  assert.deepEqual(await outcome(() => ({ n: 1n })),
    err('Tool "t" returned a value that cannot be turned into JSON: Do not know how to serialize a BigInt'))
  assert.deepEqual(await outcome(() => () => 1), err('Tool "t" returned a function, not a string or a ToolResult'))
  assert.deepEqual(await outcome(() => Symbol("s")), err('Tool "t" returned a symbol, not a string or a ToolResult'))
})

test("a malformed ToolResult is an error result naming the problem", async () => {
  assert.deepEqual(await outcome(() => ({ output: 5, isError: false })),
    err('Tool "t" returned a ToolResult whose "output" is number, not a string'))
  assert.deepEqual(await outcome(() => ({ isError: true })),
    err('Tool "t" returned a ToolResult whose "output" is undefined, not a string'))
  assert.deepEqual(await outcome(() => ({ output: "x", isError: "yes" })),
    err('Tool "t" returned a ToolResult whose "isError" is string, not a boolean'))
  assert.deepEqual(await outcome(() => ({ output: "x", isError: false, metadata: "m" })),
    err('Tool "t" returned a ToolResult whose "metadata" is string, not an object'))
  assert.deepEqual(await outcome(() => ({ output: "x", isError: false, metadata: [1] })),
    err('Tool "t" returned a ToolResult whose "metadata" is array, not an object'))
  const cyclic = {}
  cyclic.self = cyclic
  const m = await outcome(() => ({ output: "x", metadata: cyclic }))
  assert.equal(m.isError, true)
  assert.ok(m.output.startsWith('Tool "t" returned metadata that cannot be turned into JSON: '), m.output)
})

test("run throwing or rejecting: each gives an error result with a useful message", async () => {
  const empty = new Error("")
  empty.name = ""
  const cases = [
    ["Error", () => { throw new Error("bad thing") }, "bad thing"],
    ["rejected Error", async () => { throw new Error("async bad") }, "async bad"],
    ["TypeError from the runtime", () => null.x, "Cannot read properties of null (reading 'x')"],
    ["string", () => { throw "plain" }, "plain"],
    ["rejected string", () => Promise.reject("nope"), "nope"],
    ["undefined", () => { throw undefined }, 'Tool "t" failed: it threw undefined'],
    ["rejected undefined", () => Promise.reject(undefined), 'Tool "t" failed: it threw undefined'],
    ["null", () => { throw null }, 'Tool "t" failed: it threw null'],
    ["number", () => { throw 42 }, "42"],
    ["object", () => { throw { code: 7, why: "x" } }, '{"code":7,"why":"x"}'],
    ["object with non-string message", () => { throw { message: 5 } }, '{"message":5}'],
    ["Error with empty message", () => { throw new Error("") }, "Error"],
    ["TypeError with empty message", () => { throw new TypeError("") }, "TypeError"],
    ["Error with empty message and name", () => { throw empty }, 'Tool "t" failed with an empty error'],
    ["empty string", () => { throw "" }, 'Tool "t" failed with an empty error'],
    ["rejecting thenable", () => ({ then: (_, reject) => reject(new Error("thenable no")) }), "thenable no"],
  ]
  for (const [label, run, message] of cases) {
    assert.deepEqual(await outcome(run), err(message), label)
  }
})

test("run throwing an empty object or a Proxy still gives a non-empty error result", async () => {
  for (const thrown of [{}, new Proxy({}, { get() { throw new Error("trap") } })]) {
    const r = await outcome(() => { throw thrown })
    assert.equal(r.isError, true)
    assert.equal(typeof r.output, "string")
    assert.ok(r.output.length > 0)
  }
})

test("run throwing a bigint or a symbol reports its value", {
}, async () => {
  assert.deepEqual(await outcome(() => { throw 5n }), err("5"))
  assert.deepEqual(await outcome(() => { throw Symbol("z") }), err("Symbol(z)"))
})

test("ctx passed to run carries signal, timeout and answer when given, nothing otherwise", async () => {
  let seen
  const tool = defineTool({ name: "ctx", run: (args, ctx) => { seen = { args, ctx }; return "ok" } })
  const controller = new AbortController()
  const answer = { id: "p1", ok: true, data: { v: 1 }, reason: "because" }
  assert.deepEqual(await tool.execute({}, { signal: controller.signal, timeout: 1000, answer }), ok("ok"))
  assert.deepEqual(Object.keys(seen.ctx).sort(), ["answer", "signal", "timeout"])
  assert.equal(seen.ctx.signal, controller.signal)
  assert.equal(seen.ctx.timeout, 1000)
  assert.deepEqual(seen.ctx.answer, answer)
  await tool.execute({}, { answer: { id: "p2", ok: false, reason: "declined", extra: 1 } })
  assert.deepEqual(Object.keys(seen.ctx.answer), ["id", "ok", "reason"], "Answer keys exactly")
  await tool.execute()
  assert.deepEqual(seen.args, {})
  assert.deepEqual(Object.keys(seen.ctx), [])
  await tool.execute(null, null)
  assert.deepEqual(seen.args, {})
})

test("args reach run as a fresh copy of what the caller passed", async () => {
  let seen
  const tool = defineTool({
    name: "echo",
    inputSchema: { type: "object", properties: { a: { type: "object" } } },
    run: (args) => { seen = args; args.a.x = 2; return JSON.stringify(args) },
  })
  const args = { a: { x: 1, s: "é☃" } }
  assert.deepEqual(await tool.execute(args), ok('{"a":{"x":2,"s":"é☃"}}'))
  assert.notEqual(seen, args)
  assert.equal(args.a.x, 1)
})

test("invalid definitions throw an Error with code invalid_tool and a clear message", () => {
  const noRun = "defineTool: options.run must be a function (args, ctx) => string | ToolResult | Promise"
  const cases = [
    [{ name: "a", description: "d" }, noRun],
    [{ name: "a", run: "x" }, noRun],
    [undefined, noRun],
    [{ name: "get weather", run() {} },
      'defineTool: tool name "get weather" is invalid: use only letters, digits, "_" and "-" (sanitize gives "get_weather")'],
    [{ name: "", run() {} }, "defineTool: a tool needs a non-empty name"],
    [{ run() {} }, 'defineTool: a tool needs a string "name", got undefined'],
    [{ name: 5, run() {} }, 'defineTool: a tool needs a string "name", got number'],
    [{ name: "a", inputSchema: "x", run() {} }, 'defineTool: tool "a": inputSchema must be a JSON Schema object, got string'],
    [{ name: "a", inputSchema: [], run() {} }, 'defineTool: tool "a": inputSchema must be a JSON Schema object, got array'],
    [{ name: "a", inputSchema: { type: "string" }, run() {} },
      'defineTool: tool "a": inputSchema.type must be "object" (tool arguments are always an object), got "string"'],
    [{ name: "a", description: 5, run() {} }, 'defineTool: tool "a": "description" must be a string, got number'],
    [{ name: "a", source: 5, run() {} }, 'defineTool: tool "a": "source" must be a string, got number'],
  ]
  for (const [options, message] of cases) {
    assert.throws(
      () => defineTool(options),
      (e) => e instanceof Error && e.code === "invalid_tool" && e.message === message,
      message,
    )
  }
})

test("a schema of any content reads back, and goes to every provider list, as JSON.stringify gives it", async () => {
  const deep = (n) => (n === 0 ? { type: "string" } : { type: "object", properties: { x: deep(n - 1) } })
  const schemas = [
    { type: "object", properties: { n: { type: "number", minimum: 0.5, maximum: 1e21, multipleOf: 1e-7 } } },
    { type: "object", properties: { big: { const: 2 ** 60 }, neg: { const: -0 }, small: { const: -12 } } },
    { description: 'quotes " and \\ and \n and \u0001 and é and 😀 and \u2028', required: ["a"] },
    { type: "object", properties: { 10: { type: "string" }, b: {}, 2: {} } },
    { type: "object", toJSON: () => ({ type: "object", properties: { viaToJSON: {} } }) },
    deep(60),
  ]
  for (const schema of schemas) {
    const expected = JSON.parse(JSON.stringify(schema))
    const tool = defineTool({ name: "t", description: "d", inputSchema: schema, run: () => "" })
    assert.deepEqual(tool.inputSchema, expected)
    const toolkit = await createToolkit({ builtins: false, extraTools: [tool] })
    assert.deepEqual(toolkit.toOpenAI()[0].function.parameters, expected)
    assert.deepEqual(toolkit.toAnthropic()[0].input_schema, expected)
    assert.deepEqual(toolkit.toGemini()[0].functionDeclarations[0].parameters, expected)
    assert.deepEqual(toOpenAI([tool])[0].function.parameters, expected)
  }
})

test("a schema JSON cannot carry is refused with the reason", () => {
  const deep = (n) => (n === 0 ? {} : { type: "object", properties: { x: deep(n - 1) } })
  const circular = { type: "object" }
  circular.self = circular
  const cases = [
    [{ type: "object", properties: { d: { description: "\ud800" } } }, /inputSchema is not JSON: unexpected end of hex escape/],
    [{ type: "object", properties: { x: deep(70) } }, /inputSchema is not JSON: recursion limit exceeded/],
    [{ type: "object", n: 1n }, /inputSchema is not JSON: .*BigInt/],
    [circular, /inputSchema is not JSON: .*circular/],
    [{ type: "object", get boom() { throw new Error("getter threw") } }, /inputSchema is not JSON: getter threw/],
    [{ toJSON: () => "text" }, /inputSchema must be a JSON Schema object, got string/],
    [{ toJSON: () => ({ type: "array" }) }, /inputSchema.type must be "object" .*got "array"/],
  ]
  for (const [inputSchema, message] of cases) {
    assert.throws(() => defineTool({ name: "t", inputSchema, run: () => "" }), (e) => e.code === "invalid_tool" && message.test(e.message), String(message))
  }
})

test("a definition whose fields throw or change as they are read is refused or read once, never half-read", () => {
  const throwing = { run: () => "", get name() { throw new Error("name getter threw") } }
  assert.throws(() => defineTool(throwing), (e) => e.code === "invalid_tool")
  let reads = 0
  const counting = { run: () => "", get name() { reads++; return "counted" } }
  assert.equal(defineTool(counting).name, "counted")
  assert.equal(reads, 1)
})

test("arguments are checked against a schema given as text the first time the tool runs", async () => {
  const tool = defineTool({
    name: "t",
    inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 2 } }, required: ["n"] },
    run: ({ n }) => `n=${n}`,
  })
  assert.deepEqual(await tool.execute({ n: 3 }), { output: "n=3", isError: false })
  const low = await tool.execute({ n: 1 })
  assert.equal(low.isError, true)
  assert.match(low.output, /n/)
  assert.equal((await tool.execute({})).isError, true)
})

test("without inputSchema a tool takes any arguments, as the reference port's does", async () => {
  const add = defineTool({ name: "add", description: "", run: ({ a, b }) => `${a + b}` })
  const toolkit = await createToolkit({ builtins: false, extraTools: [add] })
  assert.deepEqual(await toolkit.execute("add", { a: 2, b: 3 }), { output: "5", isError: false })
  assert.deepEqual(toOpenAI([add])[0].function.parameters, DEFAULT_SCHEMA)
  const declared = defineTool({ name: "strict", inputSchema: { type: "object", properties: {}, additionalProperties: false }, run: () => "" })
  const refused = await (await createToolkit({ builtins: false, extraTools: [declared] })).execute("strict", { a: 1 })
  assert.equal(refused.isError, true, "a declared closed schema is still enforced")
})
