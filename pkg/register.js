// The one idiom wasm-bindgen cannot export: a variadic method. No logic lives here.
export function installRegister(Toolkit) {
  Toolkit.prototype.register = function register(...tools) {
    this.registerAll(tools)
    return this
  }
}
