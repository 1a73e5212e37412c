// Node, CommonJS: the nodejs build instantiates itself on require. The two idioms
// wasm-bindgen cannot export (see register.js) are installed the same way.
"use strict"
const toolnexus = require("./node/toolnexus.js")

toolnexus.Toolkit.prototype.register = function register(...tools) {
  this.registerAll(tools)
  return this
}
toolnexus.Client.prototype.stream = function stream(prompt, ctx) {
  const events = this.streamEvents(prompt, ctx)
  return {
    next: () => events.next(),
    return: () => events.close(),
    [Symbol.asyncIterator]() {
      return this
    },
  }
}

module.exports = toolnexus
