// The CommonJS entry, used the way a `require` user uses it, and its parity with the ESM one.
"use strict"
const { test } = require("node:test")
const assert = require("node:assert/strict")
const path = require("node:path")
const { pathToFileURL } = require("node:url")
const toolnexus = require("../../pkg/node.cjs")

const { createToolkit, defineTool, pending, pendingOf, authRequired, sanitize, toOpenAI, toAnthropic, toGemini, Tool, Toolkit } = toolnexus
const loadEsm = () => import(pathToFileURL(path.join(__dirname, "../../pkg/node.mjs")).href)

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: ({ a, b }) => String(a + b),
})

test("require gives the whole API, instantiated synchronously", () => {
  for (const [name, value] of Object.entries({ createToolkit, defineTool, pending, pendingOf, authRequired, sanitize, toOpenAI, toAnthropic, toGemini, Tool, Toolkit })) {
    assert.equal(typeof value, "function", name)
  }
  assert.equal(sanitize("my server.v2"), "my_server_v2")
  assert.ok(add instanceof Tool)
})

test("a tool runs through a toolkit; validation and unknown names are error results", async () => {
  const toolkit = await createToolkit({ builtins: false, extraTools: [add] })
  assert.ok(toolkit instanceof Toolkit)
  assert.deepEqual(await toolkit.execute("add", { a: 1, b: 2 }), { output: "3", isError: false })
  assert.deepEqual(await toolkit.execute("add", { a: 1 }), { output: 'Invalid arguments for tool "add": required property "b" is missing', isError: true })
  assert.deepEqual(await toolkit.execute("sub", {}), { output: "Unknown tool: sub. Available tools: add", isError: true })
  assert.deepEqual(await add.execute({ a: 2, b: 2 }), { output: "4", isError: false })
})

test("register is variadic and chains in the CommonJS build too", async () => {
  const toolkit = await createToolkit({ builtins: false })
  const one = defineTool({ name: "one", run: () => "1" })
  const two = { name: "two", description: "", execute() { return "2:" + (this === two) } }
  assert.equal(toolkit.register(one, two), toolkit)
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["one", "two"])
  assert.equal(toolkit.get("two"), two)
  assert.deepEqual(await toolkit.execute("two"), { output: "2:true", isError: false })
})

test("throws and rejections are error results", async () => {
  const boom = defineTool({ name: "boom", run: () => { throw new Error("kaput") } })
  const nope = defineTool({ name: "nope", run: () => Promise.reject(undefined) })
  assert.deepEqual(await boom.execute({}), { output: "kaput", isError: true })
  assert.deepEqual(await nope.execute({}), { output: 'Tool "nope" failed: it threw undefined', isError: true })
})

test("suspensions and error codes", async () => {
  const r = pending({ id: "p1", kind: "approval", prompt: "Send?", url: "https://x.test" })
  assert.equal(r.output, "Send?\nhttps://x.test")
  assert.deepEqual(pendingOf(r), { id: "p1", kind: "approval", prompt: "Send?", url: "https://x.test" })
  assert.equal(pendingOf({ output: "x", isError: true }), undefined)
  assert.equal(authRequired("https://l").metadata.pending.kind, "authorization")
  assert.throws(() => pending("x"), { code: "invalid_request" })
  assert.throws(() => defineTool({ name: "a b", run() {} }), { code: "invalid_tool" })
  await assert.rejects(createToolkit({ agents: "x" }), { code: "invalid_options" })
  await assert.rejects(createToolkit({ builtins: "x" }), { code: "invalid_options" })
})

test("CJS and ESM entries export the same API and produce the same adapter text", async () => {
  const esm = await loadEsm()
  const esmOnly = Object.keys(esm).filter((k) => !(k in toolnexus))
  assert.deepEqual(esmOnly, [], "both entries are the facade's")
  const cjsOnly = Object.keys(toolnexus).filter((k) => !(k in esm))
  assert.deepEqual(cjsOnly, [])
  const esmAdd = esm.defineTool({
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    run: () => "",
  })
  assert.equal(JSON.stringify(esm.toOpenAI([esmAdd])), JSON.stringify(toOpenAI([add])))
  assert.equal(JSON.stringify(esm.toAnthropic([esmAdd])), JSON.stringify(toAnthropic([add])))
  assert.equal(JSON.stringify(esm.toGemini([esmAdd])), JSON.stringify(toGemini([add])))
})

test("a tool from one entry works in a toolkit of the other (two module instances)", async () => {
  const esm = await loadEsm()
  const esmToolkit = await esm.createToolkit({ builtins: false, extraTools: [add] })
  assert.equal(esmToolkit.get("add"), add)
  assert.deepEqual(await esmToolkit.execute("add", { a: 5, b: 6 }), { output: "11", isError: false })
  const cjsToolkit = await createToolkit({ builtins: false, extraTools: [esm.defineTool({ name: "e", run: () => "from esm" })] })
  assert.deepEqual(await cjsToolkit.execute("e"), { output: "from esm", isError: false })
})

test("a client takes only a toolkit its own module instance made: the other entry's is an invalid_options error", async () => {
  const esm = await loadEsm()
  const fetch = async () => new Response(JSON.stringify({ choices: [{ message: { role: "assistant", content: "hi" } }] }))
  const options = { baseUrl: "http://fake.invalid/v1", style: "openai", model: "m", fetch }
  const cjsToolkit = await createToolkit({ builtins: false, extraTools: [add] })
  const esmToolkit = await esm.createToolkit({ builtins: false, extraTools: [add] })
  assert.equal((await toolnexus.createClient(options).run("x", { toolkit: cjsToolkit })).text, "hi")
  assert.equal((await esm.createClient(options).run("x", { toolkit: esmToolkit })).text, "hi")
  for (const [client, toolkit] of [[toolnexus.createClient(options), esmToolkit], [esm.createClient(options), cjsToolkit]]) {
    await assert.rejects(client.run("x", { toolkit }), (e) => e.code === "invalid_options" && /ctx.toolkit must be a Toolkit made by createToolkit/.test(e.message))
  }
  await assert.rejects(toolnexus.createClient(options).run("x", { toolkit: { tools: () => [] } }), (e) => e.code === "invalid_options")
  await assert.rejects(toolnexus.createClient(options).run("x", null), (e) => e.code === "invalid_options")
})
