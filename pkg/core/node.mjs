// toolnexus-wasm/core in Node, ESM: the lean build, instantiated synchronously from disk.
import { readFileSync } from "node:fs"
import { initSync, Toolkit, Client } from "./web/toolnexus.js"
import { installIdioms } from "../register.js"

initSync({ module: readFileSync(new URL("./web/toolnexus_bg.wasm", import.meta.url)) })
installIdioms({ Toolkit, Client })

export * from "./web/toolnexus.js"
