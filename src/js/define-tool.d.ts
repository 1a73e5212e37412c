// Typings of define-tool.js: the options of a `defineTool` whose argument type is inferred from
// `inputSchema`, a Standard Schema (Zod 4, Valibot, ArkType...) or a JSON Schema literal.
import type { StandardSchemaV1 } from "@standard-schema/spec"
import type { FromSchema, JSONSchema as JSONSchemaLiteral } from "json-schema-to-ts"
import type { DefineToolOptions, JSONSchema, Tool, ToolContext, ToolReturn, ToolSource } from "../ts/index.js"

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

/** What define-tool.js makes of the module's `defineTool`: one that also takes a Standard Schema. */
export declare function defineToolWith(define: (options: DefineToolOptions) => Tool): (options: DefineToolOptions | StandardToolOptions<StandardSchemaV1> | TypedToolOptions<unknown>) => Tool
