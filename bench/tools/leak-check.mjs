// Heap growth per run over 4,000 in-process runs with a caller signal (run: node --expose-gc bench/tools/leak-check.mjs).
// A flat result (a few bytes per run) means timers, abort listeners and their promises are released.
import * as t from "../../pkg/node.mjs"
const tool = t.defineTool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" } } }, run: ({ a }) => String(a + 1) })
const toolkit = await t.createToolkit({ extraTools: [tool], builtins: false })
const c = t.createInProcessClient({ model: "m", generate: ({ messages }) => messages.at(-1).role === "tool" ? { content: "ok" } : { toolCalls: [{ name: "add", arguments: { a: 1 } }] } })
const mem = () => { global.gc?.(); return process.memoryUsage().heapUsed }
for (let i = 0; i < 500; i++) await c.run("x", { toolkit, signal: new AbortController().signal })
const before = mem()
for (let i = 0; i < 4000; i++) await c.run("x", { toolkit, signal: new AbortController().signal })
const after = mem()
console.log("heap per run (bytes):", ((after - before) / 4000).toFixed(1))
