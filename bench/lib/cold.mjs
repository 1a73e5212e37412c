// Cold-start probes, each run in a fresh process by run.mjs.
//   node bench/lib/cold.mjs first <contender|none>  → prints `answer <text>` as soon as one
//       reference-shape run (in-process fake fetch) has answered; the parent times spawn → line.
//   node bench/lib/cold.mjs wasm [.|core]           → @@RESULT {readUs, compileUs, glueImportUs, instantiateUs, firstCallUs}
//       of the module Node loads (the speed build since the package has one) of the full build
//       (".", the default) or the lean one ("core")
//   node bench/lib/cold.mjs import <contender>      → @@RESULT {importUs}
import { performance } from "node:perf_hooks"

const [mode, arg] = process.argv.slice(2)
const now = () => performance.now() * 1000

if (mode === "first") {
  if (arg === "none") {
    process.stdout.write("answer none\n")
  } else {
    const { load } = await import("../contenders/index.mjs")
    const { PROMPT, baseTools, expectedText, fakeFetch } = await import("./script.mjs")
    const contender = await load(arg)
    const inst = await contender.setup(baseTools({ calls: 0 }), fakeFetch(), { baseUrl: "http://fake.invalid/s/k2t1/v1" })
    const text = await inst.run(PROMPT)
    process.stdout.write(`answer ${text}\n`)
    if (text !== expectedText("k2t1")) process.exit(3)
  }
} else if (mode === "wasm") {
  const { readFileSync } = await import("node:fs")
  const { nodeBuild } = await import("../contenders/pkg.mjs")
  let t = now()
  // What Node's ESM entry loads (the speed build, when the package has one).
  const node = nodeBuild(arg === "core" ? "core/" : "")
  const bytes = readFileSync(new URL(node.wasm))
  const readUs = now() - t
  t = now()
  const module = new WebAssembly.Module(bytes)
  const compileUs = now() - t
  t = now()
  const glue = await import(node.glue)
  const glueImportUs = now() - t
  t = now()
  glue.initSync({ module })
  const instantiateUs = now() - t
  t = now()
  glue.toOpenAI([])
  const firstCallUs = now() - t
  t = now()
  await WebAssembly.compile(bytes)
  const asyncCompileUs = now() - t
  process.stdout.write(`@@RESULT ${JSON.stringify({ bytes: bytes.length, readUs, compileUs, glueImportUs, instantiateUs, firstCallUs, asyncCompileUs })}\n`)
} else if (mode === "import") {
  const t = now()
  await import(`../contenders/${arg}.mjs`)
  process.stdout.write(`@@RESULT ${JSON.stringify({ importUs: now() - t })}\n`)
} else {
  console.error(`unknown mode ${mode}`)
  process.exit(1)
}
