// Diagnostic variant of the toolnexus contender: the same client, but the tools are handed to
// createToolkit as plain reference-shaped objects ({name, description, inputSchema, execute})
// instead of defineTool() results. Shows what the tool path itself costs (see bench/README.md).
import { toolnexusAdapter } from "./toolnexus-adapter.mjs"

export const name = "toolnexus-toollike"
export const label = "toolnexus-wasm, ToolLike tools"
export const { setup, convert, wasmMemoryBytes } = await toolnexusAdapter("", (_lib, tools) =>
  tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, source: "native", execute: (args) => t.run(args) })),
)
