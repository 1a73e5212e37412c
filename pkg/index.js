// Browsers, bundlers (Vite, webpack, Rollup) and Deno: instantiates the module once, with
// top-level await, from the .wasm file beside this one. No init() call is needed.
import init, { Toolkit } from "./web/toolnexus.js"
import { installRegister } from "./register.js"

await init()
installRegister(Toolkit)

export * from "./web/toolnexus.js"
