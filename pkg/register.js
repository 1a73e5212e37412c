// The idioms wasm-bindgen cannot export: a variadic method and an async iterator. No logic
// lives here: each forwards to one exported method. It also hands the module the class of
// every client's default store (InMemoryConversationStore, plain JavaScript in stores.js) and
// the class of its errors (ToolnexusError, errors.js).
import { ToolnexusError } from "./errors.js"

export function installIdioms({ Toolkit, Client, __setDefaultStore, __setErrorClass }, { InMemoryConversationStore }) {
  __setDefaultStore(InMemoryConversationStore)
  __setErrorClass(ToolnexusError)
  // `await using toolkit = await createToolkit(...)` closes its MCP sessions at the block's end.
  if (typeof Symbol.asyncDispose === "symbol") {
    Toolkit.prototype[Symbol.asyncDispose] = function asyncDispose() {
      return this.close()
    }
  }
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
