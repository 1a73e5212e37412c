// toolnexus-wasm/core in Node, CommonJS: the lean build's nodejs glue instantiates on require.
"use strict"
const toolnexus = require("./node/toolnexus.js")
require("../register.cjs").installIdioms(toolnexus)

// The browser stores are plain JavaScript (stores.js; stores.cjs is its CommonJS twin).
Object.assign(toolnexus, require("../stores.cjs"))

module.exports = toolnexus
