// toolnexus-wasm/core for browsers and bundlers (Vite, webpack, Rollup): the lean build
// (agent loop, JS and HTTP tools, adapters, memory, metrics; no MCP, skills or built-in tools),
// instantiated once with top-level await from the .wasm file beside this one.
import init, { Toolkit, Client, __setDefaultStore, defineTool } from "./web/toolnexus.js"
import { installIdioms } from "../register.js"
import { InMemoryConversationStore } from "../stores.js"
import { httpToolWith } from "../http-tool.js"

await init()
installIdioms({ Toolkit, Client, __setDefaultStore }, { InMemoryConversationStore })

export * from "./web/toolnexus.js"
export { InMemoryConversationStore, IndexedDbConversationStore, WebStorageConversationStore } from "../stores.js"
// httpTool is plain JavaScript (http-tool.js) over this module's defineTool.
export const httpTool = httpToolWith(defineTool)
