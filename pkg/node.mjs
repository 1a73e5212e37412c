// Node, ESM: instantiates the module synchronously from the .wasm file on disk.
import { readFileSync } from "node:fs"
import { initSync, Toolkit } from "./web/toolnexus.js"
import { installRegister } from "./register.js"

initSync({ module: readFileSync(new URL("./web/toolnexus_bg.wasm", import.meta.url)) })
installRegister(Toolkit)

export * from "./web/toolnexus.js"
