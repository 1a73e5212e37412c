// Node, CommonJS: the nodejs build instantiates itself on require. The two idioms
// wasm-bindgen cannot export (see register.cjs) are installed the same way.
"use strict"
const toolnexus = require("./node/toolnexus.js")
require("./register.cjs")(toolnexus)

module.exports = toolnexus
