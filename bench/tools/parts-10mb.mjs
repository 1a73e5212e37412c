#!/usr/bin/env node
// A 10 MB image as a content part (issue 30's "beyond"): image(bytes) has the module check and
// type the part and the platform's own base64 encoder (here Node's Buffer) encode the bytes, so
// they never cross into the module. Measured in the same run against the module's own encoder
// (the path of a runtime without a platform encoder: a child process with the global Buffer
// hidden) and against Buffer.toString("base64") itself (the floor): time per part (median of
// 15) and the peak growth of the process's memory (RSS and the JS heap plus array buffers).
//   node --expose-gc bench/tools/parts-10mb.mjs [MB]
import { performance } from "node:perf_hooks"
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const moduleEncoder = process.argv.includes("--module-encoder")
const NodeBuffer = Buffer
// Hidden before the package loads: it then finds no platform encoder, as in an older browser.
if (moduleEncoder) delete globalThis.Buffer
const { image } = await import("../../pkg/node.mjs")

const size = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? 10) * 1024 * 1024
const bytes = new Uint8Array(size).map((_, i) => (i * 31) % 251)
const floor = () => NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64").length
const contenders = moduleEncoder
  ? { "image(bytes), module encoder": () => image(bytes, { mimeType: "image/png" }).data.length }
  : {
      "image(bytes), platform encoder": () => image(bytes, { mimeType: "image/png" }).data.length,
      "Buffer.toString(\"base64\")": floor,
    }
for (const make of Object.values(contenders)) if (make() !== floor()) throw new Error("the encodings differ in length")
if (image(bytes.subarray(0, 3000), { mimeType: "image/png" }).data !== NodeBuffer.from(bytes.subarray(0, 3000)).toString("base64")) throw new Error("the encodings differ")

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
if (moduleEncoder) {
  process.stdout.write(JSON.stringify(rows))
} else {
  const self = fileURLToPath(import.meta.url)
  const child = execFileSync(process.execPath, ["--expose-gc", self, "--module-encoder", String(size / 1024 / 1024)], { encoding: "utf8" })
  rows.splice(1, 0, ...JSON.parse(child))
  const base = rows.at(-1).median
  console.log(`${(size / 1024 / 1024).toFixed(0)} MB of bytes to a base64 part (median of 15, ms; memory growth while making one, MB)`)
  for (const r of rows) {
    console.log(`${r.name.padEnd(32)} ${r.median.toFixed(1).padStart(8)} ms  ${(r.median / base).toFixed(2).padStart(6)}x  rss +${r.rss.toFixed(1)}  js heap+buffers +${r.js.toFixed(1)}`)
  }
}
