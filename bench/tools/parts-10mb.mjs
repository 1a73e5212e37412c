#!/usr/bin/env node
// A 10 MB image as a content part (issue 30's "beyond"): image(bytes) base64-encodes inside the
// module, so the bytes cross into it once and the base64 text comes out once. Measured against
// Node's own Buffer.toString("base64") of the same bytes (the platform's native encoder, the
// floor) in the same process: time per part (median of 15) and the peak growth of the
// process's memory (RSS and the JS heap plus array buffers) while making one.
//   node --expose-gc bench/tools/parts-10mb.mjs [MB]
import { performance } from "node:perf_hooks"
import { image } from "../../pkg/node.mjs"

const size = Number(process.argv[2] ?? 10) * 1024 * 1024
const bytes = new Uint8Array(size).map((_, i) => (i * 31) % 251)
const contenders = {
  "toolnexus-wasm image(bytes)": () => image(bytes, { mimeType: "image/png" }).data.length,
  "Buffer.toString(\"base64\")": () => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64").length,
}
if (contenders["toolnexus-wasm image(bytes)"]() !== contenders["Buffer.toString(\"base64\")"]()) throw new Error("the two encodings differ in length")
if (image(bytes.subarray(0, 3000), { mimeType: "image/png" }).data !== Buffer.from(bytes.subarray(0, 3000)).toString("base64")) throw new Error("the two encodings differ")

const memory = () => {
  const m = process.memoryUsage()
  return { rss: m.rss, js: m.heapUsed + m.arrayBuffers }
}
const rows = []
for (const [name, make] of Object.entries(contenders)) {
  for (let i = 0; i < 3; i++) make()
  const times = []
  for (let i = 0; i < 15; i++) {
    globalThis.gc?.()
    const t = performance.now()
    make()
    times.push(performance.now() - t)
  }
  globalThis.gc?.()
  const before = memory()
  let peak = before
  const sampler = setInterval(() => {
    const now = memory()
    peak = { rss: Math.max(peak.rss, now.rss), js: Math.max(peak.js, now.js) }
  }, 1)
  const kept = make()
  const after = memory()
  clearInterval(sampler)
  peak = { rss: Math.max(peak.rss, after.rss), js: Math.max(peak.js, after.js) }
  void kept
  const median = [...times].sort((a, b) => a - b)[times.length >> 1]
  rows.push({ name, median, rss: (peak.rss - before.rss) / 1024 / 1024, js: (peak.js - before.js) / 1024 / 1024 })
}
const base = rows[1].median
console.log(`${(size / 1024 / 1024).toFixed(0)} MB of bytes to a base64 part (median of 15, ms; memory growth while making one, MB)`)
for (const r of rows) {
  console.log(`${r.name.padEnd(30)} ${r.median.toFixed(1).padStart(8)} ms  ${(r.median / base).toFixed(2)}x  rss +${r.rss.toFixed(1)}  js heap+buffers +${r.js.toFixed(1)}`)
}
