// This package's lean build, toolnexus-wasm/core (no MCP, skills or built-in tools), through
// its Node entry; otherwise the same adapter as toolnexus.mjs.
import { MODEL } from "../lib/script.mjs"
import { pkgUrl } from "./pkg.mjs"

const { createClient, createToolkit, defineTool } = await import(pkgUrl("core/node.mjs"))
// The same module instance node.mjs initialised: initSync returns its exports (with `memory`).
const { initSync } = await import(pkgUrl("core/web/toolnexus.js"))

export const name = "toolnexus-core"
export const label = "toolnexus-wasm/core"

export async function setup(tools, fetch, { baseUrl, maxTurns = 10 }) {
  const toolkit = await createToolkit({
    builtins: false,
    extraTools: tools.map((t) =>
      defineTool({ name: t.name, description: t.description, inputSchema: t.inputSchema, run: t.run }),
    ),
  })
  const client = createClient({ baseUrl, style: "openai", model: MODEL, apiKey: "bench", fetch, maxTurns })
  return {
    toolkit,
    async run(prompt, { history } = {}) {
      const result = await client.run(prompt, history ? { toolkit, history } : { toolkit })
      if (result.status !== "done") throw new Error(`run ended ${result.status}`)
      return result.text
    },
  }
}

/** The provider-schema conversions of the toolkit. */
export function convert(inst, format) {
  return () => inst.toolkit[format]()
}

/** Bytes of the module's WebAssembly linear memory (it never shrinks). */
export function wasmMemoryBytes() {
  return initSync().memory.buffer.byteLength
}
