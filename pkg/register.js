// The idioms wasm-bindgen cannot export: a variadic method and an async iterator. No logic
// lives here: each forwards to one exported method.
export function installIdioms({ Toolkit, Client }) {
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
