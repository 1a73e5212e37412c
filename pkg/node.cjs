// Node, CommonJS: the nodejs build instantiates itself on require. The two idioms
// wasm-bindgen cannot export (register.js, as CommonJS in register.cjs) are installed the same way.
"use strict"
const toolnexus = require("./node/toolnexus.js")
require("./register.cjs").installIdioms(toolnexus)

// The browser stores are plain JavaScript (stores.js; stores.cjs is its CommonJS twin).
Object.assign(toolnexus, require("./stores.cjs"))

module.exports = toolnexus
