// Node, CommonJS: the nodejs build instantiates itself on require.
"use strict"
const toolnexus = require("./node/toolnexus.js")

toolnexus.Toolkit.prototype.register = function register(...tools) {
  this.registerAll(tools)
  return this
}

module.exports = toolnexus
