// What `#glue` is to the lean facade: the wasm-bindgen module, as the runtime's loader
// (scripts/bundle-entry.mjs) re-exports it, plus how it was instantiated.
export * from "../../../pkg/core/web/toolnexus.js"
import type { WasmSource } from "./types.js"

/** Whether the loader instantiated the module before the facade runs (every entry but web.js). */
export declare const instantiated: boolean
/** Instantiates the module from `source` (web.js's loader); elsewhere it resolves at once. */
export declare function instantiate(source?: WasmSource): Promise<unknown>
/** Reads a file's bytes (the Node and Deno loaders); absent in a page. */
export declare const readBytes: ((path: string) => Uint8Array) | undefined
