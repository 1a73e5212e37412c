// The public types of the full build: the lean build's (./core/types.ts), plus skills,
// MCP, the built-in tools and translate. Its records come from their Rust declarations
// (./records.ts, generated).
import type { ContentPart, ToolkitOptions as CoreToolkitOptions } from "./core/types.js"
import type { McpSource, MemoryFileSystem, SkillSource } from "./index.js"
import type {
  Agent, Answer, AnthropicMessage, AnthropicTool, BuiltinsConfig, JSONSchema, McpStatus, OpenAIMessage, OpenAITool, OpenAIToolCall,
  Request, ToolLike,
} from "./core/types.js"
import type { Tool, Toolkit } from "./core/index.js"
import type { SkillDef, TranslateResult } from "./records.js"

export type * from "./core/types.js"
export type * from "./records.js"

/** A discovered skill. */
export interface SkillInfo {
  name: string
  description?: string
  /** The path of its `SKILL.md`, or the logical base of a data skill. */
  location: string
  /** The body after the frontmatter. */
  content: string
  origin: "fs" | "logical"
  /** Data skills only. */
  resources?: string[]
  /** Data skills only. */
  base?: string
}

/** Why a candidate did not become a skill. */
export type SkillSkipReason = "missing-name" | "malformed-frontmatter" | "duplicate-name" | "unreadable"

/** A candidate that did not become a skill: where it was and why. */
export interface SkillSkip {
  location: string
  reason: SkillSkipReason
}

/** What {@link listSkills} resolves to: every valid skill (unfiltered) and every skip. */
export interface SkillInventory {
  skills: SkillInfo[]
  skipped: SkillSkip[]
}

/** The sources {@link listSkills} reads. */
export interface ListSkillsOptions {
  /** Skill directories, searched for `**\/SKILL.md` (needs a filesystem). */
  dirs?: string | string[]
  skills?: SkillDef[]
  /** More data skills, resolved once. */
  skillProvider?: () => SkillDef[] | Promise<SkillDef[]>
  /** Where `dirs` are read; the runtime's own filesystem in Node and Deno by default. */
  fs?: "node" | "deno" | MemoryFileSystem | ToolnexusFs | NodeFsPromises
}

/** The sources and shaping {@link loadSkills} reads. */
export interface LoadSkillsOptions extends ListSkillsOptions {
  /** Which skills to keep: any `true` makes it an allowlist, else `false` entries drop skills. */
  filter?: Record<string, boolean>
  /** Files listed by the `skill` tool: `0` ⇒ 10, `n > 0` ⇒ at most `n`, `-1` ⇒ no file list. */
  sampleLimit?: number
}

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
  /** How to sign in when the server answers 401 (OAuth 2.1; see docs/mcp-client.md). Ignored when `headers` has an `Authorization`. */
  auth?: McpAuthConfig
}

/**
 * OAuth for a remote MCP server. The library does discovery (RFC 9728, RFC 8414), client
 * registration, PKCE and the token exchange; the one step left to the host is the sign-in
 * page, a §10 Request of kind `"authorization"` (answered by `waitFor`, or pending in
 * `toolkit.mcpPending()` until `toolkit.mcpResume(answer)`).
 */
export interface McpAuthConfig extends McpMachineAuth {
  /** Where the sign-in comes back to (the authorization-code grant needs it). */
  redirectUrl?: string
  /** A pre-registered client. */
  clientId?: string
  /** The pre-registered client's secret; `${ENV_VAR}` expands from `env`. */
  clientSecret?: string
  /** A Client ID Metadata Document (an https URL): the client id where the authorization server supports them. */
  clientMetadataUrl?: string
  /** The client name sent with dynamic registration (RFC 7591). */
  clientName?: string
  /** Overrides the scope discovery picks. */
  scope?: string
  /** How the client authenticates at the token endpoint (default: from registration and the server's metadata). */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt"
  /** The grant (default `"authorization_code"`; the others need no person: see {@link McpMachineAuth}). */
  grant?: "authorization_code" | "client_credentials" | "jwt_bearer" | (string & {})
  [key: string]: unknown
}

/**
 * The keys of the grants without a person (docs/mcp-client.md, "Machine-to-machine grants"):
 * `grant: "client_credentials"` with `clientId` and `clientSecret` or `privateKey`;
 * `grant: "jwt_bearer"` with `clientId` and `assertion` (workload identity), or with `idToken`
 * and `idp` (enterprise-managed authorization: the ID token exchanged for an ID-JAG first).
 *
 * @example
 * ```ts
 * const auth: McpAuthConfig = { grant: "client_credentials", clientId: "reporting", privateKey: jwk }
 * ```
 */
export interface McpMachineAuth {
  /** `private_key_jwt`: the client's private key, a JWK with its private part or a PKCS#8 PEM; signed with WebCrypto. */
  privateKey?: JsonWebKey | string
  /** The key's algorithm when it does not say (default: from the key). */
  signingAlgorithm?: "ES256" | "ES384" | "RS256" | "PS256"
  /** `jwt_bearer`: a JWT sent as the assertion as it is (workload identity federation). `${ENV_VAR}` expands from `env`. */
  assertion?: string
  /** `jwt_bearer`: an ID token exchanged at `idp` for an ID-JAG (RFC 8693), which is then the assertion. `${ENV_VAR}` expands. */
  idToken?: string
  /** The identity provider `idToken` is exchanged at: its token endpoint and this application's client there. */
  idp?: { tokenEndpoint: string; clientId: string; clientSecret?: string }
  /** DPoP-bound tokens (RFC 9449): a proof with every token request and MCP request, the `DPoP` scheme. With any grant. */
  dpop?: boolean
}

/**
 * Where OAuth keeps tokens (per issuer and resource), registered clients (per issuer) and the
 * sign-ins waiting for their redirect (per `state`), as JSON text. Methods may be sync or
 * async. Default: memory; `IndexedDbTokenStore` in pages and workers, `FileTokenStore` in Node
 * and Deno. The values are secret: a store of your own must not log them.
 *
 * ```js
 * const map = new Map()
 * const tokenStore = { get: (k) => map.get(k), set: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) }
 * const toolkit = await createToolkit({ mcpConfig, tokenStore })
 * ```
 */
export interface TokenStore {
  /** The JSON text stored under `key`, or `undefined`. */
  get(key: string): Promise<string | undefined> | string | undefined
  /** Stores `value` (JSON text) under `key`. */
  set(key: string, value: string): Promise<void> | void
  /** Forgets `key`. */
  delete(key: string): Promise<void> | void
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

/**
 * One entry of a config's `agents` block: an {@link Agent} that `disabled: true` (or
 * `enabled: false`) turns off.
 */
export interface AgentConfig {
  card: string
  headers?: Record<string, string>
  timeout?: number
  pollEvery?: number
  enabled?: boolean
  disabled?: boolean
}

/** A config's `agents` block: `{"<id>": {card, …}}`; the key is only an identifier. */
export type AgentsConfig = Record<string, AgentConfig>

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
  /** Remote A2A agents (SPEC §7A), keyed by an identifier of your choosing. */
  agents?: AgentsConfig
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

/** One entry of {@link ToolnexusFs.readDir}; for a symlink, `kind` is its target's. */
export interface ToolnexusDirEntry {
  name: string
  kind: "file" | "dir"
}

/**
 * A filesystem the built-in tools can work on. Every path arrives absolute and normalized
 * (POSIX-style). Methods may be synchronous or return Promises. A missing path throws an error
 * whose `code` is `"ENOENT"` (`"EISDIR"` for a directory where a file was wanted, `"ENOTDIR"`
 * for the reverse); `stat` returns `null` instead.
 *
 * @example
 * const store = new Map()
 * const fs = {
 *   cwd: "/",
 *   readFile: (p) => { if (!store.has(p)) throw Object.assign(new Error(p), { code: "ENOENT" }); return store.get(p) },
 *   writeFile: (p, text) => { store.set(p, text) },
 *   remove: (p) => { store.delete(p) },
 *   readDir: (p) => [...store.keys()].filter((k) => k.startsWith(p === "/" ? "/" : p + "/")).map((k) => ({ name: k.slice(p.length).replace(/^\//, "").split("/")[0], kind: "file" })),
 *   stat: (p) => (store.has(p) ? { kind: "file" } : p === "/" ? { kind: "dir" } : null),
 * }
 */
export interface ToolnexusFs {
  /** The file's UTF-8 text. */
  readFile(path: string): string | Promise<string>
  /**
   * The file's bytes, for the `read` built-in's media files (png, jpg, gif, webp, pdf, mp3,
   * wav), which come back as content parts. Without it those files cannot be read.
   */
  readBytes?(path: string): Uint8Array | ArrayBuffer | Promise<Uint8Array | ArrayBuffer>
  /** Creates or replaces the file, creating missing parent directories. */
  writeFile(path: string, contents: string): void | Promise<void>
  /** Removes a file, or a directory with everything under it. */
  remove(path: string): void | Promise<void>
  /** The entries of a directory. */
  readDir(path: string): ToolnexusDirEntry[] | Promise<ToolnexusDirEntry[]>
  /** What is at `path` (following symlinks), or `null` when nothing is. */
  stat(path: string): { kind: "file" | "dir" } | null | Promise<{ kind: "file" | "dir" } | null>
  /** The canonical path (symlinks resolved); defaults to the path itself. */
  realPath?(path: string): string | Promise<string>
  /**
   * Moves the file at `from` to `to` in one step, replacing a file there. The `memory` tool
   * writes a temporary file and renames it over the old one, so a failed write leaves the old
   * file whole; without `rename` it copies the temporary file's text over the old one, then
   * removes it (the old file is replaced only by text already written once in full).
   */
  rename?(from: string, to: string): void | Promise<void>
  /** Where relative paths start (default `/`). */
  cwd?: string | (() => string)
}

/** What {@link MemoryFileSystem.toJSON} gives and {@link MemoryFileSystem.fromJSON} takes. */
export interface MemoryFileSystemJSON {
  files: Record<string, string>
  dirs?: string[]
}

/** The subset of `node:fs/promises` the built-in tools use. */
export interface NodeFsPromises {
  /** Reads a file as UTF-8 text. */
  readFile(path: string, encoding: "utf8"): Promise<string>
  /** Reads a file's bytes. */
  readFile(path: string): Promise<Uint8Array>
  /** Writes UTF-8 text to a file, replacing it. */
  writeFile(path: string, data: string, encoding: "utf8"): Promise<void>
  /** Creates a directory and its missing parents. */
  mkdir(path: string, options: { recursive: true }): Promise<unknown>
  /** Removes a file or a directory with its contents. */
  rm(path: string, options: { recursive: true }): Promise<void>
  /** Lists a directory's entries (`Dirent`s). */
  readdir(path: string, options: { withFileTypes: true }): Promise<unknown[]>
  /** Reads a path's metadata (`Stats`). */
  stat(path: string): Promise<unknown>
  /** Resolves a path's symbolic links. */
  realpath(path: string): Promise<string>
}

/** What a host's `exec` function resolves to. */
export interface ExecResult {
  /** stdout and stderr, combined. */
  output: string
  /** `null` when the process was killed by a signal. */
  exitCode: number | null
  /** Whether it was killed for running past the timeout. */
  timedOut?: boolean
}

/** Runs one shell command for the `bash` built-in. */
export type ExecFunction = (
  command: string,
  options: { workdir?: string; timeout: number },
) => ExecResult | Promise<ExecResult>

/** Options of {@link createBuiltinTools}: the `fs` and `exec` of {@link ToolkitOptions}. */
export type BuiltinToolsOptions = Pick<ToolkitOptions, "fs" | "exec">

/**
 * A message of a {@link TranslateRequest}: a Chat Completions message, or any message object
 * a client sends (`arguments` given as an object, `tool_calls` without `type`, legacy roles).
 */
export type TranslateMessage = OpenAIMessage | { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string; [key: string]: unknown }

/** An OpenAI `tool_choice`: passed on as it is to an `openai`-style endpoint, mapped for an `anthropic` one. */
export type OpenAIToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } } | (string & {})

/** An Anthropic `tool_choice`, as {@link openAIToolChoiceToAnthropic} writes it. */
export type AnthropicToolChoice = { type: "any" } | { type: "none" } | { type: "tool"; name: string }

/** An OpenAI finish reason, as {@link finishReasonFor} maps a provider's stop reason. */
export type FinishReason = "stop" | "tool_calls" | "length" | "content_filter"

/** The argument of `translate` (SPEC §11): an OpenAI Chat Completions request, taken as it is. */
export interface TranslateRequest {
  /** The OpenAI `messages`, assistant `tool_calls` and `tool` results included; at least one. */
  messages: TranslateMessage[]
  /** The OpenAI `tools`, declared only: nothing is ever run. */
  tools?: (OpenAITool | AnthropicTool)[]
  /** A toolkit whose tools are declared (before `tools`) and never run. */
  toolkit?: Toolkit
  /** The OpenAI `tool_choice`; absent, none is sent. */
  toolChoice?: OpenAIToolChoice
  /** Overrides the system prompt (the client's `systemPrompt`, then the request's system messages). */
  system?: string
  /** Overrides the provider's default `max_tokens` (4096 on Anthropic; none on OpenAI). */
  maxTokens?: number
  /** Aborts the call (code `"aborted"`). */
  signal?: AbortSignal
}





/**
 * Options of {@link createToolkit} in the full build: the lean build's, plus skills (SPEC §3),
 * MCP servers (§2) and the built-in tools' filesystem and shell (§4).
 */
export interface ToolkitOptions extends CoreToolkitOptions {
  /** Skills as data. */
  skills?: SkillDef[]
  /** More data skills, resolved once when the toolkit is built; a failure is a console warning. */
  skillProvider?: () => SkillDef[] | Promise<SkillDef[]>
  /**
   * Skill directories (each searched for `**\/SKILL.md`, symlinks followed). Read through `fs`
   * when given, else the runtime's filesystem (Node, Deno); in a browser pass `fs`.
   */
  skillsDir?: string | string[]
  /** Which skills to expose: any `true` makes it an allowlist, else `false` entries drop skills. */
  skillsFilter?: Record<string, boolean>
  /** Skill names to drop (folded into `skillsFilter` as `false`; explicit entries win). */
  disableSkills?: string[]
  /** Files listed by the `skill` tool: `0` ⇒ 10, `n > 0` ⇒ at most `n`, `-1` ⇒ no file list. */
  skillSampleLimit?: number
  /**
   * MCP servers: a parsed config object, or (Node, Deno) the path of a JSON config file. Its
   * `agents` block adds A2A agents as `agents` does.
   */
  mcpConfig?: string | McpConfigInput
  /**
   * Remote A2A agents (SPEC §7A), each made by {@link agent}: every skill of an agent's card
   * becomes a tool (source `"a2a"`), after the built-ins and before `extraTools`. An agent whose
   * card cannot be had is a console warning and `"failed"` in `agentStatus()`; the others load.
   */
  agents?: Agent[]
  /**
   * Answers MCP elicitations (form → `kind: "input"`, URL → `kind: "authorization"`; without it
   * they are not advertised) and MCP sign-ins (`kind: "authorization"`, answered with
   * `data: {url}`, the URL the sign-in redirected to; without it the server is `"pending"`).
   */
  waitFor?: (request: Request) => Answer | Promise<Answer>
  /** Where MCP OAuth keeps tokens, clients and pending sign-ins (default: memory). */
  tokenStore?: TokenStore
  /**
   * Variables for `${ENV_VAR}` in MCP and A2A header values, and the base environment of local
   * servers. Default: `process.env` / `Deno.env` where the runtime has one.
   */
  env?: Record<string, string>
  /**
   * The filesystem of `read`, `write`, `edit`, `grep`, `glob` and `apply_patch`: a fresh
   * in-memory one by default (`"memory"`); `"node"` / `"deno"` for the runtime's real one (or
   * pass `await import("node:fs/promises")`); your own {@link MemoryFileSystem}; or any
   * {@link ToolnexusFs}.
   */
  fs?: "memory" | "node" | "deno" | MemoryFileSystem | ToolnexusFs | NodeFsPromises
  /**
   * How `bash` runs commands; without it `bash` is not offered at all. `"node"` uses
   * `child_process` (or pass `await import("node:child_process")`).
   */
  exec?: ExecFunction | "node" | {
    /** `child_process.exec`, the one member read of the module. */
    exec: (...args: never[]) => unknown
  } | false
}

/**
 * What `run`, `ask`, `stream` and a conversation's `send` take as the user's turn: text, or
 * content parts in order (a string in the array is a text part).
 *
 * ```js
 * await client.run(["What is in this picture?", await image(file)], { toolkit })
 * ```
 */
export type Prompt = string | (string | ContentPart)[]

/**
 * What {@link image}, {@link file} and {@link audio} read at once: bytes, a `data:` URL, an
 * `https:` URL (kept as a URL), or in Node and Deno a path. A `Blob` or `File` is read too, as a
 * promise.
 */
export type PartSource = Uint8Array | ArrayBuffer | ArrayBufferView | string

/** Options of {@link image}, {@link file} and {@link audio}. */
export interface PartOptions {
  /** The MIME type; else the source's (a Blob's `type`, a `data:` URL's), else its extension's. */
  mimeType?: string
  /** The part's file name; else the `File`'s or the path's. */
  name?: string
  /** The largest part accepted, in decoded bytes; a larger one throws `invalid_part`. */
  maxPartBytes?: number
}
