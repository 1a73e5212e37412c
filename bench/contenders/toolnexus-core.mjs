// This package's lean build, toolnexus-wasm/core (no MCP, skills or built-in tools), through
// its Node entry; otherwise the same adapter as toolnexus.mjs.
import { definedTools, toolnexusAdapter } from "./toolnexus-adapter.mjs"

export const name = "toolnexus-core"
export const label = "toolnexus-wasm/core"
export const { setup, convert, wasmMemoryBytes } = await toolnexusAdapter("core/", definedTools)
