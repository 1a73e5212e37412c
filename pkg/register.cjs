// The CommonJS twin of register.js: the idioms wasm-bindgen cannot export (a variadic method
// and an async iterator), each forwarding to one exported method.
"use strict"
module.exports = function installIdioms({ Toolkit, Client }) {
  Toolkit.prototype.register = function register(...tools) {
    this.registerAll(tools)
    return this
  }
  Client.prototype.stream = function stream(prompt, ctx) {
    const events = this.streamEvents(prompt, ctx)
    return {
      next: () => events.next(),
      return: () => events.close(),
      [Symbol.asyncIterator]() {
        return this
      },
    }
  }
}
