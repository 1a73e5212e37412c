// toolnexus-wasm/core for Deno: the lean build compiled for speed, as the main Deno entry is
// (node-esm/'s web glue, instantiated from node/toolnexus_bg.wasm by its file: URL).
import init, { Toolkit, Client, __setDefaultStore, __setErrorClass, defineTool as defineModuleTool, createClient } from "./node-esm/toolnexus.js"
import { installIdioms } from "../register.js"
import { InMemoryConversationStore } from "../stores.js"
import { httpToolWith } from "../http-tool.js"
import { defineToolWith } from "../define-tool.js"
import { inProcessWith } from "../in-process.js"
import { decoratorsWith } from "../decorate.js"
import * as agents from "../agents.js"

await init({ module_or_path: new URL("./node/toolnexus_bg.wasm", import.meta.url) })
installIdioms({ Toolkit, Client, __setDefaultStore, __setErrorClass }, { InMemoryConversationStore })

export * from "./node-esm/toolnexus.js"
export { InMemoryConversationStore, IndexedDbConversationStore, WebStorageConversationStore } from "../stores.js"
export { ToolnexusError, isToolnexusError } from "../errors.js"
// httpTool is plain JavaScript (http-tool.js) over this module's defineTool.
export const httpTool = httpToolWith(defineModuleTool)
// defineTool also takes a Standard Schema (Zod, Valibot, ArkType) as inputSchema (define-tool.js).
export const defineTool = defineToolWith(defineModuleTool)
// createInProcessClient is plain JavaScript (in-process.js) over this module's createClient.
export const createInProcessClient = inProcessWith(createClient)
// tool and collectTools (SPEC §6) are plain JavaScript (decorate.js) over defineTool.
export const { tool, collectTools } = decoratorsWith(defineTool)
// agents (SPEC §7F: compactor, estimateTokens) is plain JavaScript (agents.js).
export { agents }
