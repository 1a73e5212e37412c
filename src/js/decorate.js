// `tool(description, options?)` and `collectTools(object)` (SPEC §6): decorator sugar over
// `defineTool`. `tool` makes a decorator (TC39 decorators, TypeScript 5 without
// `experimentalDecorators`) that also works as a plain call on a function; `collectTools`
// gathers what it made, from an instance of a class with decorated methods or from a plain
// object whose properties are decorated functions. Plain JavaScript over the module's
// `defineTool` (`decoratorsWith(defineTool)`): a WeakMap and a decorator's `addInitializer`
// are all it needs. The entries export both.
import { storeError, typeName } from "./stores.js"

/**
 * The `tool` and `collectTools` of one module: `defineTool` is that module's.
 *
 * ```js
 * const { tool, collectTools } = decoratorsWith(defineTool)
 * ```
 */
export function decoratorsWith(defineTool) {
  /** A decorated function → its tool (called without `this`), given the key it is found under. */
  const byFunction = new WeakMap()
  /** An instance → the tools of its decorated methods (each called on the instance). */
  const byInstance = new WeakMap()

  /**
   * A decorator that makes the decorated method or function a tool: named `options.name`,
   * else the method's (or function's) name, else (an anonymous function) the key
   * `collectTools` finds it under; its schema `options.inputSchema`, else `defineTool`'s
   * default.
   *
   * ```js
   * class Maths { @tool("Adds a and b") add({ a, b }) { return String(a + b) } }
   * const tools = collectTools(new Maths())
   * const helpers = { shout: tool("Upper-cases text")(function shout({ text }) { return text.toUpperCase() }) }
   * collectTools(helpers) // [shout]
   * ```
   */
  function tool(description, options) {
    if (typeof description !== "string") {
      throw storeError("invalid_tool", `tool: description must be a string, got ${typeName(description)}`)
    }
    if (options !== undefined && options !== null && typeof options !== "object") {
      throw storeError("invalid_options", `tool: options must be {name?, inputSchema?}, got ${typeName(options)}`)
    }
    return function decorate(value, context) {
      if (typeof value !== "function") return value
      const named = context !== null && typeof context === "object" && context.name !== undefined
      const name = options?.name ?? (named ? String(context.name) : value.name)
      const make = (self, name) =>
        defineTool({ name, description, inputSchema: options?.inputSchema, run: (args, ctx) => value.call(self, args, ctx) })
      // Made now when it has a name, so a bad name or schema fails where the decorator is applied.
      const made = name ? make(undefined, name) : undefined
      byFunction.set(value, (key) => made ?? make(undefined, key))
      if (named && typeof context.addInitializer === "function") {
        context.addInitializer(function register() {
          const tools = byInstance.get(this) ?? []
          tools.push(make(this, name))
          byInstance.set(this, tools)
        })
      }
      return value
    }
  }

  /**
   * The tools `tool` made for `object`: its decorated methods (when it is an instance), then
   * its own enumerable properties that are decorated functions, in key order.
   */
  function collectTools(object) {
    if (object === null || (typeof object !== "object" && typeof object !== "function")) {
      throw storeError("invalid_options", `collectTools: expected an object, got ${typeName(object)}`)
    }
    const found = [...(byInstance.get(object) ?? [])]
    for (const key of Object.keys(object)) {
      const value = object[key]
      if (typeof value === "function" && byFunction.has(value)) found.push(byFunction.get(value)(key))
    }
    return found
  }

  return { tool, collectTools }
}
