// This package, as a user installs it: the built npm package's Node entry, tools made with
// defineTool (the adapter is toolnexus-adapter.mjs).
import { definedTools, toolnexusAdapter } from "./toolnexus-adapter.mjs"

export const name = "toolnexus"
export const label = "toolnexus-wasm"
export const { setup, convert, wasmMemoryBytes } = await toolnexusAdapter("", definedTools)
