// Typings of define-tool.js: `defineTool` with its argument type inferred from `inputSchema`,
// a Standard Schema (Zod 4, Valibot, ArkType...) or a JSON Schema literal.
import type { StandardSchemaV1 } from "@standard-schema/spec"
import type { FromSchema, JSONSchema as JSONSchemaLiteral } from "json-schema-to-ts"
import type { DefineToolOptions, JSONSchema, Tool, ToolContext, ToolReturn, ToolSource } from "./web/toolnexus.js"

/** Options of {@link defineTool} whose `inputSchema` is a Standard Schema: `run` gets its output type. */
export interface StandardToolOptions<Schema extends StandardSchemaV1> {
  name: string
  description?: string
  /** The schema: its JSON Schema goes to the model, and it validates (and parses) every call's arguments. */
  inputSchema: Schema
  /** The JSON Schema the model sees, for a schema library with no JSON Schema converter of its own. */
  jsonSchema?: JSONSchema
  source?: ToolSource
  /** The tool's function: gets the schema's output (parsed, defaults filled in) and the call's context. */
  run: (args: StandardSchemaV1.InferOutput<Schema>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>
}

/** The arguments a JSON Schema literal describes (`Record<string, unknown>` for a schema not known in place). */
export type ArgsOf<Schema> = Schema extends JSONSchemaLiteral ? FromSchema<Schema> : Record<string, unknown>

/** Options of {@link defineTool} whose `inputSchema` is a JSON Schema literal: `run` gets the type it describes. */
export interface TypedToolOptions<Schema> {
  name: string
  description?: string
  /** The JSON Schema, written in place (or `as const`), so its shape is known to the compiler. */
  inputSchema: Schema
  source?: ToolSource
  /** The tool's function: gets the arguments the schema describes (checked against it) and the call's context. */
  run: (args: ArgsOf<Schema>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>
}

/**
 * Turns a function into a tool (`source: "native"` unless given). `run(args, ctx)` may return a
 * string, a `ToolResult`, other JSON data, or a Promise of one; a throw or rejection becomes
 * `{isError: true, output: <message>}`. `args` is typed from `inputSchema`: a Standard Schema
 * (Zod 4, Valibot, ArkType) gives its output type and also validates every call (a refused call
 * goes back to the model as an error result naming each issue); a JSON Schema literal gives the
 * type it describes.
 *
 * ```ts
 * import { z } from "zod"
 * const weather = defineTool({
 *   name: "get_weather",
 *   description: "Current weather for a city",
 *   inputSchema: z.object({ city: z.string(), unit: z.enum(["C", "F"]).default("C") }),
 *   run: async ({ city, unit }) => `Sunny in ${city}, 21°${unit}`,
 * })
 * const time = defineTool({
 *   name: "get_time",
 *   inputSchema: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
 *   run: ({ zone }) => new Date().toLocaleString("en-GB", { timeZone: zone }),
 * })
 * ```
 */
export declare function defineTool<Schema extends StandardSchemaV1>(options: StandardToolOptions<Schema>): Tool
export declare function defineTool<const Schema extends JSONSchema>(options: TypedToolOptions<Schema>): Tool
export declare function defineTool(options: DefineToolOptions): Tool
