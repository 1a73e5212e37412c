// `defineTool(options)` as the entries export it: the module's own defineTool, which also takes
// a Standard Schema (https://standardschema.dev: Zod 4, Valibot, ArkType...) as `inputSchema`.
// Such a schema is two things here: its JSON Schema goes to the model and to the module's
// argument check, and its own `~standard.validate` runs on every call, so `run` gets the
// schema's parsed output (defaults, transforms) and a call the schema refuses comes back to the
// model as an error result naming each issue's path. A plain JSON Schema goes through as it is.
// Plain JavaScript beside the module (the schema libraries are JavaScript); the build ships it
// minified and as CommonJS in define-tool.cjs.
import { errorText, storeError, typeName } from "./stores.js"

/** The Standard Schema interface of `value`, or `undefined` when it is a plain JSON Schema. */
function standardOf(value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined
  const standard = value["~standard"]
  if (standard === undefined) return undefined
  if (typeof standard !== "object" || standard === null || typeof standard.validate !== "function") {
    throw storeError("invalid_tool", "defineTool: inputSchema has a ~standard property but no ~standard.validate function")
  }
  return standard
}

/**
 * The JSON Schema of a Standard Schema: the `jsonSchema` option when given, else the schema's
 * Standard JSON Schema (`~standard.jsonSchema.input`), else its `toJSONSchema()` (Zod 4) or
 * `toJsonSchema()` (ArkType). `$schema` is left out: providers do not need it, some refuse it.
 */
function jsonSchemaOf(options, standard) {
  const { inputSchema, jsonSchema } = options
  const convert = () => {
    if (jsonSchema !== undefined && jsonSchema !== null) return jsonSchema
    if (typeof standard.jsonSchema?.input === "function") return standard.jsonSchema.input({ target: "draft-07" })
    if (typeof inputSchema.toJSONSchema === "function") return inputSchema.toJSONSchema()
    if (typeof inputSchema.toJsonSchema === "function") return inputSchema.toJsonSchema()
    throw storeError(
      "invalid_tool",
      `defineTool: the ${standard.vendor ?? "Standard Schema"} inputSchema has no JSON Schema converter: pass its JSON Schema as the jsonSchema option`,
    )
  }
  let schema
  try {
    schema = convert()
  } catch (thrown) {
    if (typeof thrown?.code === "string") throw thrown
    throw storeError("invalid_tool", `defineTool: the inputSchema's JSON Schema could not be made: ${errorText(thrown)}`)
  }
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    throw storeError("invalid_tool", `defineTool: the inputSchema's JSON Schema must be an object, got ${typeName(schema)}`)
  }
  const { $schema, ...rest } = schema
  return rest
}

/**
 * A Standard Schema issue as one line, as the module words a JSON Schema issue:
 * `order.items[1].qty: message`, the message alone for the whole value.
 */
function issueText(issue) {
  const segments = Array.isArray(issue?.path) ? issue.path : []
  const path = segments
    .map((segment) => (typeof segment === "object" && segment !== null ? segment.key : segment))
    .reduce((text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), "")
  const message = typeof issue?.message === "string" ? issue.message : errorText(issue)
  return path ? `${path}: ${message}` : message
}

/** `run`, called with the schema's output; a refused call or a throwing validator is an error result. */
function validated(name, standard, run) {
  return async (args, ctx) => {
    let outcome
    try {
      outcome = await standard.validate(args)
    } catch (thrown) {
      return { output: `Invalid arguments for tool "${name}": the schema's validation threw: ${errorText(thrown)}`, isError: true }
    }
    if (outcome === null || typeof outcome !== "object") {
      return { output: `Invalid arguments for tool "${name}": the schema's validation returned ${typeName(outcome)}`, isError: true }
    }
    if (outcome.issues !== undefined) {
      const issues = Array.isArray(outcome.issues) ? outcome.issues : [outcome.issues]
      return { output: `Invalid arguments for tool "${name}": ${issues.map(issueText).join("; ")}`, isError: true }
    }
    return run(outcome.value, ctx)
  }
}

/** The entries' `defineTool`, over the module's (`define`). */
export function defineToolWith(define) {
  return function defineTool(options) {
    const standard = options !== null && typeof options === "object" ? standardOf(options.inputSchema) : undefined
    if (standard === undefined) return define(options)
    const run = options.run
    if (typeof run !== "function") return define({ ...options, inputSchema: undefined })
    const name = String(options.name)
    return define({
      name: options.name,
      description: options.description,
      source: options.source,
      inputSchema: jsonSchemaOf(options, standard),
      run: validated(name, standard, run),
    })
  }
}
