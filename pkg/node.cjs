// Node, CommonJS: the nodejs build instantiates itself on require. The two idioms
// wasm-bindgen cannot export (register.js, as CommonJS in register.cjs) are installed the same way.
"use strict"
const toolnexus = require("./node/toolnexus.js")
require("./register.cjs").installIdioms(toolnexus)

module.exports = toolnexus
