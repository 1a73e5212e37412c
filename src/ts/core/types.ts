// The public types of the lean build (toolnexus-wasm/core); the full build's add to them
// (../types.ts). The interfaces of its classes are beside their values, in ./index.ts; the
// records come from their Rust declarations (./records.ts, generated).
import type { Answer, McpServeConfig, MetricEvent, OnCallEvent, Request, RunResult, StreamEvent, ToolResult } from "./records.js"
import type { Client, Conversation, Tool, Toolkit } from "./index.js"

export type * from "./records.js"

/**
 * What {@link tool} returns: applied to a method (as a decorator) or to a function (as a call),
 * it registers the tool and returns the method or function unchanged.
 *
 * @typeParam F The decorated method or function.
 */
export type ToolDecorator = <F extends (...args: never[]) => unknown>(
  value: F,
  context?: { name?: string | symbol; addInitializer?(initializer: (this: never) => void): void },
) => F

/**
 * The value of a class the module makes (`Toolkit`, `Client`, `Tool`, …), for `instanceof`; a
 * factory makes each instance (`createToolkit`, `createClient`, `defineTool`, …), never `new`.
 *
 * @typeParam T The instances' type.
 */
export type ClassOf<T> = abstract new (...args: never[]) => T

/**
 * Where {@link initializeWasm} instantiates the module from: the URL of `toolnexus_bg.wasm`, a
 * `Response` (or a `Request` to fetch), its bytes, or a compiled `WebAssembly.Module`.
 */
export type WasmSource = string | URL | Request | Response | BufferSource | WebAssembly.Module

/**
 * What `run`, `ask`, `stream` and a conversation's `send` take as the user's turn: text. (The
 * full build's also takes content parts.)
 */
export type Prompt = string

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

/** JSON data, as `JSON.parse` returns it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * What a tool's function may return: text; a {@link ToolResult}; a number, a boolean or a JSON
 * array (handed to the model as JSON text); or nothing (empty output). A plain object is read
 * as a `ToolResult`, so a misspelled key (`{ouput: "x"}`) fails to compile; hand other JSON
 * data back as `JSON.stringify(data)` (at run time a plain object without `output` is still
 * sent as its JSON text).
 *
 * ```ts
 * const ok: ToolReturn = { output: "done", isError: false }
 * const data: ToolReturn = JSON.stringify({ temperature: 21 })
 * ```
 */
export type ToolReturn = string | number | boolean | null | undefined | ToolResult | JsonValue[]

/** Options of {@link defineTool}. */
export interface DefineToolOptions {
  name: string
  description?: string
  inputSchema?: JSONSchema
  source?: ToolSource
  /** Runs one call with its checked arguments; a throw or rejection becomes `{isError: true, output}`. */
  run: (args: Record<string, unknown>, ctx: ToolContext) => ToolReturn | Promise<ToolReturn>
}

/** Options of {@link relayTool}: the declaration the model sees; the host runs each call. */
export interface RelayToolOptions {
  name: string
  description: string
  inputSchema?: JSONSchema
}

/** Any object shaped like a reference toolnexus `Tool` (or a {@link Tool} instance). */
export interface ToolLike {
  readonly name: string
  readonly description?: string
  readonly inputSchema?: JSONSchema
  readonly source?: ToolSource
  /** Runs one call; what it returns or throws is read as {@link DefineToolOptions.run}'s is. */
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
  /**
   * Bounds the loading (skills, MCP servers): already aborted, `createToolkit` rejects at once;
   * fired during the load, it rejects promptly and stops the servers it started (code `"aborted"`).
   */
  signal?: AbortSignal
}

/**
 * A remote A2A agent (SPEC §7A), as `agent` makes it (full build): the Agent Card URL, and how to call
 * it. Each skill of its card becomes a tool named `sanitize(card.name)_sanitize(skill)`.
 */
export interface Agent extends AgentOptions {
  /** The Agent Card URL (`…/.well-known/agent-card.json`). */
  card: string
}

/** How an A2A agent is called: `toolkit.addAgent(cardUrl, options)` takes these beside a URL. */
export interface AgentOptions {
  /** Extra request headers; `${ENV_VAR}` in a value expands at call time and is never logged or shown. */
  headers?: Record<string, string>
  /** The budget of one call (and of fetching the card), in ms: default 300000. */
  timeout?: number
  /** The interval between two `GetTask` polls, in ms: default 1000. */
  pollEvery?: number
  /** Variables for `${ENV_VAR}` in `headers` (default: `process.env` / `Deno.env`); `addAgent` and `agentTools` only. */
  env?: Record<string, string>
}

/** The state of one A2A agent in `agentStatus()`: `"failed"` when its card could not be had (the reason is in `agentErrors()`). */
export type AgentStatus = "connected" | "failed"

/** The state of one MCP server in `mcpStatus()`: `"disabled"` when its config turns it off, `"failed"` when it could not be used (the reason is in `mcpErrors()`), `"pending"` while it waits for a sign-in (`mcpPending()`). */
export type McpStatus = "connected" | "disabled" | "failed" | "pending"

/** One tool in the OpenAI function-calling shape, as `toOpenAI` writes it. */
export interface OpenAITool {
  type: "function"
  function: { name: string; description: string; parameters: JSONSchema }
}

/** One tool in the Anthropic Messages API shape, as `toAnthropic` writes it. */
export interface AnthropicTool {
  name: string
  description: string
  input_schema: JSONSchema
}

/** A transcript entry, in the client style's own shape: an OpenAI or an Anthropic message. */
export type Message = OpenAIMessage | AnthropicMessage

/** A part of an OpenAI message's content array. */
export type OpenAIContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } }

/** A tool call of an OpenAI assistant message; `arguments` is JSON text. */
export interface OpenAIToolCall {
  id: string
  type: "function"
  function: { name: string; arguments: string }
}

/** A Chat Completions message (the `openai` style's transcript). */
export type OpenAIMessage =
  | { role: "system" | "developer"; content: string | OpenAIContentPart[]; name?: string; metadata?: MessageMetadata }
  | { role: "user"; content: string | OpenAIContentPart[]; name?: string; metadata?: MessageMetadata }
  | { role: "assistant"; content?: string | null; tool_calls?: OpenAIToolCall[]; refusal?: string | null; name?: string; metadata?: MessageMetadata }
  | { role: "tool"; tool_call_id: string; content: string | OpenAIContentPart[]; metadata?: MessageMetadata }

/**
 * The host's notes on a transcript message (either style): kept in the transcript, in a
 * result's `messages` and in conversation stores, never sent to the provider (the client takes
 * a message's top-level `metadata` off each request body, before `bodyTransform` sees it).
 */
export interface MessageMetadata {
  /**
   * On a compaction summary ({@link agents.compactor}): how many earlier messages it stands
   * for and their token estimate (an earlier summary it folds in counts as what it recorded).
   */
  compacted?: { messages: number; tokens: number }
  [key: string]: unknown
}

/** A block of an Anthropic message's content. */
export type AnthropicContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "tool_result"; tool_use_id: string; content: string | { type: "text"; text: string }[]; is_error?: boolean }
  | { type: "image"; source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string } }
  | { type: "thinking"; thinking: string; signature?: string }

/** A Messages API message (the `anthropic` style's transcript; its system prompt is not one). */
export interface AnthropicMessage {
  role: "user" | "assistant"
  content: string | AnthropicContentBlock[]
  /** The host's notes, never sent to the provider. */
  metadata?: MessageMetadata
}

/** A Chat Completions response, as `afterLLM` sees it. */
export interface OpenAIResponse {
  id?: string
  model?: string
  choices: { index: number; message: Extract<OpenAIMessage, { role: "assistant" }>; finish_reason: string | null }[]
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }
}

/** A Messages API response, as `afterLLM` sees it. */
export interface AnthropicResponse {
  id?: string
  type?: "message"
  role: "assistant"
  model?: string
  content: AnthropicContentBlock[]
  stop_reason: string | null
  usage?: { input_tokens: number; output_tokens: number }
}

/** Where `ask({id})` keeps transcripts. */
export interface ConversationStore {
  /** The transcript saved under `id`, or `undefined` when there is none. */
  get(id: string): Promise<Message[] | undefined>
  /** Replaces the transcript saved under `id`. */
  save(id: string, messages: Message[]): Promise<void>
}

/** Lifecycle hooks; each may be async. A hook that throws stops the run. */
export interface Hooks {
  /** Before each model call; may return `messages` or `tools` that replace them for the rest of the run. */
  beforeLLM?(event: { messages: Message[]; tools: (OpenAITool | AnthropicTool)[]; model: string; turn: number }):
    | void | { messages?: Message[]; tools?: (OpenAITool | AnthropicTool)[] } | Promise<void | { messages?: Message[]; tools?: (OpenAITool | AnthropicTool)[] }>
  /** After each model call, with the provider's response. */
  afterLLM?(event: { response: OpenAIResponse | AnthropicResponse; model: string; turn: number }): void | Promise<void>
  /** Before each tool call; may return `args` that replace the arguments, or a `result` used instead of running the tool. */
  beforeTool?(event: { name: string; args: Record<string, unknown>; id: string; turn: number }):
    | void | { args?: Record<string, unknown>; result?: ToolResult } | Promise<void | { args?: Record<string, unknown>; result?: ToolResult }>
  /** After each tool call that ran; may return a `result` that replaces the tool's. */
  afterTool?(event: { name: string; args: Record<string, unknown>; result: ToolResult; id: string; turn: number }):
    | void | { result?: ToolResult } | Promise<void | { result?: ToolResult }>
}

/** Options every client shares. */
export interface CommonClientOptions {
  model: string
  headers?: Record<string, string>
  systemPrompt?: string
  /** Model calls per run before it stops as `incomplete` (default 10). */
  maxTurns?: number
  hooks?: Hooks
  store?: ConversationStore
  /** Resolves suspensions in-page (a dialog, a redirect). Without it a run halts as `pending`. */
  waitFor?: (request: Request) => Answer | Promise<Answer>
  /** Shallow-merged into every request body (wins over the client's keys). */
  requestParams?: Record<string, unknown>
  /** Gets the final body and returns the one to send (falsy: unchanged). Synchronous. */
  bodyTransform?: (body: Record<string, unknown>) => Record<string, unknown> | undefined | void
  /** Retries of a model call on 429, 500, 502, 503, 504 and network errors (default 2; 0 in-process). */
  retries?: number
  /** Backoff base in ms (default 500): `base * 2^attempt` plus up to 100 ms of jitter. */
  retryBaseMs?: number
  /** The whole run's deadline in ms: it aborts the in-flight request and rejects with an AbortError. */
  timeoutMs?: number
  /** Receives every metric event; the same events feed `client.metrics()`. */
  onMetric?: (event: MetricEvent) => void
  /**
   * The largest content part a request carries, in decoded bytes (full build): a larger part
   * you attached fails the run before anything is sent (`invalid_part`); one a tool returned
   * is sent as its placeholder text.
   */
  maxPartBytes?: number
  /**
   * What a part the provider has no block for becomes (full build), for parts you attached and
   * parts a tool returned alike: `"error"` fails the run before sending (`unsupported_part`),
   * `"text"` sends its placeholder (`[unsupported audio part (audio/wav, 4 bytes)]`). Default: an
   * attached part fails, a tool's becomes text.
   */
  onUnsupportedPart?: "error" | "text"
  /** Classifies each failed model call; bounded by `retries` whatever it says. */
  onError?: (info: ErrorInfo) => "retry" | "fail" | undefined
}

/** A failed model call, as `onError` sees it. */
export interface ErrorInfo {
  /** The transport error, when there was no response. */
  error?: Error
  /** The HTTP status, when there was one. */
  status?: number
  /** Zero-based attempt. */
  attempt: number
  /** Whether the default policy would retry it (429, 500, 502, 503, 504, network errors). */
  retryable: boolean
}

/** The second argument of `stream`. */
export interface StreamOptions {
  toolkit: Toolkit
  /** Loads history before and saves on `done`, like `ask`. */
  id?: string
  signal?: AbortSignal
}

/** Options of {@link createClient}. */
export interface ClientOptions extends CommonClientOptions {
  baseUrl: string
  style: "openai" | "anthropic"
  /** Else OPENROUTER_API_KEY, then OPENAI_API_KEY / ANTHROPIC_API_KEY where the runtime has an environment. */
  apiKey?: string
  /** The transport; defaults to the global `fetch`. */
  fetch?: (input: string, init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal }) => Promise<Response>
  /** Anthropic only: sends `anthropic-dangerous-direct-browser-access: true`, which Anthropic requires for calls made from a page (the key is then visible to the page). */
  anthropicBrowserAccess?: boolean
}

/** What an in-process model is handed. */
export interface InProcessRequest {
  messages: OpenAIMessage[]
  tools?: OpenAITool[]
  model: string
  body: Record<string, unknown>
}

/** What an in-process model returns: `content` to finish, or `toolCalls`. */
export interface InProcessResponse {
  content?: string
  toolCalls?: { id?: string; name: string; arguments?: string | Record<string, unknown> }[]
  usage?: { promptTokens?: number; completionTokens?: number; totalTokens?: number }
}

/** Options of {@link createInProcessClient}. */
export interface InProcessOptions extends CommonClientOptions {
  /** The model: answers one request with text or tool calls; a throw or rejection fails the run with code `"model"`. */
  generate: (request: InProcessRequest) => InProcessResponse | Promise<InProcessResponse>
}

/** The second argument of `run`. */
export interface RunOptions {
  toolkit: Toolkit
  signal?: AbortSignal
  history?: Message[]
}

/** The second argument of `ask`. */
export interface AskOptions {
  toolkit: Toolkit
  id?: string
  signal?: AbortSignal
  /** Streams the model calls and hands each text delta here as it arrives. */
  onText?: (delta: string) => void
  /** @deprecated The earlier spelling of `onText`, still read when `onText` is absent. */
  on_text?: (delta: string) => void
}

/** The argument of `runWithAnswer`: the halted run's transcript and request, and the answer. */
export interface ResumeOptions {
  toolkit: Toolkit
  history: Message[]
  pending: Request
  answer: Answer
  signal?: AbortSignal
}

/** The argument of `askWithAnswer`: as `runWithAnswer`, with the transcript in the store under `id`. */
export interface AskResumeOptions {
  toolkit: Toolkit
  id: string
  pending: Request
  answer: Answer
  signal?: AbortSignal
}

/** The argument of `conversation`. */
export interface ConversationOptions {
  toolkit: Toolkit
  signal?: AbortSignal
}

/** The tools in the Gemini shape, as `toGemini` writes them: one entry holding every function declaration. */
export type GeminiTools = [{ functionDeclarations: { name: string; description: string; parameters: JSONSchema }[] }]

/** Options of {@link httpTool}. */
export interface HttpToolOptions {
  name: string
  description?: string
  /** `"GET"`, `"POST"`, … (any case). */
  method: string
  /** May contain `{name}` placeholders, filled from the arguments (URL-encoded). */
  url: string
  /** Static headers; `${NAME}` in a value expands from `env`. Never logged. */
  headers?: Record<string, string>
  /** Argument names sent in the query string (on `GET` every argument is). */
  query?: string[]
  /** How the remaining arguments are sent: JSON (default), form-encoded, or the `body` argument as text. */
  body?: "json" | "form" | "raw"
  inputSchema?: JSONSchema
  /** Milliseconds before the request is aborted (default 30000). */
  timeout?: number
  /** A 2xx body as text (default), re-serialized JSON, or `"<status>\n<body>"`. */
  resultMode?: "text" | "json" | "status+text"
  /** Where `${NAME}` is read; defaults to `process.env` / `Deno.env` where the runtime has one. */
  env?: Record<string, string | undefined>
  /** The transport; defaults to the global `fetch`. */
  fetch?: (input: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>
}

/** The MCP serve profile (the reference port's name for {@link McpServeConfig}). */
export type MCPServeConfig = McpServeConfig

/** Called after each served `tools/call`; what it throws or rejects is ignored. */
export type OnCall = (event: OnCallEvent) => void | Promise<void>

/** Options of `toolkit.handler` and `toolkit.serve` (the reference port's `serve` options). */
export interface HandlerOptions {
  /**
   * The MCP profile: mounts `POST /mcp` (streamable HTTP, stateless) serving the toolkit's
   * tools. Absent, the toolkit's `mcpConfig.mcpServer` block; neither, no MCP route.
   */
  mcp?: MCPServeConfig
  /** Called after each `tools/call` with `{name, source, ms, isError}`. */
  onCall?: OnCall
  /** The client each A2A task runs on (`client.run(text, {toolkit})`); needed by the A2A profile. */
  client?: Client
  /**
   * The A2A profile (SPEC §7B): mounts `GET /.well-known/agent-card.json` and `POST /`
   * (JSON-RPC `SendMessage`, `GetTask`). Absent, the toolkit's `mcpConfig.a2a` block;
   * neither, no A2A routes. Full build only.
   */
  a2a?: A2AConfig
  /** Called when an A2A task ends (completed, failed or input-required). */
  onTask?: OnTask
}

/** A part of an A2A message or artifact, in the reference's shape. */
export interface A2ATextPart {
  kind: "text"
  text: string
}

/** An A2A message (a failed or suspended task's `status.message`). */
export interface A2AMessage {
  role: "user" | "agent"
  parts: A2ATextPart[]
}

/** A served A2A task as a {@link TaskStore} holds it (the reference's shape). */
export interface A2ATask {
  id: string
  contextId?: string
  status: { state: "submitted" | "working" | "completed" | "failed" | "input-required" | (string & {}); message?: A2AMessage }
  artifacts?: { artifactId?: string; parts: A2ATextPart[] }[]
  /**
   * Who runs an unfinished task and until when (see {@link A2AConfig.lease}); `lapsed` once
   * another process failed the task because the lease expired. Kept in the store, never on the
   * wire.
   */
  lease?: { owner: string; expiresAt: string; lapsed?: boolean }
}

/** Where served A2A tasks are kept: every task read and write goes through it. */
export interface TaskStore {
  /** The task saved under `id`, or `undefined`. */
  get(id: string): Promise<A2ATask | undefined>
  /** Saves `task` under `task.id`, replacing what was there. */
  save(task: A2ATask): Promise<void>
}

/** The A2A serve profile: the Agent Card's fields and where tasks are kept. */
export interface A2AConfig {
  /** The card's `name` (default `"toolnexus-agent"`). */
  name?: string
  /** The card's `description` (default `""`). */
  description?: string
  /** The card's `version` (default `"0.1.0"`). */
  version?: string
  /** The card's `provider`, only when given. */
  provider?: { organization: string; url: string }
  /**
   * The JSON-RPC endpoint the card names (`url` and `supportedInterfaces[0].url`); default the
   * request's origin + `/`. Set it when the handler sits behind a proxy or under a path.
   */
  url?: string
  /** The skill names to advertise; absent advertises every skill (never raw tools). */
  skills?: string[]
  /** `"memory"` (default), `"file:<dir>"`, `"indexeddb[:<database>]"`, or a {@link TaskStore}. */
  store?: TaskStore | "memory" | (string & {})
  /**
   * The largest JSON-RPC request body accepted, in bytes (default 1048576, 1 MiB). A larger
   * body is refused with HTTP 413 and JSON-RPC `-32600` after at most this much of it is read.
   */
  maxBodyBytes?: number
  /**
   * The lease of an unfinished task, in ms (default 30000; 0: no lease). A `submitted` or
   * `working` task records its owner and an expiry, renewed every third of the lease while it
   * runs; a `GetTask` that finds the lease expired (the owner process died) saves and answers
   * the task `failed`, the reason naming the owner. Set it far above any pause of a live process.
   */
  lease?: number
  /** This process's name in a task's lease (default `pid-<pid>-<random>`, or `agent-<random>` without a pid). */
  owner?: string
}

/** What `onTask` receives when a task ends. */
export interface OnTaskEvent {
  /** The task id. */
  id: string
  /** The skill the task was for (not read from requests yet: always absent). */
  skill?: string
  /** The task as saved. */
  task: A2ATask
  /** The run's result (absent when the run threw). */
  result?: RunResult
  /** `task.status.state`. */
  state: string
}

/** Called when a served A2A task ends; what it throws or rejects is ignored. */
export type OnTask = (event: OnTaskEvent) => void | Promise<void>

/** An Agent Card as `buildAgentCard` makes it. */
export interface AgentCard {
  name: string
  description: string
  version: string
  protocolVersion: string
  capabilities: { streaming: boolean; pushNotifications: boolean }
  defaultInputModes: string[]
  defaultOutputModes: string[]
  skills: { id: string; name: string; description: string }[]
  /** The JSON-RPC endpoint. */
  url: string
  /** A2A 1.0's list of interfaces: one JSON-RPC 1.0 interface at `url`. */
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[]
  provider?: { organization: string; url: string }
}

/** What `toolkit.serve` resolves to: where it listens, and how to stop it. */
export interface ServeHandle {
  /** The base URL, e.g. `http://127.0.0.1:41234` (MCP at `${url}/mcp`). */
  url: string
  /** Stops listening; requests in flight finish first. */
  stop(): Promise<void>
  /** The same as {@link ServeHandle.stop}. */
  close(): Promise<void>
}
