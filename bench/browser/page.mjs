// Scenario 1 in a page: `window.bench({contender, warmup, batches, batch})` → µs per run of
// each batch (batch time / batch size: the page clock is coarse), after checking every run.
import { PROMPT, baseTools, expectedCalls, expectedText, fakeFetch } from "/bench/lib/script.mjs"

const adapters = {
  bare: () => import("/bench/contenders/bare.mjs"),
  toolnexus: () => import("/bench/browser/toolnexus.mjs"),
  vercel: () => import("/bench/contenders/vercel.mjs"),
}

window.bench = async ({ contender, warmup, batches, batch }) => {
  const id = "k2t1"
  const want = expectedText(id)
  const calls = expectedCalls(id)
  const counter = { calls: 0 }
  const mod = await adapters[contender]()
  const inst = await mod.setup(baseTools(counter), fakeFetch(), { baseUrl: `http://fake.invalid/s/${id}/v1`, maxTurns: 10 })
  const check = async () => {
    const before = counter.calls
    const text = await inst.run(PROMPT)
    if (text !== want) throw new Error(`${contender}: final text ${JSON.stringify(text)}, expected ${JSON.stringify(want)}`)
    if (counter.calls - before !== calls) throw new Error(`${contender}: ${counter.calls - before} tool calls, expected ${calls}`)
  }
  for (let i = 0; i < warmup; i++) await check()
  const perRun = []
  for (let b = 0; b < batches; b++) {
    const t = performance.now()
    for (let i = 0; i < batch; i++) await check()
    perRun.push(((performance.now() - t) * 1000) / batch)
  }
  return { perRun, crossOriginIsolated: self.crossOriginIsolated }
}

window.coldWasm = async () => {
  const glue = await import("/pkg/web/toolnexus.js")
  const bytes = await (await fetch("/pkg/web/toolnexus_bg.wasm")).arrayBuffer()
  let t = performance.now()
  const module = await WebAssembly.compile(bytes)
  const compileUs = (performance.now() - t) * 1000
  t = performance.now()
  await glue.default({ module_or_path: module })
  const instantiateUs = (performance.now() - t) * 1000
  return { compileUs, instantiateUs, bytes: bytes.byteLength }
}
window.ready = true
