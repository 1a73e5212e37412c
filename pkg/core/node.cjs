// toolnexus-wasm/core in Node, CommonJS: the lean build's nodejs glue instantiates on require.
"use strict"
const toolnexus = require("./node/toolnexus.js")
require("../register.cjs").installIdioms(toolnexus)

module.exports = toolnexus
