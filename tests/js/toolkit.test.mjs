// createToolkit and the Toolkit: assembly options, routing, identity, register, duplicates,
// reference-shaped tools, and the honest refusal of options this version does not have yet.
import { test, beforeEach, afterEach } from "node:test"
import assert from "node:assert/strict"
import { createToolkit, defineTool, Toolkit } from "../../pkg/node.mjs"

const named = (name, output = name) => defineTool({ name, description: name.toUpperCase(), run: () => output })
const names = (toolkit) => toolkit.tools().map((t) => t.name)

let warnings
let realWarn
beforeEach(() => {
  warnings = []
  realWarn = console.warn
  console.warn = (...args) => warnings.push(args)
})
afterEach(() => {
  console.warn = realWarn
})

async function rejects(options, code, message) {
  await assert.rejects(createToolkit(options), (e) => {
    assert.ok(e instanceof Error, "an Error")
    assert.equal(e.code, code)
    if (message !== undefined) assert.equal(e.message, message)
    return true
  }, JSON.stringify(options))
}

const BUILTINS = ["read", "write", "edit", "grep", "glob", "webfetch", "question", "apply_patch", "todowrite"]

test("createToolkit returns a Promise of a Toolkit; no options gives the built-ins (bash needs exec)", async () => {
  const promise = createToolkit()
  assert.ok(promise instanceof Promise)
  const toolkit = await promise
  assert.ok(toolkit instanceof Toolkit)
  assert.deepEqual(names(toolkit), BUILTINS)
  assert.deepEqual(names(await createToolkit({})), BUILTINS)
  assert.deepEqual(names(await createToolkit(null)), BUILTINS)
  assert.deepEqual(names(await createToolkit({ builtins: false })), [])
})

test("tools() keeps the given order and gives back the very objects given", async () => {
  const a = named("a"), b = named("b"), c = named("c")
  const toolkit = await createToolkit({ builtins: false, extraTools: [b, a, c] })
  const tools = toolkit.tools()
  assert.deepEqual(tools.map((t) => t.name), ["b", "a", "c"])
  assert.equal(tools[0], b)
  assert.equal(tools[1], a)
  assert.equal(tools[2], c)
  assert.notEqual(toolkit.tools(), tools, "a fresh array each time")
  assert.equal(toolkit.tools()[0], b)
})

test("get(name) gives the tool given, undefined for an unknown name", async () => {
  const a = named("a")
  const toolkit = await createToolkit({ builtins: false, extraTools: [a] })
  assert.equal(toolkit.get("a"), a)
  assert.equal(toolkit.get("missing"), undefined)
  assert.equal(toolkit.get(""), undefined)
})

test("register(...tools) is variadic, appends in order and returns the toolkit", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [named("a")] })
  const b = named("b"), c = named("c")
  assert.equal(toolkit.register(b, c), toolkit)
  assert.equal(toolkit.register(), toolkit)
  assert.deepEqual(names(toolkit), ["a", "b", "c"])
  assert.equal(toolkit.get("c"), c)
  assert.deepEqual(await toolkit.execute("c", {}), { output: "c", isError: false })
  toolkit.registerAll([named("d")])
  assert.deepEqual(names(toolkit), ["a", "b", "c", "d"])
  assert.deepEqual(warnings, [])
})

test("register of a bad tool throws invalid_tool naming its position", async () => {
  const toolkit = await createToolkit({ builtins: false })
  assert.throws(() => toolkit.register(named("ok"), { name: "bad name", execute() {} }), {
    code: "invalid_tool",
    message: 'register[1]: tool name "bad name" is invalid: use only letters, digits, "_" and "-" (sanitize gives "bad_name")',
  })
  assert.throws(() => toolkit.register(5), {
    code: "invalid_tool",
    message: "register[0]: a tool must be an object with name, description, inputSchema and execute, got number",
  })
  assert.throws(() => toolkit.register({ name: "noexec" }), {
    code: "invalid_tool",
    message: 'register[0]: tool "noexec" needs an execute(args, ctx) function',
  })
  assert.throws(() => toolkit.registerAll("x"), { code: "invalid_options", message: "register: expected an array of tools, got string" })
  assert.deepEqual(names(toolkit), [], "nothing of a refused batch is registered")
})

test("duplicates: the first wins, with a console warning", async () => {
  const first = named("a", "first"), second = named("a", "second")
  const toolkit = await createToolkit({ builtins: false, extraTools: [first, named("b"), second] })
  assert.deepEqual(names(toolkit), ["a", "b"])
  assert.equal(toolkit.get("a"), first)
  assert.deepEqual(warnings, [['[toolnexus] duplicate tool name "a" — keeping first']])
  assert.deepEqual(await toolkit.execute("a", {}), { output: "first", isError: false })
  warnings.length = 0
  toolkit.register(named("b", "late"), named("c"))
  assert.deepEqual(warnings, [['[toolnexus] duplicate tool name "b" — keeping first']])
  assert.deepEqual(names(toolkit), ["a", "b", "c"])
  assert.deepEqual(await toolkit.execute("b", {}), { output: "b", isError: false })
})

test("execute of an unknown tool is an error result listing the available tools", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [named("a"), named("b")] })
  assert.deepEqual(await toolkit.execute("x", {}), { output: "Unknown tool: x. Available tools: a, b", isError: true })
  const empty = await createToolkit({ builtins: false })
  assert.deepEqual(await empty.execute("x", {}), { output: "Unknown tool: x. Available tools: none", isError: true })
})

test("execute with a non-string name resolves to an error result instead of throwing", {
}, async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [named("a")] })
  for (const name of [5, undefined, {}]) {
    let result
    assert.doesNotThrow(() => { result = toolkit.execute(name, {}) }, String(name))
    const r = await result
    assert.equal(r.isError, true)
    assert.match(r.output, /^Unknown tool: /)
  }
  assert.equal(toolkit.get(5), undefined)
})

test("skillsPrompt() is empty, mcpStatus() is {}, close() resolves", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [named("a")] })
  assert.equal(toolkit.skillsPrompt(), "")
  assert.deepEqual(toolkit.mcpStatus(), {})
  const closing = toolkit.close()
  assert.ok(closing instanceof Promise)
  assert.equal(await closing, undefined)
})

test("any object shaped like a reference Tool works, with this bound to the object", async () => {
  const ref = {
    name: "ref",
    description: "Reference-shaped",
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    source: "custom",
    calls: 0,
    async execute(args, ctx) {
      this.calls++
      return { output: `n=${args.n} self=${this === ref} ctx=${typeof ctx}`, isError: false }
    },
  }
  const plain = { name: "plain", description: "", execute() { return "plain:" + (this === plain) } }
  const toolkit = await createToolkit({ builtins: false, extraTools: [ref] })
  assert.equal(toolkit.register(plain), toolkit)
  assert.equal(toolkit.get("ref"), ref)
  assert.equal(toolkit.get("plain"), plain)
  assert.deepEqual(await toolkit.execute("ref", { n: 3 }), { output: "n=3 self=true ctx=object", isError: false })
  assert.equal(ref.calls, 1)
  assert.deepEqual(await toolkit.execute("plain"), { output: "plain:true", isError: false })
  assert.deepEqual(await toolkit.execute("ref", {}), {
    output: 'Invalid arguments for tool "ref": required property "n" is missing',
    isError: true,
  })
  assert.equal(ref.calls, 1, "the schema is checked before execute runs")
  assert.deepEqual(JSON.parse(JSON.stringify(toolkit.toAnthropic())), [
    { name: "ref", description: "Reference-shaped", input_schema: ref.inputSchema },
    { name: "plain", description: "", input_schema: { type: "object", properties: {}, additionalProperties: false } },
  ])
})

test("disableTools drops tools by name", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [named("a"), named("b"), named("c")], disableTools: ["b", "zz"] })
  assert.deepEqual(names(toolkit), ["a", "c"])
  assert.equal(toolkit.get("b"), undefined)
  assert.deepEqual(await toolkit.execute("b", {}), { output: "Unknown tool: b. Available tools: a, c", isError: true })
  await rejects({ disableTools: "a" }, "invalid_options", "createToolkit: disableTools must be an array of strings, got string")
  await rejects({ disableTools: ["a", 1] }, "invalid_options", "createToolkit: disableTools must be an array of strings, got number at [1]")
})

test("the builtins toggle is accepted in every form; extra tools stay", async () => {
  const forms = [
    [false, []], [true, BUILTINS], [{ disabled: true }, []], [{ enabled: false }, []], [{ enabled: true }, BUILTINS],
    [{ tools: { bash: false } }, BUILTINS], [{ tools: { read: false, glob: false } }, BUILTINS.filter((n) => n !== "read" && n !== "glob")],
  ]
  for (const [builtins, kept] of forms) {
    const toolkit = await createToolkit({ builtins, extraTools: [named("mine")] })
    assert.deepEqual(names(toolkit), [...kept, "mine"], JSON.stringify(builtins))
  }
  assert.deepEqual(names(await createToolkit({ mcpConfig: { builtins: false }, extraTools: [named("m")] })), ["m"])
})

test("invalid builtins, options, and extraTools reject with invalid_options", async () => {
  const builtinsMessage = "createToolkit: builtins must be a boolean or {enabled?, disabled?, tools?}, got "
  await rejects({ builtins: "no" }, "invalid_options", builtinsMessage + '"no"')
  await rejects({ builtins: 5 }, "invalid_options", builtinsMessage + "5")
  await rejects({ builtins: [] }, "invalid_options", builtinsMessage + "array")
  await rejects(5, "invalid_options", "createToolkit: options must be an object, got number")
  await rejects("x", "invalid_options", "createToolkit: options must be an object, got string")
  await rejects({ extraTools: "x" }, "invalid_options", "extraTools: expected an array of tools, got string")
  await rejects({ extraTools: {} }, "invalid_options", "extraTools: expected an array of tools, got object")
  await rejects({ extraTools: [named("a"), 5] }, "invalid_tool",
    "extraTools[1]: a tool must be an object with name, description, inputSchema and execute, got number")
})

test("agents (SPEC §7A) have landed: an empty list is no agent; a config file that is not there rejects", async () => {
  const toolkit = await createToolkit({ builtins: false, agents: [] })
  assert.deepEqual(toolkit.agentStatus(), {})
  assert.deepEqual(toolkit.agentErrors(), {})
  await rejects({ agents: {} }, "invalid_options", "createToolkit: agents must be an array of agent({card}) descriptors, got object")
  await rejects({ mcpConfig: "./no-such-mcp.json" }, "invalid_config")
})

test("provider schemas are fresh copies each call and follow register (the cached lists are dropped)", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [named("a")] })
  for (const format of ["toOpenAI", "toAnthropic", "toGemini"]) {
    const first = toolkit[format]()
    const again = toolkit[format]()
    assert.notEqual(first, again)
    assert.deepEqual(first, again)
    ;(Array.isArray(first) ? first : [first]).length = 0
    assert.deepEqual(toolkit[format](), again, `${format}: mutating a result changes nothing`)
  }
  toolkit.register(named("b"))
  assert.deepEqual(toolkit.toOpenAI().map((t) => t.function.name), ["a", "b"])
  assert.deepEqual(toolkit.toAnthropic().map((t) => t.name), ["a", "b"])
  assert.deepEqual(toolkit.toGemini()[0].functionDeclarations.map((t) => t.name), ["a", "b"])
})

test("Symbol.asyncDispose closes the toolkit (await using), in both builds", async () => {
  for (const make of [createToolkit, (await import("../../pkg/core/node.mjs")).createToolkit]) {
    const toolkit = await make({ builtins: false })
    const calls = []
    const close = toolkit.close
    toolkit.close = function () {
      calls.push(this)
      return close.call(this)
    }
    assert.equal(await toolkit[Symbol.asyncDispose](), undefined)
    assert.deepEqual(calls, [toolkit])
  }
})
