// Arguments are checked against the tool's inputSchema before the tool runs: a bad call is a
// precise error result and the tool's function is never called.
import { test } from "node:test"
import assert from "node:assert/strict"
import { createToolkit, defineTool } from "../../pkg/node.mjs"

const schema = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 2 },
    days: { type: "integer", minimum: 1, maximum: 7 },
    unit: { enum: ["c", "f"] },
    address: {
      type: "object",
      properties: { zip: { type: "string" }, geo: { type: "object", properties: { lat: { type: "number" } } } },
      required: ["zip"],
      additionalProperties: false,
    },
    tags: { type: "array", items: { type: "string" }, maxItems: 2 },
    people: { type: "array", items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    "a key": { type: "number" },
    maybe: { type: ["string", "null"] },
    fixed: { const: 3 },
    either: { anyOf: [{ type: "string" }, { type: "number" }] },
  },
  required: ["city"],
  additionalProperties: false,
}

let calls = 0
const weather = defineTool({ name: "w", inputSchema: schema, run: () => { calls++; return "ran" } })
const bare = defineTool({ name: "bare", run: () => { calls++; return "bare ran" } })
const refShaped = { name: "ref", inputSchema: schema, execute() { calls++; return "ref ran" } }
const toolkit = await createToolkit({ extraTools: [weather, bare, refShaped] })

/** Calls the tool and asserts the error result, and that the tool did not run. */
async function refused(name, args, problem) {
  const before = calls
  const r = await toolkit.execute(name, args)
  assert.deepEqual(r, { output: `Invalid arguments for tool "${name}": ${problem}`, isError: true }, JSON.stringify(args))
  assert.equal(calls, before, `tool "${name}" must not run for ${JSON.stringify(args)}`)
}

async function accepted(name, args, output) {
  const before = calls
  assert.deepEqual(await toolkit.execute(name, args), { output, isError: false }, JSON.stringify(args))
  assert.equal(calls, before + 1)
}

test("missing required properties", async () => {
  await refused("w", {}, 'required property "city" is missing')
  await refused("w", { city: "Oslo", address: {} }, 'address: required property "zip" is missing')
  await refused("w", { city: "Oslo", people: [{ name: "a" }, {}] }, 'people[1]: required property "name" is missing')
})

test("wrong types, including integer versus number and type lists", async () => {
  await refused("w", { city: 5 }, "city: expected string, got number")
  await refused("w", { city: "Oslo", days: "3" }, "days: expected integer, got string")
  await refused("w", { city: "Oslo", days: 2.5 }, "days: expected integer, got number")
  await refused("w", { city: "Oslo", maybe: 1 }, "maybe: expected string or null, got number")
  await refused("w", { city: "Oslo", either: true }, "either: expected string or number, got boolean")
  await refused("w", { city: "Oslo", tags: "a" }, "tags: expected array, got string")
})

test("enum, const, length and numeric bounds", async () => {
  await refused("w", { city: "Oslo", unit: "k" }, 'unit: must be one of "c", "f"')
  await refused("w", { city: "Oslo", fixed: 4 }, "fixed: must be equal to 3")
  await refused("w", { city: "O" }, "city: must be at least 2 characters")
  await refused("w", { city: "Oslo", days: 9 }, "days: must be <= 7")
  await refused("w", { city: "Oslo", days: 0 }, "days: must be >= 1")
})

test("nested objects and array items report their path", async () => {
  await refused("w", { city: "Oslo", address: { zip: 1, extra: true } },
    "address.zip: expected string, got number; address.extra: unexpected property")
  await refused("w", { city: "Oslo", address: { zip: "1", geo: { lat: "n" } } }, "address.geo.lat: expected number, got string")
  await refused("w", { city: "Oslo", tags: ["a", 2, "c"] }, "tags: must have at most 2 items; tags[1]: expected string, got number")
  await refused("w", { city: "Oslo", "a key": "x" }, '["a key"]: expected number, got string')
})

test("every problem is listed, in document order", async () => {
  await refused("w", { city: 1, days: "x", extra: 2 },
    "city: expected string, got number; days: expected integer, got string; extra: unexpected property")
})

test("additionalProperties false, and the default schema of a tool without one (any object)", async () => {
  await refused("w", { city: "Oslo", extra: 1 }, "extra: unexpected property")
  await accepted("bare", { x: 1 }, "bare ran")
  await accepted("bare", {}, "bare ran")
})

test("arguments that are not an object", async () => {
  for (const [args, type] of [["str", "string"], [["a"], "array"], [[], "array"], [5, "number"], [0, "number"], [true, "boolean"]]) {
    await refused("w", args, `arguments must be a JSON object, got ${type}`)
    await refused("bare", args, `arguments must be a JSON object, got ${type}`)
  }
})

test("arguments that cannot become JSON", async () => {
  const cyclic = {}
  cyclic.self = cyclic
  const before = calls
  const r = await toolkit.execute("bare", cyclic)
  assert.equal(r.isError, true)
  assert.ok(r.output.startsWith('Invalid arguments for tool "bare": Converting circular structure to JSON'), r.output)
  assert.deepEqual(await toolkit.execute("bare", { n: 1n }),
    { output: 'Invalid arguments for tool "bare": Do not know how to serialize a BigInt', isError: true })
  assert.equal(calls, before)
})

test("null and undefined arguments count as {}", async () => {
  await accepted("bare", null, "bare ran")
  await accepted("bare", undefined, "bare ran")
  await refused("w", null, 'required property "city" is missing')
  await refused("w", undefined, 'required property "city" is missing')
})

test("valid arguments run the tool", async () => {
  await accepted("w", { city: "Oslo" }, "ran")
  await accepted("w", { city: "Oslo", maybe: null, days: 2.0 }, "ran")
  await accepted("w", {
    city: "Oslo", days: 7, unit: "c", address: { zip: "0150", geo: { lat: 59.9 } }, tags: ["a", "b"],
    people: [{ name: "x" }], "a key": 1, maybe: "s", fixed: 3, either: "e",
  }, "ran")
  await accepted("ref", { city: "Oslo" }, "ref ran")
})

test("reference-shaped tools and Tool.execute are validated the same way", async () => {
  await refused("ref", { city: 5 }, "city: expected string, got number")
  const before = calls
  assert.deepEqual(await weather.execute({ city: 5 }), { output: 'Invalid arguments for tool "w": city: expected string, got number', isError: true })
  assert.deepEqual(await weather.execute("s"), { output: 'Invalid arguments for tool "w": arguments must be a JSON object, got string', isError: true })
  assert.equal(calls, before)
})
