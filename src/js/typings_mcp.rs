//! TypeScript types of the MCP source: config input, the normalized config
//! `parseMcpConfig` returns, `listMcpTools`' inventory, and the `env` toolkit option (merged
//! into `ToolkitOptions`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Keys every server entry may carry. */
export interface McpServerCommon {
  /** `enabled: false` or `disabled: true` skips the server (status `"disabled"`). */
  enabled?: boolean
  disabled?: boolean
  /** Budget of each phase (initialize, tools/list, each tools/call), in ms; default 30000. */
  timeout?: number
  /** Per-server tool filter on the server's own tool names: any `true` makes an allowlist, only `false` entries a drop-list. */
  tools?: Record<string, boolean>
}

/** A remote server over streamable HTTP. `${ENV_VAR}` in a header value expands from `env`. */
export interface McpRemoteServerInput extends McpServerCommon {
  type?: "remote" | "http" | "streamable-http" | "sse"
  url: string
  headers?: Record<string, string>
}

/** A local server over stdio (Node and Deno only). */
export interface McpLocalServerInput extends McpServerCommon {
  type?: "local" | "stdio"
  /** The program, or the program and its arguments. */
  command: string | string[]
  args?: string[]
  /** Added to the inherited environment (alias `env`). */
  environment?: Record<string, string>
  env?: Record<string, string>
  cwd?: string
}

/** One server of an MCP config: remote (a `url`) or local (a `command`). */
export type McpServerInput = McpRemoteServerInput | McpLocalServerInput

/**
 * An MCP config: servers under `mcpServers`, `servers` or `mcp`, or the object itself as the
 * server map (then `builtins`, `agents`, `a2a` and `mcpServer` are other sections, not servers).
 */
export interface McpConfigInput {
  mcpServers?: Record<string, McpServerInput>
  servers?: Record<string, McpServerInput>
  mcp?: Record<string, McpServerInput>
  builtins?: BuiltinsConfig
  [key: string]: unknown
}

/** One listed tool under its own (unprefixed) name. */
export interface McpToolInfo {
  name: string
  description: string
  inputSchema: JSONSchema
}

/** What {@link listMcpTools} resolves to. */
export interface McpInventory {
  /** Each connected server's tools, unfiltered. */
  tools: Record<string, McpToolInfo[]>
  status: Record<string, McpStatus>
  /** Why each failed server failed (secrets redacted). */
  errors: Record<string, string>
}

/** Options of {@link listMcpTools}. */
export interface McpListOptions {
  /** Variables for `${ENV_VAR}` in headers (default: the runtime's environment). */
  env?: Record<string, string>
  /** Already aborted, the listing rejects at once; fired, it stops promptly (code `"aborted"`). */
  signal?: AbortSignal
}

/** Options of {@link loadMcp}. */
export interface LoadMcpOptions extends McpListOptions {
  /** Answers the servers' elicitations; without it they are not advertised. */
  waitFor?: (request: Request) => Answer | Promise<Answer>
}

/** The params of an MCP `elicitation/create` request. */
export interface ElicitationParams {
  message?: string
  /** Form mode: the JSON Schema of what is asked. */
  requestedSchema?: JSONSchema
  /** `"url"` for URL mode (an authorization in a browser); form mode otherwise. */
  mode?: "form" | "url" | (string & {})
  url?: string
}

/** The MCP `ElicitResult` an answer becomes. */
export type ElicitResult =
  | { action: "accept"; content: Record<string, unknown> }
  | { action: "decline" }
  | { action: "cancel" }

export interface ToolkitOptions {
  /** MCP servers: a parsed config object, or (Node, Deno) the path of a JSON config file. */
  mcpConfig?: string | McpConfigInput
  /** Answers MCP elicitations (form → `kind: "input"`, URL → `kind: "authorization"`); without it they are not advertised. */
  waitFor?: (request: Request) => Answer | Promise<Answer>
  /**
   * Variables for `${ENV_VAR}` in MCP header values, and the base environment of local
   * servers. Default: `process.env` / `Deno.env` where the runtime has one.
   */
  env?: Record<string, string>
}
"#;
