#!/usr/bin/env node
// One run whose model response carries 21,600 characters of text (a long answer), for two or
// more package builds in ONE process, alternated batch by batch; prints each build's median µs
// per run over 35 batches of 200 runs. What it shows: the cost of long strings going into the
// module (scripts/fast-strings.mjs), which scenario 1's short responses barely touch.
//   node bench/tools/long-text-ab.mjs target/bench-variants/<a> pkg
// Every run's text is checked; timings only, never a pass/fail on them.
import path from "node:path"
import { pathToFileURL } from "node:url"
const dirs = process.argv.slice(2)
const content = "lorem ipsum dolor sit amet ".repeat(800) // 21,600 chars
const text = JSON.stringify({ id: "c", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })
const fetch = async () => ({ ok: true, status: 200, headers: new Headers(), text: async () => text })
const libs = []
for (const d of dirs) {
  const lib = await import(pathToFileURL(path.resolve(d) + "/node.mjs").href)
  const toolkit = await lib.createToolkit({ builtins: false })
  const client = lib.createClient({ baseUrl: "http://x.invalid/v1", style: "openai", model: "m", apiKey: "k", fetch })
  libs.push({ d, run: () => client.run("hi", { toolkit }), t: [] })
}
for (let round = 0; round < 40; round++) {
  for (const l of round % 2 ? [...libs].reverse() : libs) {
    const t0 = performance.now()
    for (let i = 0; i < 200; i++) { const r = await l.run(); if (r.text.length !== content.length) throw new Error(`${l.d}: wrong answer`) }
    if (round >= 5) l.t.push((performance.now() - t0) * 1000 / 200)
  }
}
for (const l of libs) { l.t.sort((a, b) => a - b); console.log(l.d, "median µs/run", l.t[l.t.length >> 1].toFixed(1)) }
