// Browsers and bundlers (Vite, webpack, Rollup): instantiates the module once, with
// top-level await, from the .wasm file beside this one. No init() call is needed.
import init, { Toolkit, Client } from "./web/toolnexus.js"
import { installIdioms } from "./register.js"

await init()
installIdioms({ Toolkit, Client })

export * from "./web/toolnexus.js"
export { IndexedDbConversationStore, WebStorageConversationStore } from "./stores.js"
