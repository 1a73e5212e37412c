/**
 * `toolnexus-wasm/core`: the lean build. Tools from JavaScript functions and HTTP endpoints,
 * provider schemas, and the whole agent loop (streaming, hooks, retries, memory, metrics,
 * suspension and durable resume) over any OpenAI- or Anthropic-style endpoint or an in-process
 * model. The full build (`toolnexus-wasm`) adds skills, MCP servers, the built-in tools and
 * `translate`.
 *
 * ```js
 * import { createClient, createToolkit, defineTool } from "toolnexus-wasm/core"
 * const toolkit = await createToolkit({ extraTools: [defineTool({ name: "now", run: () => new Date().toISOString() })] })
 * ```
 *
 * @module
 */
// The public API over the lean wasm-bindgen module: every export is typed and documented here;
// the module's own classes and helpers stay behind it. `#glue` is the module, instantiated by
// the runtime's loader (scripts/bundle-entry.mjs picks it per entry: page, Node, Deno, require).
import * as module from "#glue"
import type { StandardSchemaV1 } from "@standard-schema/spec"
import { InMemoryConversationStore } from "../../js/stores.js"
import { ToolnexusError } from "../../js/errors.js"
import { httpToolWith } from "../../js/http-tool.js"
import { defineToolWith, type StandardToolOptions, type TypedToolOptions } from "../../js/define-tool.js"
import { inProcessWith } from "../../js/in-process.js"
import { decoratorsWith } from "../../js/decorate.js"
import { checked, instantiate, whenInstantiated } from "./instance.js"
import type {
  Agent, AgentOptions, AgentStatus, Answer, AnthropicTool, AskOptions, ClassOf, AskResumeOptions, ClientOptions, ConversationOptions, ConversationStore, McpStatus, Message,
  Prompt, ResumeOptions, RunOptions, RunResult, ToolContext, WasmSource, DefineToolOptions, GeminiTools, HttpToolOptions, InProcessOptions, JSONSchema,
  OpenAITool, PendingInput, RelayToolOptions, Request, StreamEvent, StreamOptions, ToolDecorator,
  ToolkitOptions, ToolLike, ToolResult, HandlerOptions, ServeHandle,
} from "./types.js"

/** The glue: its functions refuse clearly until the module is instantiated. */
const glue = checked(module)

export type * from "./types.js"
export type { ArgsOf, StandardToolOptions, TypedToolOptions } from "../../js/define-tool.js"
export type { ErrorCode } from "../../js/errors.js"
export type { PendingStore, StorageLike } from "../../js/stores.js"
export { InMemoryConversationStore, IndexedDbConversationStore, WebStorageConversationStore } from "../../js/stores.js"
export { ToolnexusError, isToolnexusError } from "../../js/errors.js"
/**
 * Long-lived agents (SPEC §7D–§7F): today {@link agents.compactor}, a `beforeLLM` hook that
 * compacts a transcript over budget, and {@link agents.estimateTokens}, its default estimator.
 */
export * as agents from "../../js/agents.js"

// Every client's default store, and the class of every error the module throws.
whenInstantiated(() => {
  glue.__setDefaultStore(InMemoryConversationStore)
  glue.__setErrorClass(ToolnexusError)
})

/**
 * Instantiates the WebAssembly module, for `toolnexus-wasm/web` (and `toolnexus-wasm/core/web`),
 * the entries that do not instantiate it on import, so a page can serve `toolnexus_bg.wasm`
 * from a URL of its choosing. Call it once before anything else; later calls, and calls on the
 * other entries (which instantiate the module on import), resolve at once.
 *
 * ```js
 * import { initializeWasm, createToolkit } from "toolnexus-wasm/web"
 * await initializeWasm("https://cdn.example.com/toolnexus_bg.wasm")
 * ```
 */
export function initializeWasm(source?: WasmSource): Promise<void> {
  return instantiate(source)
}

/** The classes' members wasm-bindgen cannot write: a variadic method, an async iterator, a disposer. */
interface Idioms {
  register(...tools: ToolLike[]): Toolkit
  addAgent(agentOrCardUrl: Agent | string, options?: AgentOptions): Promise<Toolkit>
  stream(prompt: Prompt, ctx: StreamOptions): AsyncIterableIterator<StreamEvent>
  [Symbol.asyncDispose](): Promise<void>
}
const toolkitProto = glue.Toolkit.prototype as module.Toolkit & Pick<Idioms, "register" | "addAgent" | typeof Symbol.asyncDispose> & Pick<Toolkit, "handler" | "serve">
toolkitProto.register = function register(this: module.Toolkit, ...tools: ToolLike[]) {
  this.registerAll(tools)
  return this as unknown as Toolkit
}
// Serving a toolkit is the full build's (src/ts/index.ts installs the real ones over these).
const NOT_LEAN = (what: string) =>
  new ToolnexusError("unsupported", `${what}: serving a toolkit (MCP, A2A) is in the full build (toolnexus-wasm), not toolnexus-wasm/core`)
toolkitProto.handler = function handler(): never {
  throw NOT_LEAN("handler")
}
toolkitProto.serve = function serve() {
  return Promise.reject(NOT_LEAN("serve"))
}
// The lean build has no MCP client, so no server ever waits for a sign-in (the full build's
// glue has its own `mcpPending` / `mcpResume`).
const mcpProto = toolkitProto as unknown as Pick<Toolkit, "mcpPending" | "mcpResume">
if (typeof mcpProto.mcpPending !== "function") {
  mcpProto.mcpPending = () => []
  mcpProto.mcpResume = () => Promise.reject(new ToolnexusError("unsupported", "mcpResume: the MCP client is in the full build (toolnexus-wasm), not toolnexus-wasm/core"))
}
toolkitProto.addAgent = async function addAgent(this: module.Toolkit, agentOrCardUrl: Agent | string, options?: AgentOptions) {
  await this.addAgentTools(agentOrCardUrl, options)
  return this as unknown as Toolkit
}
// `await using toolkit = await createToolkit(...)` closes its MCP sessions at the block's end.
if (typeof Symbol.asyncDispose === "symbol") {
  toolkitProto[Symbol.asyncDispose] = function asyncDispose(this: module.Toolkit) {
    return this.close()
  }
}
;(glue.Client.prototype as module.Client & Pick<Idioms, "stream">).stream = function stream(this: module.Client, prompt, ctx) {
  const events = this.streamEvents(prompt, ctx)
  return {
    next: () => events.next(),
    return: () => events.close(),
    [Symbol.asyncIterator]() {
      return this
    },
  } as AsyncIterableIterator<StreamEvent>
}

/**
 * An assembled set of tools with one router and the provider adapters.
 *
 * ```js
 * const toolkit = await createToolkit({ extraTools: [weather] })
 * toolkit.toOpenAI() // [{ type: "function", function: { name: "get_weather", … } }]
 * await toolkit.execute("get_weather", { city: "Paris" })
 * ```
 */
export interface Toolkit {
  /**
   * Fetches a remote A2A agent's card and registers one tool per skill (SPEC §7A; the first of
   * a duplicate name wins). Takes an `agent` (full build) descriptor, or a card URL with
   * {@link AgentOptions}. Rejects when the card cannot be had (`network`, `http_status`,
   * `timeout`, `bad_response`; header values never in the message). Returns the toolkit.
   * Full build only: `toolnexus-wasm/core` rejects `unsupported`.
   *
   * ```js
   * await toolkit.addAgent("http://127.0.0.1:8000/.well-known/agent-card.json", { pollEvery: 250 })
   * ```
   */
  addAgent(agentOrCardUrl: Agent | string, options?: AgentOptions): Promise<this>
  /**
   * Why each failed A2A agent failed, by card URL (header values never in it).
   *
   * ```js
   * toolkit.agentErrors() // { "http://127.0.0.1:9/.well-known/agent-card.json": "A2A Agent Card: could not reach …" }
   * ```
   */
  agentErrors(): Record<string, string>
  /**
   * Each A2A agent's status by card URL (those of `createToolkit` and of `addAgent`, in order).
   *
   * ```js
   * toolkit.agentStatus() // { "http://127.0.0.1:8000/.well-known/agent-card.json": "connected" }
   * ```
   */
  agentStatus(): Record<string, AgentStatus>
  /**
   * Ends every MCP session (a DELETE for remote servers, stopping local ones).
   *
   * ```js
   * await toolkit.close()
   * ```
   */
  close(): Promise<void>
  /**
   * Runs the tool `name`. An unknown name, arguments that are not an object or do not match
   * the tool's `inputSchema`, and every tool failure resolve to `{isError: true, output}`.
   *
   * ```js
   * const r = await toolkit.execute("get_weather", { city: "Paris" }, { timeout: 10_000 })
   * ```
   */
  execute(name: string, args?: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult>
  /**
   * The tool called `name`, or `undefined`.
   */
  get(name: string): Tool | undefined
  /**
   * Why each failed MCP server failed, by server name (secrets redacted).
   *
   * ```js
   * toolkit.mcpErrors() // { flaky: "timed out after 5000 ms during initialize" }
   * ```
   */
  mcpErrors(): Record<string, string>
  /**
   * Each MCP server's status: `"connected" | "disabled" | "failed" | "pending"`.
   */
  mcpStatus(): Record<string, McpStatus>
  /**
   * The sign-in Requests (kind `"authorization"`) of the MCP servers that are `"pending"`
   * (OAuth without `waitFor`): send the person to `request.url`.
   *
   * ```js
   * const [request] = toolkit.mcpPending()
   * ```
   */
  mcpPending(): Request[]
  /**
   * Finishes a pending MCP sign-in with `{id, ok: true, data: {url}}` (`url`: where the sign-in
   * redirected to): state and `iss` checked, the code exchanged once, the server connected and
   * its tools added. Resolves with the server's new status.
   *
   * ```js
   * await toolkit.mcpResume({ id: request.id, ok: true, data: { url: location.href } }) // "connected"
   * ```
   */
  mcpResume(answer: Answer): Promise<McpStatus>
  /**
   * Adds tools at run time; the first of a duplicate name wins (the later one is refused
   * with a console warning). Returns the toolkit.
   *
   * ```js
   * toolkit.register(toolA, toolB)
   * ```
   */
  register(...tools: ToolLike[]): this
  /** `await using toolkit = await createToolkit(...)`: {@link Toolkit.close} at the block's end. */
  [Symbol.asyncDispose](): Promise<void>
  /**
   * The skill catalog for the system prompt (SPEC §3); empty without a skill source.
   */
  skillsPrompt(): string
  /**
   * Anthropic tool schemas: `[{name, description, input_schema}]`.
   */
  toAnthropic(): AnthropicTool[]
  /**
   * Gemini tool schemas: `[{functionDeclarations: [{name, description, parameters}]}]`.
   */
  toGemini(): GeminiTools
  /**
   * OpenAI tool schemas: `[{type: "function", function: {name, description, parameters}}]`.
   */
  toOpenAI(): OpenAITool[]
  /**
   * Every tool, in assembly order (MCP → skill → built-in → A2A agents → extra tools).
   */
  tools(): Tool[]
  /**
   * A WHATWG fetch handler serving this toolkit (SPEC §7C): with the `mcp` profile (or the
   * `mcpConfig.mcpServer` block), `POST /mcp` is an MCP server (streamable HTTP, stateless:
   * JSON or an event stream as the request's `Accept` prefers; `GET` 405) advertising every
   * tool verbatim and running each `tools/call` with the request's signal; any other request
   * is 404. Mount it on `Deno.serve`, a Worker's `fetch`, a Service Worker's `fetch` event or
   * Node. With the `a2a` profile (or the `mcpConfig.a2a` block) and a `client`, it is also an
   * A2A agent (SPEC §7B): `GET /.well-known/agent-card.json` and JSON-RPC `SendMessage` /
   * `GetTask` at `POST /`, each task a `client.run` kept in `a2a.store`. Full build only: the
   * lean build refuses (code `unsupported`).
   *
   * ```js
   * Deno.serve(toolkit.handler({ mcp: { name: "gateway" }, onCall: (e) => console.log(e.name, e.ms) }))
   * Deno.serve(toolkit.handler({ client, a2a: { name: "review-desk", store: "file:./tasks" } }))
   * ```
   */
  handler(options?: HandlerOptions): (request: globalThis.Request) => Promise<Response>
  /**
   * Listens on `addr` (`"127.0.0.1:0"` picks a free port) with {@link Toolkit.handler} in Node,
   * Bun and Deno; in a page it rejects with code `unsupported` (mount `handler` in a Service
   * Worker instead).
   *
   * ```js
   * const srv = await toolkit.serve("127.0.0.1:0", { mcp: {} })
   * // an MCP client connects to `${srv.url}/mcp`
   * await srv.stop()
   * ```
   */
  serve(addr: string, options?: HandlerOptions): Promise<ServeHandle>
}
/** The toolkit class (made by {@link createToolkit}); for `instanceof`. */
export const Toolkit = glue.Toolkit as unknown as ClassOf<Toolkit>

/**
 * An agent client: runs the tool-calling loop against one endpoint.
 *
 * ```js
 * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini" })
 * const result = await client.run("What is the weather in Paris?", { toolkit })
 * ```
 */
export interface Client {
  /**
   * `runWithAnswer` through the store: `{toolkit, id, pending, answer, signal?}` loads the
   * transcript saved under `id`, resumes it, and saves the result's transcript.
   *
   * ```js
   * await client.askWithAnswer({ toolkit, id: "thread-1", pending, answer: { id: pending.id, ok: true } })
   * ```
   */
  askWithAnswer(ctx: AskResumeOptions): Promise<RunResult>
  /**
   * `run` with memory: with an `id`, the transcript is loaded from the store first and
   * saved after (a failing `save` leaves `saveError` on the result). With `onText`, the
   * model calls stream and each text delta goes to the callback as it arrives.
   *
   * ```js
   * const r = await client.ask("What is my name?", { toolkit, id: "thread-1", onText: (t) => out.append(t) })
   * ```
   */
  ask(prompt: Prompt, ctx: AskOptions): Promise<RunResult>
  /**
   * The conversation store `ask` uses: the `store` option itself, else the client's own
   * `InMemoryConversationStore`.
   */
  conversationStore(): ConversationStore
  /**
   * A stateful conversation: each `send` continues the same transcript.
   *
   * ```js
   * const chat = client.conversation({ toolkit })
   * await chat.send("Hi, I am Ada")
   * ```
   */
  conversation(ctx: ConversationOptions): Conversation
  /**
   * The Prometheus text exposition of this client's metrics, byte-identical to the
   * reference ports'; before any activity only the `# HELP` / `# TYPE` lines.
   *
   * ```js
   * res.end(client.metrics()) // text/plain; version=0.0.4
   * ```
   */
  metrics(): string
  /**
   * Resumes a halted run (SPEC §10 durable resume): `{toolkit, history, pending, answer,
   * signal?}` where `history` and `pending` come from the halted `RunResult` (plain JSON, so
   * it may have crossed a reload or a process). `answer.id` must be `pending.id`; an expired
   * request resumes as declined. Every call of the halted turn ends with one result.
   *
   * ```js
   * const halted = JSON.parse(localStorage.run)
   * const r = await client.runWithAnswer({ toolkit, history: halted.messages, pending: halted.pending,
   *   answer: { id: halted.pending.id, ok: true } })
   * ```
   */
  runWithAnswer(ctx: ResumeOptions): Promise<RunResult>
  /**
   * Runs the loop to its end: `status` is `"done"`, `"pending"` (a tool suspended and there
   * is no `waitFor`), or `"incomplete"` (`limit` says which). Rejects when the model call
   * fails, a hook throws, or the run is aborted or times out.
   *
   * ```js
   * const r = await client.run("Book it", { toolkit, signal: controller.signal })
   * if (r.status === "pending") save(JSON.stringify(r))
   * ```
   */
  run(prompt: Prompt, ctx: RunOptions): Promise<RunResult>
  /**
   * Runs the loop with streamed model calls; `for await` yields text deltas, tool calls and
   * results, `pending` (before `waitFor` runs), `usage` and finally `done` with the result.
   * Breaking out of the loop aborts the run and its in-flight request.
   *
   * ```js
   * for await (const event of client.stream("Hi", { toolkit })) if (event.type === "text") out.append(event.text)
   * ```
   */
  stream(prompt: Prompt, ctx: StreamOptions): AsyncIterableIterator<StreamEvent>
}
/** The client class (made by {@link createClient}); for `instanceof`. */
export const Client = glue.Client as unknown as ClassOf<Client>

/**
 * A tool, whatever its source.
 *
 * ```js
 * const t = defineTool({ name: "add", description: "Adds", run: ({ a, b }) => String(a + b) })
 * t.name // "add"
 * await t.execute({ a: 1, b: 2 }) // { output: "3", isError: false }
 * ```
 */
export interface Tool {
  /**
   * Runs the tool. Arguments are checked against `inputSchema` first; every failure,
   * including a throw inside the tool, resolves to `{isError: true, output}`.
   *
   * ```js
   * const r = await tool.execute({ city: "Paris" }, { signal: AbortSignal.timeout(5000) })
   * ```
   */
  execute(args?: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult>
  /**
   * What the tool does, for the model.
   */
  readonly description: string
  /**
   * The JSON Schema of the arguments (a fresh copy).
   */
  readonly inputSchema: JSONSchema
  /**
   * The tool's unique name.
   */
  readonly name: string
  /**
   * Where the tool comes from: `"native"`, `"mcp"`, `"builtin"`, …
   */
  readonly source: string
}
/** The tool class (made by {@link defineTool} and every other source); for `instanceof`. */
export const Tool = glue.Tool as unknown as ClassOf<Tool>

/**
 * A conversation that keeps its transcript between sends.
 */
export interface Conversation {
  /**
   * Forgets the transcript.
   */
  reset(): void
  /**
   * Sends the next user turn; resolves to the run's result.
   */
  send(prompt: Prompt): Promise<RunResult>
  /**
   * The whole transcript so far (a copy).
   */
  readonly messages: Message[]
}
/** The conversation class (made by {@link Client.conversation}); for `instanceof`. */
export const Conversation = glue.Conversation as unknown as ClassOf<Conversation>

/**
 * Sugar for `pending({kind: "authorization", url, prompt})`; the prompt defaults to
 * `"Authorization required to continue"`.
 *
 * ```js
 * return authRequired("https://example.com/login")
 * ```
 */
export function authRequired(url: string, prompt?: string): ToolResult {
  return glue.authRequired(url, prompt)
}

/**
 * A client for any OpenAI- or Anthropic-style endpoint, over `fetch`.
 *
 * ```js
 * const client = createClient({
 *   baseUrl: "http://127.0.0.1:11434/v1", style: "openai", model: "llama3.2",
 *   waitFor: async (request) => ({ id: request.id, ok: confirm(request.prompt) }),
 * })
 * ```
 */
export function createClient(options: ClientOptions): Client {
  return glue.createClient(options) as unknown as Client
}

/**
 * Assembles a toolkit (SPEC §4). Resolves to a {@link Toolkit}; invalid options reject with an
 * `Error` whose `code` says what kind of problem it is. `signal` bounds the loading (skills,
 * MCP servers): an already-aborted signal rejects at once, one that fires stops the load and
 * the servers it started (code `"aborted"`).
 *
 * ```js
 * import { createToolkit, defineTool } from "toolnexus-wasm"
 * const toolkit = await createToolkit({ extraTools: [weather], builtins: { tools: { bash: false } } })
 * ```
 */
export function createToolkit(options?: ToolkitOptions): Promise<Toolkit> {
  return glue.createToolkit(options) as unknown as Promise<Toolkit>
}

/**
 * Builds a suspension (SPEC §10): `{output: prompt (+ "\n" + url), isError: true,
 * metadata: {pending: request}}`. A missing `id` is generated. An `expiresAt` must be an
 * ISO 8601 date-time that `Date.parse` reads (`"2030-01-02"`, `"2030-01-02T03:04Z"`,
 * `new Date(...).toISOString()`; without an offset, a date-time is local time): any other
 * throws `invalid_request`, since no answer could ever approve the request.
 *
 * ```js
 * return pending({ kind: "approval", prompt: "Send 3 emails?", data: { count: 3 } })
 * ```
 */
export function pending(request: PendingInput): ToolResult {
  return glue.pending(request)
}

/**
 * The `Request` a suspended result carries, or `undefined` for every ordinary result
 * (failures included). Never throws, whatever it is given.
 *
 * ```js
 * const req = pendingOf(result)
 * if (req) showDialog(req.prompt)
 * ```
 */
export function pendingOf(result: ToolResult | undefined | null): Request | undefined {
  return glue.pendingOf(result)
}

/**
 * Replaces every character outside `[a-zA-Z0-9_-]` with `_`.
 *
 * ```js
 * sanitize("my server.v2") // "my_server_v2"
 * ```
 */
export function sanitize(value: string): string {
  return glue.sanitize(value)
}

/**
 * Anthropic tool schemas for any tool list.
 *
 * ```js
 * toAnthropic([weather]) // [{ name, description, input_schema }]
 * ```
 */
export function toAnthropic(tools: ToolLike[]): AnthropicTool[] {
  return glue.toAnthropic(tools)
}

/**
 * Gemini tool schemas for any tool list (one element wrapping every declaration).
 *
 * ```js
 * toGemini([weather]) // [{ functionDeclarations: [{ name, description, parameters }] }]
 * ```
 */
export function toGemini(tools: ToolLike[]): GeminiTools {
  return glue.toGemini(tools)
}

/**
 * OpenAI tool schemas for any tool list.
 *
 * ```js
 * toOpenAI([weather]) // [{ type: "function", function: { name, description, parameters } }]
 * ```
 */
export function toOpenAI(tools: ToolLike[]): OpenAITool[] {
  return glue.toOpenAI(tools)
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
export function defineTool<Schema extends StandardSchemaV1>(options: StandardToolOptions<Schema>): Tool
export function defineTool<const Schema extends JSONSchema>(options: TypedToolOptions<Schema>): Tool
export function defineTool(options: DefineToolOptions): Tool
export function defineTool(options: DefineToolOptions | StandardToolOptions<StandardSchemaV1> | TypedToolOptions<unknown>): Tool {
  return typedDefine(options)
}
const typedDefine = defineToolWith((options) => glue.defineTool(options))


/**
 * A relay (declaration-only) tool: the model can call it, the host runs it. Every relay call
 * of a turn surfaces as one suspension `{kind: "tool_call", data: {calls: [{id, name, input,
 * arguments}]}}`; the answer's `data.results: [{id, output, isError}]` (or `data.output` for a
 * single call) fills them. A relay tool may not take a built-in tool's name.
 *
 * ```js
 * const lookup = relayTool({ name: "lookup", description: "Looks a record up on the host", inputSchema: { type: "object", properties: { q: { type: "string" } } } })
 * ```
 */
export function relayTool(options: RelayToolOptions): Tool
/** @deprecated The positional form: `relayTool(name, description, inputSchema?)`; pass the options object. */
export function relayTool(name: string, description: string, inputSchema?: JSONSchema): Tool
export function relayTool(options: RelayToolOptions | string, description?: string, inputSchema?: JSONSchema): Tool {
  return glue.relayTool(options, description, inputSchema)
}

/**
 * Declares an HTTP endpoint as a tool (`source: "http"`). `{placeholders}` in `url` are filled
 * from the arguments (URL-encoded) and left out of the body; `query` names go to the query
 * string (every argument on `GET`); the rest is the body (`"json"` by default, `"form"`, or
 * `"raw"`: the `body` argument). Header values expand `${NAME}` from `env` (by default
 * `process.env` / `Deno.env` where the runtime has one); they are never logged or echoed. A
 * non-2xx status resolves to `{isError: true, output: "HTTP <status>: <body>"}`; a 2xx to the
 * body with `metadata.status`. `timeout` (ms, default 30000) aborts the request. Bad options
 * throw a {@link ToolnexusError} with `code` `"invalid_options"` (`"invalid_tool"` for a bad name or schema).
 *
 * ```js
 * const issue = httpTool({
 *   name: "get_issue", description: "Reads a GitHub issue", method: "GET",
 *   url: "https://api.github.com/repos/{owner}/{repo}/issues/{number}",
 *   headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
 *   inputSchema: { type: "object", properties: { owner: { type: "string" }, repo: { type: "string" }, number: { type: "integer" } }, required: ["owner", "repo", "number"] },
 * })
 * ```
 */
export function httpTool(options: HttpToolOptions): Tool {
  return http(options)
}
const http = httpToolWith((options) => glue.defineTool(options))

/**
 * A client whose model runs in this process: `generate({messages, tools, model, body})`
 * returns `{content}` or `{toolCalls: [{id?, name, arguments}]}` (plus optional `usage`).
 * Messages are OpenAI-shaped; hooks, shaping and the loop behave as over HTTP. Failures of
 * `generate` are final (code `"model"`, never retried); `retries` defaults to 0.
 *
 * ```js
 * const client = createInProcessClient({ model: "scripted", generate: async ({ messages }) => ({ content: "Hello!" }) })
 * ```
 */
export function createInProcessClient(options: InProcessOptions): Client {
  return inProcess(options) as unknown as Client
}
const inProcess = inProcessWith((options) => glue.createClient(options))

const decorators = decoratorsWith((options) => glue.defineTool(options))
/**
 * A decorator that makes the decorated method (or function) a tool (SPEC §6): named
 * `options.name`, else the method's (or function's) name, else the key {@link collectTools}
 * finds an anonymous function under; `options.inputSchema`, else `defineTool`'s default.
 * TC39 decorators (TypeScript 5 without `experimentalDecorators`), or a plain call on a
 * function. A bad name or schema throws where it is applied (`code` `"invalid_tool"`).
 *
 * ```ts
 * class Maths { @tool("Adds a and b") add({ a, b }: { a: number; b: number }) { return String(a + b) } }
 * const toolkit = await createToolkit({ extraTools: collectTools(new Maths()) })
 * const helpers = { shout: tool("Upper-cases text")(function shout(args: { text: string }) { return args.text.toUpperCase() }) }
 * ```
 */
export function tool(description: string, options?: { name?: string; inputSchema?: JSONSchema }): ToolDecorator {
  return decorators.tool(description, options)
}
/**
 * The tools {@link tool} made for `object`: an instance's decorated methods (each called on
 * the instance), then its own properties that are decorated functions.
 *
 * ```ts
 * const toolkit = await createToolkit({ extraTools: collectTools(new Maths()) })
 * ```
 */
export function collectTools(object: object): Tool[] {
  return decorators.collectTools(object) as Tool[]
}
