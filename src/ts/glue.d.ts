// What `#glue-full` is to the full facade: the wasm-bindgen module of the full build, as the
// runtime's loader (scripts/bundle-entry.mjs) re-exports it, plus how it was instantiated.
export * from "../../pkg/web/toolnexus.js"
export { instantiated, instantiate, readBytes } from "./core/glue.js"
