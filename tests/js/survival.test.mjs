// One module instance survives everything: every bad input of the other files, run in one
// process, then a normal call still works; 10,000 rapid calls mixing throws and successes
// neither break it nor leak wasm memory. The full build here; survival-core.test.mjs runs the
// same file against the lean build (TOOLNEXUS_BUILD=core).
import { test } from "node:test"
import assert from "node:assert/strict"

const lean = process.env.TOOLNEXUS_BUILD === "core"
const toolnexus = await import(lean ? "../../pkg/core/node.mjs" : "../../pkg/node.mjs")

const { authRequired, createToolkit, defineTool, pending, pendingOf, sanitize, toAnthropic, toGemini, toOpenAI } = toolnexus

const cyclic = { a: 1 }
cyclic.self = cyclic
const trap = new Proxy({}, { get() { throw new Error("trap") }, has() { throw new Error("trap") }, ownKeys() { throw new Error("trap") } })
const returns = [undefined, null, 42, true, 5n, cyclic, () => 1, Symbol("s"), { output: 5 }, { output: "x", isError: "y" },
  { output: "x", metadata: "m" }, { output: "x", metadata: cyclic }, { n: 1n }, trap]
const throws = [new Error("e"), "s", undefined, null, 42, {}, new Error(""), "", 5n, Symbol("t"), trap]

/** Every bad input this suite knows, as thunks; each may throw, reject or resolve. */
function badCases(toolkit) {
  const cases = []
  for (const value of returns) cases.push(() => defineTool({ name: "r", run: () => value }).execute({}))
  for (const value of throws) {
    cases.push(() => defineTool({ name: "t", run: () => { throw value } }).execute({}))
    cases.push(() => defineTool({ name: "j", run: () => Promise.reject(value) }).execute({}))
  }
  for (const options of [{ name: "a", description: "d" }, { name: "a", run: "x" }, undefined, "x", trap,
    { name: "get weather", run() {} }, { name: "", run() {} }, { name: 5, run() {} }, { name: "a", inputSchema: "x", run() {} },
    { name: "a", inputSchema: [], run() {} }, { name: "a", inputSchema: { type: "string" }, run() {} },
    { name: "a", inputSchema: cyclic, run() {} }, { name: "a", description: 5, run() {} }]) {
    cases.push(() => defineTool(options))
  }
  for (const input of [undefined, null, "s", {}, { kind: "k" }, { kind: 1, prompt: "p" }, { kind: "k", prompt: "p", data: [1] }, cyclic, trap]) {
    cases.push(() => pending(input))
  }
  for (const value of [null, undefined, "s", 5, {}, trap, { metadata: trap }, { metadata: { pending: cyclic } }]) {
    cases.push(() => pendingOf(value))
  }
  for (const value of [5, {}, undefined, null, trap]) {
    cases.push(() => sanitize(value), () => authRequired(value), () => authRequired("u", value))
  }
  for (const options of [5, "x", trap, { builtins: "no" }, { builtins: 5 }, { extraTools: "x" }, { extraTools: [5] },
    { extraTools: [{ name: "q" }] }, { extraTools: [trap] }, { skills: [] }, { skillsDir: "x" }, { agents: [] },
    { mcpConfig: { mcpServers: {} } }, { mcpConfig: "x" }, { disableTools: "a" }, { disableTools: [1] }]) {
    cases.push(() => createToolkit(options))
  }
  for (const adapter of [toOpenAI, toAnthropic, toGemini]) {
    for (const list of ["x", undefined, [5], [{ name: "a b" }], [trap], cyclic]) cases.push(() => adapter(list))
  }
  for (const args of [{}, { city: 5 }, { city: "Oslo", extra: 1 }, "str", ["a"], 5, cyclic, { n: 1n }, trap]) {
    cases.push(() => toolkit.execute("w", args))
  }
  for (const ctx of [{ signal: 5 }, { signal: {} }, { timeout: -1 }, { timeout: NaN }, { answer: "x" }, { answer: { id: 1 } }, "ctx", trap]) {
    cases.push(() => toolkit.execute("w", { city: "Oslo" }, ctx))
  }
  cases.push(
    () => toolkit.execute("never", {}, { timeout: 1 }),
    () => toolkit.execute("never", {}, { signal: AbortSignal.abort() }),
    () => toolkit.execute("missing", {}),
    () => toolkit.execute(5, {}),
    () => toolkit.execute(undefined),
    () => toolkit.get(5),
    () => toolkit.get(undefined),
    () => toolkit.register(5),
    () => toolkit.register({ name: "bad name", execute() {} }),
    () => toolkit.register(trap),
    () => toolkit.registerAll("x"),
  )
  return cases
}

async function makeToolkit() {
  return createToolkit({
    builtins: false,
    extraTools: [
      defineTool({
        name: "w",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
        run: ({ city }) => `Sunny in ${city}`,
      }),
      defineTool({ name: "never", run: () => new Promise(() => {}) }),
    ],
  })
}

/** A normal call through every export, asserted exactly. */
async function assertHealthy(toolkit) {
  assert.deepEqual(await toolkit.execute("w", { city: "Oslo" }), { output: "Sunny in Oslo", isError: false })
  assert.deepEqual(toolkit.tools().map((t) => t.name), ["w", "never"])
  assert.equal(sanitize("my server.v2"), "my_server_v2")
  assert.equal(pendingOf(pending({ id: "p", kind: "k", prompt: "x" })).id, "p")
  assert.equal(authRequired("https://u").output, "Authorization required to continue\nhttps://u")
  const fresh = defineTool({ name: "fresh", run: (args) => JSON.stringify(args) })
  const kit = await createToolkit({ builtins: false, extraTools: [fresh] })
  assert.deepEqual(await kit.execute("fresh", {}), { output: "{}", isError: false })
  assert.equal(JSON.stringify(toOpenAI([fresh])),
    '[{"type":"function","function":{"name":"fresh","description":"","parameters":{"type":"object","properties":{}}}}]')
}

test(`the build under test is the ${lean ? "lean" : "full"} one`, () => {
  assert.equal("listSkills" in toolnexus, !lean)
})

test("every bad input, then a normal call on the same instance", async () => {
  const warn = console.warn
  console.warn = () => {}
  try {
    const toolkit = await makeToolkit()
    const cases = badCases(toolkit)
    assert.ok(cases.length > 120, `only ${cases.length} cases`)
    let settled = 0
    for (const run of cases) {
      try {
        await run()
      } catch {
        // refusing is fine; breaking the instance is not
      }
      settled++
    }
    assert.equal(settled, cases.length)
    await assertHealthy(toolkit)
    await assertHealthy(await makeToolkit())
  } finally {
    console.warn = warn
  }
})

test("10,000 rapid calls mixing throws, rejections, bad args and successes, then a normal call", async () => {
  const mixed = defineTool({
    name: "mixed",
    inputSchema: { type: "object", properties: { i: { type: "integer" } }, required: ["i"] },
    run: ({ i }) => {
      if (i % 4 === 0) throw new Error(`boom ${i}`)
      if (i % 4 === 1) return Promise.reject(`rejected ${i}`)
      if (i % 4 === 2) return Promise.resolve(`ok ${i}`)
      return { output: `result ${i}`, isError: false }
    },
  })
  const toolkit = await createToolkit({ builtins: false, extraTools: [mixed] })
  const results = []
  for (let batch = 0; batch < 10; batch++) {
    const calls = []
    for (let j = 0; j < 1000; j++) {
      const i = batch * 1000 + j
      calls.push(toolkit.execute("mixed", i % 10 === 9 ? { i: "bad" } : { i }))
    }
    results.push(...(await Promise.all(calls)))
  }
  assert.equal(results.length, 10_000)
  const expected = (i) => {
    if (i % 10 === 9) return { output: 'Invalid arguments for tool "mixed": i: expected integer, got string', isError: true }
    return [
      { output: `boom ${i}`, isError: true },
      { output: `rejected ${i}`, isError: true },
      { output: `ok ${i}`, isError: false },
      { output: `result ${i}`, isError: false },
    ][i % 4]
  }
  for (let i = 0; i < results.length; i++) assert.deepEqual(results[i], expected(i), `call ${i}`)
  assert.deepEqual(await toolkit.execute("mixed", { i: 3 }), { output: "result 3", isError: false })
  await assertHealthy(await makeToolkit())
})

test("repeated rounds of calls do not grow wasm memory", async (t) => {
  if (typeof toolnexus.initSync !== "function") return t.skip("initSync is not exported")
  const memory = () => toolnexus.initSync().memory.buffer.byteLength
  const tool = defineTool({ name: "m", run: ({ i }) => (i % 2 ? `ok ${i}` : Promise.reject(new Error(`no ${i}`))), inputSchema: { type: "object" } })
  const toolkit = await createToolkit({ builtins: false, extraTools: [tool] })
  const round = async () => {
    for (let b = 0; b < 5; b++) await Promise.all(Array.from({ length: 1000 }, (_, i) => toolkit.execute("m", { i, pad: "x".repeat(64) })))
    for (let i = 0; i < 500; i++) {
      try { defineTool({ name: "a b", run() {} }) } catch {}
      pending({ kind: "k", prompt: "p" })
    }
  }
  await round()
  await round()
  const warm = memory()
  for (let r = 0; r < 4; r++) await round()
  const growth = memory() - warm
  assert.ok(growth <= 256 * 1024, `wasm memory grew by ${growth} bytes over 20,000 more calls`)
})
