// tool(description, options?) and collectTools(object) (SPEC §6): decorator sugar over
// defineTool, in the full build, the lean core and CommonJS. TC39 decorators are applied here
// the way a compiler applies them (Node 20 has no decorator syntax): the decorator is called
// with the method and a context whose addInitializer runs on each new instance.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createRequire } from "node:module"
import * as full from "../../pkg/node.mjs"
import * as core from "../../pkg/core/node.mjs"
import { assertCode, thrown } from "./support/helpers.mjs"

const require = createRequire(import.meta.url)
const cjs = require("../../pkg/node.cjs")

/** What a compiler does for `class { @decorator method() {} }`, per instance. */
function decorateMethod(Class, key, decorator) {
  const initializers = []
  const context = { kind: "method", name: key, static: false, private: false, addInitializer: (f) => initializers.push(f) }
  Class.prototype[key] = decorator(Class.prototype[key], context) ?? Class.prototype[key]
  return (...args) => {
    const instance = new Class(...args)
    for (const init of initializers) init.call(instance)
    return instance
  }
}

for (const [build, api] of Object.entries({ full, core, cjs })) {
  const { tool, collectTools, createToolkit, Tool } = api

  test(`${build}: a decorated method is a tool called on its instance`, async () => {
    class Maths {
      constructor(offset) {
        this.offset = offset
      }
      add({ a, b }) {
        return String(a + b + this.offset)
      }
    }
    const make = decorateMethod(Maths, "add", tool("Adds a and b", {
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    }))
    const [one, ten] = [make(1), make(10)]
    const [t1] = collectTools(one)
    assert.ok(t1 instanceof Tool)
    assert.deepEqual([t1.name, t1.description, t1.source], ["add", "Adds a and b", "native"])
    assert.deepEqual(await t1.execute({ a: 2, b: 3 }), { output: "6", isError: false })
    assert.deepEqual(await collectTools(ten)[0].execute({ a: 2, b: 3 }), { output: "15", isError: false })
    assert.equal(one.add({ a: 1, b: 1 }), "3", "the method itself is unchanged")
    const toolkit = await createToolkit({ builtins: false, extraTools: collectTools(one) })
    assert.equal((await toolkit.execute("add", { a: 1, b: "x" })).isError, true, "the schema is checked")
  })

  test(`${build}: decorated functions on a plain object, a name, and the default schema`, async () => {
    const helpers = {
      shout: tool("Upper-cases text")(function shout({ text }) {
        return text.toUpperCase()
      }),
      renamed: tool("Says hi", { name: "say_hi" })(() => "hi"),
      anonymous: tool("Named by its key")(() => "anon"),
      plain: () => "not a tool",
      count: 3,
    }
    const tools = collectTools(helpers)
    assert.deepEqual(tools.map((t) => t.name), ["shout", "say_hi", "anonymous"])
    assert.deepEqual(await tools[2].execute({}), { output: "anon", isError: false })
    assert.deepEqual(tools[0].inputSchema, { type: "object", properties: {} })
    assert.deepEqual(await tools[0].execute({ text: "hey" }), { output: "HEY", isError: false })
    assert.equal(helpers.shout({ text: "a" }), "A", "a decorated function is still the function")
    assert.deepEqual(collectTools({}), [])
    assert.equal(tool("d")(42), 42, "a decorator on a non-function leaves it alone")
  })

  test(`${build}: bad input throws with a code`, () => {
    assertCode(thrown(() => tool(5)), "invalid_tool")
    assertCode(thrown(() => tool("d", "name")), "invalid_options")
    assertCode(thrown(() => tool("d", { name: "bad name!" })(() => "")), "invalid_tool")
    assertCode(thrown(() => collectTools(null)), "invalid_options")
    assertCode(thrown(() => collectTools("x")), "invalid_options")
  })
}
