// Runs in a temp Deno project whose node_modules holds the packed toolnexus-wasm (see run.sh).
import { createToolkit, defineTool, toOpenAI, tool, collectTools, loadSkills, SKILLS_PROMPT_PREAMBLE } from "toolnexus-wasm"

// No std library download: three small assertions are enough here.
const assert = {
  equal(actual: unknown, expected: unknown) {
    if (!Object.is(actual, expected)) throw new Error(`expected ${String(expected)}, got ${String(actual)}`)
  },
  deepEqual(actual: unknown, expected: unknown) {
    const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)]
    if (a !== e) throw new Error(`expected ${e}, got ${a}`)
  },
  match(actual: string, pattern: RegExp) {
    if (!pattern.test(actual)) throw new Error(`${actual} does not match ${pattern}`)
  },
}

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  run: ({ a, b }) => String(Number(a) + Number(b)),
})

// Settles only when the caller's signal fires.
const wait = defineTool({
  name: "wait",
  description: "Waits until aborted",
  run: (_args, ctx) =>
    new Promise((_, reject) => ctx.signal?.addEventListener("abort", () => reject(new Error("saw abort")))),
})

Deno.test("the deno export condition loads deno.js (the build compiled for speed, as Node's)", () => {
  const url = import.meta.resolve("toolnexus-wasm")
  assert.match(url, /^file:\/\/.*\/node_modules\/toolnexus-wasm\/deno\.js$/)
})

Deno.test("defineTool + createToolkit + execute", async () => {
  const toolkit = await createToolkit({ extraTools: [add, wait], builtins: false })
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["add", "wait"])
  assert.deepEqual(await toolkit.execute("add", { a: 2, b: 3 }), { output: "5", isError: false })
  const bad = await toolkit.execute("add", { a: 2 })
  assert.equal(bad.isError, true)
  assert.equal(bad.output, 'Invalid arguments for tool "add": required property "b" is missing')
})

Deno.test("toOpenAI, on the toolkit and stand-alone", async () => {
  const toolkit = await createToolkit({ extraTools: [add], builtins: false })
  const [entry] = toolkit.toOpenAI()
  assert.equal(entry.type, "function")
  assert.equal(entry.function.name, "add")
  assert.deepEqual(entry.function.parameters.required, ["a", "b"])
  assert.deepEqual(toOpenAI([add]), toolkit.toOpenAI())
})

Deno.test("an AbortSignal ends a running call", async () => {
  const toolkit = await createToolkit({ extraTools: [wait], builtins: false })
  const controller = new AbortController()
  const running = toolkit.execute("wait", {}, { signal: controller.signal })
  controller.abort("user left")
  assert.deepEqual(await running, { output: 'Tool "wait" was aborted: user left', isError: true })
})

// Deno's op sanitizer fails this test if the 60 s timeout timer outlives the call.
Deno.test("a finished call leaves no timer behind", async () => {
  const toolkit = await createToolkit({ extraTools: [add], builtins: false })
  const result = await toolkit.execute("add", { a: 1, b: 1 }, { timeout: 60_000 })
  assert.equal(result.output, "2")
})

Deno.test("toolnexus-wasm/core: the lean build loads through the deno condition and runs the loop", async () => {
  assert.match(import.meta.resolve("toolnexus-wasm/core"), /\/node_modules\/toolnexus-wasm\/core\/deno\.js$/)
  const core = await import("toolnexus-wasm/core")
  const greet = core.defineTool({
    name: "greet",
    inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    run: ({ name }) => `Hello, ${String(name)}!`,
  })
  const toolkit = await core.createToolkit({ extraTools: [greet] })
  let turn = 0
  const fetch = (_url: string, init: { body?: string }) => {
    const body = JSON.parse(init.body ?? "{}")
    const message = turn++ === 0
      ? { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "greet", arguments: '{"name":"Deno"}' } }] }
      : { role: "assistant", content: `saw ${body.messages.at(-1).content}` }
    return Promise.resolve(new Response(JSON.stringify({ choices: [{ message }] })))
  }
  const client = core.createClient({ baseUrl: "http://model.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch })
  const result = await client.run("Greet Deno", { toolkit })
  assert.equal(result.text, "saw Hello, Deno!")
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["greet"])
  assert.equal("listSkills" in core, false)
})

Deno.test("the reference port's helpers: tool / collectTools, loadSkills and its preamble, a signal", async () => {
  const helpers = { shout: tool("Upper-cases text")(({ text }: { text: string }) => text.toUpperCase()) }
  const [shout] = collectTools(helpers)
  assert.deepEqual(await shout.execute({ text: "hey" }), { output: "HEY", isError: false })
  const source = await loadSkills({ skills: [{ name: "pdf", description: "PDF work", content: "x" }] })
  assert.equal(source.prompt(), `${SKILLS_PROMPT_PREAMBLE}\n\n## Available Skills\n- **pdf**: PDF work`)
  let code = ""
  try {
    await createToolkit({ signal: AbortSignal.abort() })
  } catch (error) {
    code = (error as { code?: string }).code ?? ""
  }
  assert.equal(code, "aborted")
})
