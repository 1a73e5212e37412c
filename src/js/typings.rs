//! The public TypeScript types the exports refer to (`unchecked_param_type` /
//! `unchecked_return_type` name them). Kept exact: no `any` in a public signature.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A JSON Schema object describing a tool's arguments. */
export interface JSONSchema {
  type?: "object"
  properties?: Record<string, unknown>
  required?: string[]
  additionalProperties?: boolean | Record<string, unknown>
  [keyword: string]: unknown
}

/** Where a tool comes from. */
export type ToolSource = "mcp" | "skill" | "builtin" | "native" | "http" | "a2a" | "relay" | "custom" | (string & {})

/** What a tool hands back to the model. `metadata.pending` marks a suspension. */
export interface ToolResult {
  output: string
  isError: boolean
  metadata?: Record<string, unknown>
}

/** An out-of-band question a suspended tool asks the host. Keys are fixed across ports. */
export interface Request {
  id: string
  kind: "authorization" | "approval" | "input" | "question" | "tool_call" | (string & {})
  prompt: string
  url?: string
  data?: Record<string, unknown>
  /** RFC 3339; the request is stale after this. */
  expiresAt?: string
}

/** The host's resolution of a {@link Request}. */
export interface Answer {
  id: string
  ok: boolean
  data?: Record<string, unknown>
  reason?: "declined" | "cancelled" | "expired" | (string & {})
}

/** A request for {@link pending}: the `id` is generated when absent. */
export type PendingInput = Omit<Request, "id"> & { id?: string }

/** What a tool receives beside its arguments. */
export interface ToolContext {
  signal?: AbortSignal
  /** The caller's time budget in milliseconds; the call resolves to an error result when it passes. */
  timeout?: number
  /** Present only on the retry after `waitFor` resolved a suspension. */
  answer?: Answer
}

/** What a tool's function may return. */
export type ToolReturn = string | ToolResult | null | undefined | number | boolean | object

/** Options of {@link defineTool}. */
export interface DefineToolOptions {
  name: string
  description?: string
  inputSchema?: JSONSchema
  source?: ToolSource
  run: (args: Record<string, unknown>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>
}

/** Any object shaped like a reference toolnexus `Tool` (or a {@link Tool} instance). */
export interface ToolLike {
  readonly name: string
  readonly description?: string
  readonly inputSchema?: JSONSchema
  readonly source?: ToolSource
  execute(args: Record<string, unknown>, ctx?: ToolContext): ToolReturn | Promise<ToolReturn>
}

/** The built-in tools toggle: `false`, `{disabled: true}` or `{enabled: false}` turn the source off. */
export type BuiltinsConfig = boolean | { enabled?: boolean; disabled?: boolean; tools?: Record<string, boolean> }

/** Options of {@link createToolkit}. */
export interface ToolkitOptions {
  extraTools?: ToolLike[]
  builtins?: BuiltinsConfig
  /** Final tool names to drop, across every source. */
  disableTools?: string[]
  /** A parsed config object; this version reads only its top-level `builtins` key. */
  mcpConfig?: { builtins?: BuiltinsConfig; [key: string]: unknown }
  waitFor?: (request: Request) => Promise<Answer>
}

export type McpStatus = "connected" | "disabled" | "failed"

export interface OpenAITool {
  type: "function"
  function: { name: string; description: string; parameters: JSONSchema }
}

export interface AnthropicTool {
  name: string
  description: string
  input_schema: JSONSchema
}

export type GeminiTools = [{ functionDeclarations: { name: string; description: string; parameters: JSONSchema }[] }]
"#;
