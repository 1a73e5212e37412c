// toolnexus-wasm/core in Node, CommonJS: the lean build's nodejs glue instantiates on require.
"use strict"
const toolnexus = require("./node/toolnexus.js")
// The stores are plain JavaScript (stores.js; stores.cjs is its CommonJS twin); the in-memory
// one is every client's default.
const stores = require("../stores.cjs")
require("../register.cjs").installIdioms(toolnexus, stores)
// The three store classes (stores.cjs also exports helpers browser-stores.js shares).
const { InMemoryConversationStore, IndexedDbConversationStore, WebStorageConversationStore } = stores
Object.assign(toolnexus, { InMemoryConversationStore, IndexedDbConversationStore, WebStorageConversationStore })
// The error class every failure is made of, and its test (errors.cjs).
const { ToolnexusError, isToolnexusError } = require("../errors.cjs")
Object.assign(toolnexus, { ToolnexusError, isToolnexusError })

// httpTool is plain JavaScript (http-tool.cjs) over this module's defineTool.
toolnexus.httpTool = require("../http-tool.cjs").httpToolWith(toolnexus.defineTool)
// defineTool also takes a Standard Schema (Zod, Valibot, ArkType) as inputSchema (define-tool.cjs).
toolnexus.defineTool = require("../define-tool.cjs").defineToolWith(toolnexus.defineTool)
// createInProcessClient is plain JavaScript (in-process.cjs) over this module's createClient.
toolnexus.createInProcessClient = require("../in-process.cjs").inProcessWith(toolnexus.createClient)
// tool and collectTools (SPEC §6) are plain JavaScript (decorate.cjs) over defineTool.
Object.assign(toolnexus, require("../decorate.cjs").decoratorsWith(toolnexus.defineTool))
// agents (SPEC §7F: compactor, estimateTokens) is plain JavaScript (agents.cjs).
toolnexus.agents = require("../agents.cjs")

module.exports = toolnexus
