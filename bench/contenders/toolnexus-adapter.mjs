// The adapter of every toolnexus contender: one build of the package (its Node entry), one way
// of handing it the tools. toolnexus.mjs, toolnexus-core.mjs and toolnexus-toollike.mjs are
// this with their own build and tools.
import { MODEL } from "../lib/script.mjs"
import { nodeBuild, pkgUrl } from "./pkg.mjs"

/**
 * @param {string} build "" for the full build, "core/" for the lean one
 * @param {(lib: object, tools: object[]) => object[]} toolsOf the bench's tools as `extraTools`
 */
export async function toolnexusAdapter(build, toolsOf) {
  const lib = await import(pkgUrl(`${build}node.mjs`))
  // The same module instance the entry initialised: initSync returns its exports (with `memory`).
  const { initSync } = await import(nodeBuild(build).glue)
  return {
    async setup(tools, fetch, { baseUrl, maxTurns = 10 }) {
      const toolkit = await lib.createToolkit({ builtins: false, extraTools: toolsOf(lib, tools) })
      const client = lib.createClient({ baseUrl, style: "openai", model: MODEL, apiKey: "bench", fetch, maxTurns })
      return {
        toolkit,
        async run(prompt, { history } = {}) {
          const result = await client.run(prompt, history ? { toolkit, history } : { toolkit })
          if (result.status !== "done") throw new Error(`run ended ${result.status}`)
          return result.text
        },
      }
    },
    /** The provider-schema conversions of the toolkit. */
    convert: (inst, format) => () => inst.toolkit[format](),
    /** Bytes of the module's WebAssembly linear memory (it never shrinks). */
    wasmMemoryBytes: () => initSync().memory.buffer.byteLength,
  }
}

/** The bench's tools through `defineTool`, as a user writes them. */
export const definedTools = (lib, tools) =>
  tools.map((t) => lib.defineTool({ name: t.name, description: t.description, inputSchema: t.inputSchema, run: t.run }))
