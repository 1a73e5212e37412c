// Counts JS↔wasm crossings per run of toolnexus-wasm: every import the module calls (wasm → JS)
// and every export JS calls (JS → wasm), by name, plus the bytes JS copies into wasm memory
// (`__wbindgen_malloc`/`realloc` sizes) and the JSON text wasm hands to `JSON.parse`.
// Wraps `WebAssembly.Instance` before the package loads, so its timings are not meaningful:
// run.mjs uses this process for counts only.
//   node bench/lib/crossings.mjs '{"id":"k2t1","warmup":50,"runs":200}'
const task = JSON.parse(process.argv[2] ?? "{}")
const id = task.id ?? "k2t1"

const imports = new Map()
const exportsCalled = new Map()
const bytes = { jsToWasm: 0, jsonParse: 0 }
const bump = (map, key) => map.set(key, (map.get(key) ?? 0) + 1)
// wasm-bindgen names imports `__wbg_<what>_<hash>`: keep `<what>`.
const short = (name) => name.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, "")

const Original = WebAssembly.Instance
WebAssembly.Instance = function Instance(module, importObject) {
  const wrapped = {}
  for (const [ns, fns] of Object.entries(importObject ?? {})) {
    wrapped[ns] = {}
    for (const [name, fn] of Object.entries(fns)) {
      if (typeof fn !== "function") {
        wrapped[ns][name] = fn
        continue
      }
      const key = short(name)
      const isParse = key === "parse"
      wrapped[ns][name] = function (...args) {
        bump(imports, key)
        if (isParse) bytes.jsonParse += args[1] >>> 0
        return fn.apply(this, args)
      }
    }
  }
  const instance = new Original(module, wrapped)
  const out = {}
  for (const [name, value] of Object.entries(instance.exports)) {
    if (typeof value !== "function") {
      out[name] = value
      continue
    }
    out[name] = function (...args) {
      bump(exportsCalled, name)
      if (name === "__wbindgen_malloc") bytes.jsToWasm += args[0] >>> 0
      if (name === "__wbindgen_realloc") bytes.jsToWasm += Math.max(0, (args[2] >>> 0) - (args[1] >>> 0))
      return value.apply(this, args)
    }
  }
  return { exports: out }
}

const { load } = await import("../contenders/index.mjs")
const { PROMPT, baseTools, expectedText, fakeFetch } = await import("./script.mjs")
const contender = await load("toolnexus")
const counter = { calls: 0 }
const inst = await contender.setup(baseTools(counter), fakeFetch(), { baseUrl: `http://fake.invalid/s/${id}/v1`, maxTurns: 64 })
const want = expectedText(id)
for (let i = 0; i < (task.warmup ?? 20); i++) if ((await inst.run(PROMPT)) !== want) throw new Error("mismatch")
imports.clear()
exportsCalled.clear()
bytes.jsToWasm = 0
bytes.jsonParse = 0
const runs = task.runs ?? 100
for (let i = 0; i < runs; i++) {
  const text = await inst.run(PROMPT)
  if (text !== want) {
    process.stdout.write(`@@RESULT ${JSON.stringify({ error: `mismatch: ${text}`, mismatch: true })}\n`)
    process.exit(3)
  }
}
const perRun = (map) =>
  Object.fromEntries([...map].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, +(v / runs).toFixed(2)]))
const sum = (map) => [...map.values()].reduce((a, b) => a + b, 0) / runs
process.stdout.write(
  `@@RESULT ${JSON.stringify({
    id,
    runs,
    wasmToJsPerRun: sum(imports),
    jsToWasmPerRun: sum(exportsCalled),
    imports: perRun(imports),
    exports: perRun(exportsCalled),
    bytesJsToWasmPerRun: bytes.jsToWasm / runs,
    bytesJsonParsePerRun: bytes.jsonParse / runs,
  })}\n`,
)
