#!/usr/bin/env node
// Scenario 1's shape (one question, two parallel tool calls, then the answer) in both dialects,
// one build, in ONE process, alternated batch by batch over a Response-less in-process fetch;
// prints each dialect's median µs per run over 35 batches of 300 runs. What it shows: how much
// an Anthropic-style run costs next to an OpenAI-style one (scenario 1 measures only the latter).
//   node bench/tools/dialects.mjs            # pkg/
//   TOOLNEXUS_PKG=target/bench-variants/<name> node bench/tools/dialects.mjs
// Every run's text is checked; timings only, never a pass/fail on them.
import path from "node:path"
import { pathToFileURL } from "node:url"
const dir = process.env.TOOLNEXUS_PKG ?? "pkg"
const lib = await import(pathToFileURL(path.resolve(dir) + "/node.mjs").href)
const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
const tools = [
  lib.defineTool({ name: "get_weather", description: "Weather", inputSchema: schema, run: (a) => `weather:${a.city}=sunny` }),
  lib.defineTool({ name: "get_time", description: "Time", inputSchema: schema, run: (a) => `time:${a.city}=noon` }),
]
const toolkit = await lib.createToolkit({ builtins: false, extraTools: tools })
const anth1 = JSON.stringify({ id: "msg_1", type: "message", role: "assistant", model: "m", content: [
  { type: "tool_use", id: "toolu_0", name: "get_weather", input: { city: "c0" } },
  { type: "tool_use", id: "toolu_1", name: "get_time", input: { city: "c1" } }], stop_reason: "tool_use", usage: { input_tokens: 20, output_tokens: 10 } })
const anth2 = JSON.stringify({ id: "msg_2", type: "message", role: "assistant", model: "m", content: [{ type: "text", text: "final answer" }], stop_reason: "end_turn", usage: { input_tokens: 20, output_tokens: 10 } })
const oa1 = JSON.stringify({ id: "c", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [
  { id: "call_0", type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: "c0" }) } },
  { id: "call_1", type: "function", function: { name: "get_time", arguments: JSON.stringify({ city: "c1" }) } }] }, finish_reason: "tool_calls" }], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } })
const oa2 = JSON.stringify({ id: "c", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "final answer" }, finish_reason: "stop" }], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } })
const fake = (first, second, marker) => async (url, init) => {
  const text = init.body.includes(marker) ? second : first
  return { ok: true, status: 200, headers: new Headers(), text: async () => text }
}
const clients = {
  openai: lib.createClient({ baseUrl: "http://x.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch: fake(oa1, oa2, '"tool_call_id"') }),
  anthropic: lib.createClient({ baseUrl: "http://x.invalid/v1", style: "anthropic", model: "m", apiKey: "k", fetch: fake(anth1, anth2, '"tool_result"') }),
}
const t = { openai: [], anthropic: [] }
for (let round = 0; round < 40; round++) {
  for (const name of round % 2 ? ["anthropic", "openai"] : ["openai", "anthropic"]) {
    const t0 = performance.now()
    for (let i = 0; i < 300; i++) { const r = await clients[name].run("go", { toolkit }); if (r.text !== "final answer") throw new Error(name + " " + r.text) }
    if (round >= 5) t[name].push((performance.now() - t0) * 1000 / 300)
  }
}
for (const [k, v] of Object.entries(t)) { v.sort((a, b) => a - b); console.log(k, "median µs/run", v[v.length >> 1].toFixed(1)) }
