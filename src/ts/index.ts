/**
 * `toolnexus-wasm`: the toolnexus agent library for browsers, Node and Deno. One uniform tool
 * over JavaScript functions, HTTP endpoints, MCP servers, skills and built-in tools; provider
 * schemas; and a complete agent loop against any OpenAI- or Anthropic-style endpoint, with
 * streaming, hooks, retries, memory, metrics, and suspensions a page answers in place (or a
 * run halts as JSON and resumes later). `toolnexus-wasm/core` is the lean build without skills,
 * MCP, the built-in tools and `translate`.
 *
 * ```js
 * import { createClient, createToolkit, defineTool } from "toolnexus-wasm"
 * const toolkit = await createToolkit({ extraTools: [defineTool({ name: "now", run: () => new Date().toISOString() })] })
 * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini" })
 * const result = await client.run("What time is it?", { toolkit })
 * ```
 *
 * @module
 */
// The full build's public API: the lean build's (./core/index.ts, over the same module here),
// plus skills, MCP, the built-in tools and translate. `#glue-full` is the full wasm-bindgen
// module, instantiated by the runtime's loader (scripts/bundle-entry.mjs).
import * as module from "#glue-full"
import * as core from "./core/index.js"
import type { Message, Tool, Toolkit } from "./core/index.js"
import { checked, whenInstantiated } from "./core/instance.js"
import { ToolnexusError } from "../js/errors.js"
import { exposedMcpTools as exposedTools, listen, mcpDispatch, McpServer } from "../js/serve.js"
import { handlerOf } from "../js/serve-exchange.js"
import { a2aRoutes } from "../js/a2a-serve.js"
import type {
  Agent, AgentOptions, AgentsConfig, AnthropicMessage, AnthropicTool, AnthropicToolChoice, Answer, BuiltinsConfig, BuiltinToolsOptions, ClientOptions,
  ElicitationParams, ElicitResult, FinishReason, InProcessOptions, ListSkillsOptions, LoadMcpOptions, LoadSkillsOptions,
  McpConfigInput, McpInventory, McpListOptions, McpServerInput, OpenAITool, Request, SkillInventory, McpStatus, ClassOf,
  TranslatedToolCall, TranslateMessage, ToolkitOptions, MemoryFileSystemJSON, ToolnexusDirEntry, TranslateRequest,
  TranslateResult, OpenAIToolCall, SkillInfo, Prompt, RunOptions, RunResult, AskOptions, StreamOptions,
  StreamEvent, ConversationOptions, HandlerOptions, MCPServeConfig, OnCall, ServeHandle, ToolLike,
  A2AConfig,
} from "./types.js"

/** The glue: its functions refuse clearly until the module is instantiated. */
const glue = checked(module)

export * from "./core/index.js"
export type * from "./types.js"
// The full build's options (the lean build's plus skills, MCP and the built-ins' `fs` and `exec`).
export type { ToolkitOptions } from "./types.js"
// The full build's prompt also takes content parts, and its constructors are here.
export type { Prompt } from "./types.js"
export { audio, file, image, part, text } from "./parts.js"
export { IndexedDbFileSystem } from "../js/browser-fs.js"
/**
 * Long-lived agents (SPEC §7D–§7F): {@link agents.compactor} and {@link agents.estimateTokens}
 * (context compaction, as in the lean build), and agent homes: {@link agents.composeSoul},
 * {@link agents.memoryTool} and their constants.
 */
export * as agents from "./agents-full.js"
export { McpServer } from "../js/serve.js"
export { buildAgentCard, FileTaskStore, InMemoryTaskStore, resolveStore } from "../js/a2a-serve.js"
export { IndexedDbTaskStore } from "../js/idb-task-store.js"
export { FileTokenStore, IndexedDbTokenStore } from "../js/token-stores.js"
export type { JSONRPCMessage, McpTransportLike } from "../js/serve.js"

/**
 * An agent client: runs the tool-calling loop against one endpoint.
 *
 * ```js
 * const client = createClient({ baseUrl: "https://api.openai.com/v1", style: "openai", model: "gpt-4o-mini" })
 * const result = await client.run("What is the weather in Paris?", { toolkit })
 * ```
 */
export interface Client extends core.Client {
  /**
   * Runs the loop to its end (see the lean build's {@link core.Client.run}); the prompt may be
   * content parts: `["What is this?", await image(file)]`.
   *
   * ```js
   * const r = await client.run(["Describe this", await image(input.files[0])], { toolkit })
   * ```
   */
  run(prompt: Prompt, ctx: RunOptions): Promise<RunResult>
  /**
   * `run` with memory (see {@link core.Client.ask}); the prompt may be content parts.
   *
   * ```js
   * await client.ask([await image(file)], { toolkit, id: "thread-1" })
   * ```
   */
  ask(prompt: Prompt, ctx: AskOptions): Promise<RunResult>
  /**
   * The run's events as they happen (see {@link core.Client.stream}); the prompt may be
   * content parts.
   *
   * ```js
   * for await (const e of client.stream(["What is this?", shot], { toolkit })) console.log(e.type)
   * ```
   */
  stream(prompt: Prompt, ctx: StreamOptions): AsyncIterableIterator<StreamEvent>
  /**
   * A stateful conversation whose sends may be content parts.
   *
   * ```js
   * const chat = client.conversation({ toolkit })
   * await chat.send(["And this one?", await image(next)])
   * ```
   */
  conversation(ctx: ConversationOptions): Conversation
  /**
   * Translates one OpenAI Chat Completions request (SPEC §11): exactly one provider call,
   * the reply in OpenAI shape (`arguments` as JSON text, `finishReason` `"tool_calls"`
   * whenever the model called a tool). Nothing runs: a `toolkit` is only declared (before
   * `tools`), and nothing is kept between calls. On an `anthropic`-style client the request
   * is translated (tool calls to `tool_use` blocks, consecutive tool results merged into one
   * user turn, system and developer messages hoisted, content arrays flattened); on an
   * `openai`-style one it is sent as it is. Retries, `headers`, `requestParams`,
   * `bodyTransform`, `timeoutMs` and the `llm` metric are the loop's; `beforeLLM` and
   * `afterLLM` fire once, tool hooks never. A request without messages, a tool call whose
   * arguments are not a JSON object, or a `tool` message answering no earlier call rejects
   * with code `"invalid_request"` before anything is sent.
   *
   * ```js
   * const r = await client.translate({ messages: body.messages, tools: body.tools, toolChoice: body.tool_choice })
   * res.json({ choices: [{ message: { role: "assistant", content: r.text, tool_calls: Client.toolCallsJSON(r) }, finish_reason: r.finishReason }] })
   * ```
   */
  translate(request: TranslateRequest): Promise<TranslateResult>
}
/** A conversation that keeps its transcript between sends; a send may be content parts. */
export interface Conversation extends core.Conversation {
  /**
   * Sends the next user turn, text or content parts; resolves to the run's result.
   *
   * ```js
   * await chat.send(["Is this better?", await image(file)])
   * ```
   */
  send(prompt: Prompt): Promise<RunResult>
}
/** The conversation class (made by {@link Client.conversation}); for `instanceof`. */
export const Conversation = core.Conversation as unknown as ClassOf<Conversation>

/** The static members of the {@link Client} class. */
export interface ClientStatics {
  /**
   * A translate result's tool calls as an OpenAI `tool_calls` array (`[{id, type:
   * "function", function: {name, arguments}}]`), for an assistant message of a response.
   *
   * ```js
   * const message = { role: "assistant", content: r.text || null, tool_calls: Client.toolCallsJSON(r) }
   * ```
   */
  toolCallsJSON(result: TranslateResult): OpenAIToolCall[]
}
/** The client class (made by {@link createClient}), with its static `toolCallsJSON`. */
export const Client = glue.Client as unknown as ClassOf<Client> & ClientStatics

/**
 * What {@link loadMcp} resolves to: the servers' tools, their status, and `close()`.
 *
 * ```js
 * const mcp = await loadMcp({ mcpServers: { docs: { url } } })
 * mcp.tools.map((t) => t.name) // ["docs_search"]
 * await mcp.close()
 * ```
 */
export interface McpSource {
  /**
   * Ends every session (a DELETE for remote servers, stopping local ones).
   */
  close(): Promise<void>
  /**
   * `{server: why it failed}` for every failed server.
   */
  readonly errors: Record<string, string>
  /**
   * `{server: "connected" | "disabled" | "failed"}` in config order.
   */
  readonly status: Record<string, McpStatus>
  /**
   * The tools of the connected servers (`<server>_<tool>`), in config order.
   */
  readonly tools: Tool[]
}
/** The MCP source class (made by {@link loadMcp}); for `instanceof`. */
export const McpSource = glue.McpSource as unknown as ClassOf<McpSource>

/**
 * What {@link loadSkills} resolves to: the skills by name, the `skill` tool, and
 * the system-prompt catalog.
 */
export interface SkillSource {
  /**
   * The Markdown catalog for the system prompt (`SKILLS_PROMPT_PREAMBLE` first), or
   * `"No skills are currently available."` when no skill has a description.
   */
  prompt(): string
  /**
   * The skills (after the filter), by name, in discovery order.
   */
  readonly skills: Record<string, SkillInfo>
  /**
   * The `skill` tool: loads one skill's instructions (and sampled files) by name.
   */
  readonly tool: Tool
}
/** The skill source class (made by {@link loadSkills}); for `instanceof`. */
export const SkillSource = glue.SkillSource as unknown as ClassOf<SkillSource>

/**
 * A filesystem in memory: the default of `createToolkit` (one per toolkit), or pass your own
 * as `createToolkit({fs})` to read what the agent wrote and to persist it.
 *
 * ```js
 * const files = new MemoryFileSystem({ "/notes/todo.md": "- buy milk" })
 * const toolkit = await createToolkit({ fs: files })
 * await toolkit.execute("read", { path: "/notes/todo.md" }) // { output: "- buy milk", … }
 * localStorage.setItem("files", JSON.stringify(files))      // toJSON()
 * const restored = MemoryFileSystem.fromJSON(JSON.parse(localStorage.getItem("files")))
 * ```
 */
export interface MemoryFileSystem {
  /**
   * Whether anything is at `path`.
   */
  exists(path: string): boolean
  /**
   * Every file's absolute path, sorted.
   */
  files(): string[]
  /**
   * A directory's entries, sorted by name.
   */
  readDir(path: string): ToolnexusDirEntry[]
  /**
   * A file's text; throws an `Error` with `code` `ENOENT` (missing) or `EISDIR`.
   */
  readFile(path: string): string
  /**
   * Removes a file, or a directory with everything under it.
   */
  remove(path: string): void
  /**
   * `{kind: "file" | "dir"}`, or `null` when nothing is at `path`.
   */
  stat(path: string): { kind: "file" | "dir" } | null
  /**
   * Everything, as plain JSON: `{files: {"/path": "contents"}, dirs: ["/empty-dir"]}`.
   */
  toJSON(): MemoryFileSystemJSON
  /**
   * Creates or replaces a file, creating its parent directories.
   */
  writeFile(path: string, contents: string): void
  /**
   * Where relative paths start.
   */
  readonly cwd: string
}
/** The {@link MemoryFileSystem} class: `new MemoryFileSystem(files?, options?)` and `MemoryFileSystem.fromJSON`. */
export interface MemoryFileSystemClass {
  /**
   * An empty filesystem, or one holding `files` (`{path: contents}` or a saved
   * `{files, dirs}`); `options.cwd` (default `/`) is where relative paths start.
   */
  new (files?: Record<string, string> | MemoryFileSystemJSON, options?: { cwd?: string }): MemoryFileSystem
  /**
   * A filesystem restored from what `toJSON()` gave.
   *
   * ```js
   * const copy = MemoryFileSystem.fromJSON(files.toJSON())
   * ```
   */
  fromJSON(saved: MemoryFileSystemJSON): MemoryFileSystem
  readonly prototype: MemoryFileSystem
}
/** The in-memory filesystem class: `new MemoryFileSystem(files?, {cwd?})`, `MemoryFileSystem.fromJSON(saved)`. */
export const MemoryFileSystem = glue.MemoryFileSystem as unknown as MemoryFileSystemClass

/**
 * Assembles a toolkit (SPEC §4): extra tools, skills, MCP servers and the built-in tools.
 * Invalid options reject with a {@link core.ToolnexusError} whose `code` says what kind of
 * problem it is. `signal` bounds the loading: an already-aborted signal rejects at once, one
 * that fires stops the load and the servers it started.
 *
 * ```js
 * const toolkit = await createToolkit({ extraTools: [weather], mcpConfig: { mcpServers: { docs: { url } } } })
 * ```
 */
export function createToolkit(options?: ToolkitOptions): Promise<Toolkit> {
  return core.createToolkit(options)
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
  return core.createClient(options) as Client
}

/**
 * A client whose model runs in this process (see the lean build's {@link core.createInProcessClient}).
 *
 * ```js
 * const client = createInProcessClient({ model: "scripted", generate: async ({ messages }) => ({ content: "Hello!" }) })
 * ```
 */
export function createInProcessClient(options: InProcessOptions): Client {
  return core.createInProcessClient(options) as Client
}

/**
 * The MCP `ElicitResult` for an `Answer`: `ok` accepts with `data` (or `{}`) as content, a
 * `"declined"` reason declines, anything else cancels.
 *
 * ```js
 * answerToElicitResult({ id: "1", ok: true, data: { name: "Ada" } }) // { action: "accept", content: { name: "Ada" } }
 * ```
 */
export function answerToElicitResult(answer: Answer): ElicitResult {
  return glue.answerToElicitResult(answer)
}

/**
 * Tool-call arguments as an object, from either wire form: an object as it is (a copy), JSON
 * text parsed; anything else, malformed text included, `{}`.
 *
 * ```js
 * argsObject('{"city":"Chennai"}') // { city: "Chennai" }
 * ```
 */
export function argsObject(args: unknown): Record<string, unknown> {
  return glue.argsObject(args)
}

/**
 * Tool-call arguments as the JSON text OpenAI sends: a string as it is, an object
 * `JSON.stringify`'d, anything else `"{}"`.
 *
 * ```js
 * argsString({ city: "Madurai" }) // '{"city":"Madurai"}'
 * ```
 */
export function argsString(args: unknown): string {
  return glue.argsString(args)
}

/**
 * Whether a `builtins` config leaves the built-in source on: absent is on, a boolean is
 * itself, and in an object `disabled: true` wins over everything, then `enabled: false`.
 *
 * ```js
 * builtinsEnabled({ enabled: true, disabled: true }) // false
 * ```
 */
export function builtinsEnabled(config?: BuiltinsConfig): boolean {
  return glue.builtinsEnabled(config)
}

/**
 * An OpenAI `content` as text: a string as it is, a parts array as its parts' `text` joined,
 * anything else `""`.
 *
 * ```js
 * contentText([{ type: "text", text: "part one " }, { type: "text", text: "part two" }]) // "part one part two"
 * ```
 */
export function contentText(content: unknown): string {
  return glue.contentText(content)
}

/**
 * The built-in tools (SPEC §4A) as `Tool`s, without a toolkit: `read`, `write`, `edit`,
 * `grep`, `glob`, `apply_patch`, `webfetch`, `todowrite`, `question`, and `bash` where the
 * runtime can run processes. `options` takes the `fs` and `exec` of `createToolkit`; bad ones
 * throw `invalid_options` (or `unsupported`).
 *
 * ```js
 * const read = createBuiltinTools().find((t) => t.name === "read")
 * await read.execute({ path: "README.md" })
 * ```
 */
export function createBuiltinTools(options?: BuiltinToolsOptions): Tool[] {
  return glue.createBuiltinTools(options) as Tool[]
}

/**
 * The `Request` an MCP `elicitation/create` becomes (the bridge onto `waitFor`): form mode is
 * `kind: "input"` with `data: {schema}`, URL mode `kind: "authorization"` with `url`.
 *
 * ```js
 * elicitationToRequest({ message: "Your name?", requestedSchema: schema })
 * // { id: "elc-…", kind: "input", prompt: "Your name?", data: { schema } }
 * ```
 */
export function elicitationToRequest(params: ElicitationParams): Request {
  return glue.elicitationToRequest(params)
}

/**
 * Expands `${NAME}` in each header value from the runtime's environment (`process.env`,
 * `Deno.env`), or from `env` when given; an unset name becomes the empty string. `undefined`
 * stays `undefined`. The values are never logged; a header that is not a string throws
 * `invalid_options` naming the header, never its value.
 *
 * ```js
 * expandEnvHeaders({ Authorization: "Bearer ${API_TOKEN}" }) // { Authorization: "Bearer s3cret" }
 * ```
 */
export function expandEnvHeaders(headers?: Record<string, string>, env?: Record<string, string>): Record<string, string> | undefined {
  return glue.expandEnvHeaders(headers, env)
}

/**
 * Whether a message list holds a `system` or `developer` message.
 *
 * ```js
 * hasSystemMessage([{ role: "developer", content: "Be terse." }]) // true
 * ```
 */
export function hasSystemMessage(messages: TranslateMessage[]): boolean {
  return glue.hasSystemMessage(messages)
}

/**
 * Connects to every enabled server, lists its tools (unfiltered, under their own names) and
 * disconnects. Never rejects for a server's sake: a server that fails is `"failed"` in
 * `status`, with its reason in `errors`. With `signal`, an already-aborted signal rejects at
 * once and one that fires stops the listing (code `"aborted"`; started servers are stopped).
 *
 * ```js
 * const { tools, status, errors } = await listMcpTools({ mcpServers: { docs: { url } } })
 * tools.docs.map((t) => t.name) // ["search", "fetch"]
 * ```
 */
export function listMcpTools(input: string | McpConfigInput, options?: McpListOptions): Promise<McpInventory> {
  return glue.listMcpTools(input, options)
}

/**
 * Lists the skills of the given sources without building a toolkit: every valid skill
 * (unfiltered) and every skipped candidate with its typed reason (`missing-name`,
 * `malformed-frontmatter`, `duplicate-name`, `unreadable`). A string or an array of strings
 * is a list of skill directories.
 *
 * ```js
 * import { listSkills } from "toolnexus-wasm"
 * const { skills, skipped } = await listSkills({ dirs: ["./skills"], skills: [{ name: "pdf", content: "…" }] })
 * skipped // [{ location: "/app/skills/broken/SKILL.md", reason: "malformed-frontmatter" }]
 * ```
 */
export function listSkills(input: string | string[] | ListSkillsOptions): Promise<SkillInventory> {
  return glue.listSkills(input)
}

/**
 * Connects to every enabled server of an MCP config and makes each listed tool a `Tool`
 * (what `createToolkit({mcpConfig})` does, without a toolkit). A server that fails is
 * isolated (`"failed"` in `status`, a console warning); the load rejects only for a config
 * that cannot be read (`invalid_config`) or when `signal` fires (`aborted`, the servers it
 * started are stopped). `waitFor` answers servers' elicitations; `env` replaces the runtime's
 * environment for `${NAME}` in headers.
 *
 * ```js
 * const mcp = await loadMcp("./mcp.json", { signal: AbortSignal.timeout(10_000) })
 * const toolkit = await createToolkit({ extraTools: mcp.tools })
 * ```
 */
export function loadMcp(input: string | McpConfigInput, options?: LoadMcpOptions): Promise<McpSource> {
  return glue.loadMcp(input, options) as unknown as Promise<McpSource>
}

/**
 * Discovers skills (directories and/or data) and builds the `skill` tool, without a toolkit.
 * `filter` is the allowlist of `createToolkit`'s `skillsFilter`, `sampleLimit` its
 * `skillSampleLimit`. Directories are read asynchronously, so this resolves a Promise (the
 * reference port's `loadSkills` returns the source itself).
 *
 * ```js
 * const source = await loadSkills({ skills: [{ name: "pdf", description: "PDF work", content: "…" }] })
 * source.prompt() // "Skills provide specialized instructions…\n\n## Available Skills\n- **pdf**: PDF work"
 * await source.tool.execute({ name: "pdf" })
 * ```
 */
export function loadSkills(input: string | string[] | LoadSkillsOptions): Promise<SkillSource> {
  return glue.loadSkills(input) as unknown as Promise<SkillSource>
}

/**
 * Converts an OpenAI `messages` array for Anthropic (SPEC §11): assistant `tool_calls` become
 * `tool_use` blocks (arguments parsed into objects), `tool` results `tool_result` blocks,
 * consecutive ones merged into one user turn; `system` and `developer` messages are hoisted
 * into `system` (joined by a blank line); content arrays are flattened to text.
 *
 * ```js
 * const { messages, system } = openAIMessagesToAnthropic([{ role: "system", content: "Be terse." }, { role: "user", content: "hi" }])
 * // system === "Be terse.", messages: [{ role: "user", content: "hi" }]
 * ```
 */
export function openAIMessagesToAnthropic(messages: TranslateMessage[]): { messages: AnthropicMessage[]; system: string } {
  return glue.openAIMessagesToAnthropic(messages)
}

/**
 * Maps an OpenAI `tool_choice` onto Anthropic's: `"required"` → `{type: "any"}`, `"none"` →
 * `{type: "none"}`, `{function: {name}}` → `{type: "tool", name}`; `undefined` for `"auto"`,
 * absence and anything unrecognised.
 *
 * ```js
 * openAIToolChoiceToAnthropic("required") // { type: "any" }
 * ```
 */
export function openAIToolChoiceToAnthropic(choice: unknown): AnthropicToolChoice | undefined {
  return glue.openAIToolChoiceToAnthropic(choice)
}

/**
 * Converts an OpenAI `tools` array into Anthropic declarations `{name, description?,
 * input_schema}`; an entry already in Anthropic's shape is kept, anything else skipped.
 *
 * ```js
 * openAIToolsToAnthropic([{ type: "function", function: { name: "f", parameters: schema } }]) // [{ name: "f", input_schema: schema }]
 * ```
 */
export function openAIToolsToAnthropic(tools: (OpenAITool | AnthropicTool)[] | undefined): AnthropicTool[] {
  return glue.openAIToolsToAnthropic(tools)
}

/**
 * Describes a remote A2A agent (SPEC §7A) for `createToolkit({agents})`, `toolkit.addAgent` and
 * {@link agentTools}: its Agent Card URL, with optional `headers` (`${ENV_VAR}` expands at call
 * time, never logged or shown), `timeout` (ms, default 300000) and `pollEvery` (ms, default
 * 1000). Each skill of the card becomes a tool `sanitize(card.name)_sanitize(skill)`, source
 * `"a2a"`, input `{task}`: a call sends `SendMessage`, then polls `GetTask` until the task ends.
 * Nothing is fetched here.
 *
 * ```js
 * const toolkit = await createToolkit({
 *   agents: [agent({ card: "http://127.0.0.1:8000/.well-known/agent-card.json", headers: { Authorization: "Bearer ${TOKEN}" } })],
 * })
 * await toolkit.execute("reviewer_review", { task: "Review this diff: …" })
 * ```
 */
export function agent(options: Agent): Agent {
  const { card, headers, timeout, pollEvery, env } = options ?? ({} as Agent)
  return { card, headers, timeout, pollEvery, ...(env === undefined ? {} : { env }) }
}

/**
 * Reads a config's `agents` block (`{"<id>": {card, headers?, timeout?, pollEvery?, enabled?,
 * disabled?}}`) into {@link Agent} descriptors, skipping disabled entries (`disabled: true`
 * wins, then `enabled: false`) and entries without a string `card`. The key is only an
 * identifier: a tool's prefix comes from the fetched card's `name`. A block that is not an
 * object, or a mistyped `headers` / `timeout` / `pollEvery`, throws `invalid_config`.
 *
 * ```js
 * parseAgentsConfig({ rev: { card: "http://127.0.0.1:8000/.well-known/agent-card.json" }, off: { card: "http://x", disabled: true } })
 * // [{ card: "http://127.0.0.1:8000/.well-known/agent-card.json", timeout: 300000, pollEvery: 1000 }]
 * ```
 */
export function parseAgentsConfig(block: AgentsConfig | undefined): Agent[] {
  return glue.parseAgentsConfig(block)
}

/**
 * Fetches an A2A agent's card and makes one tool per skill (source `"a2a"`, named
 * `sanitize(card.name)_sanitize(skill)`), without a toolkit. Rejects when the card cannot be
 * had: `network` (in a browser also a refused CORS preflight: the message names the headers the
 * agent must allow), `http_status`, `timeout`, `bad_response`.
 *
 * ```js
 * const tools = await agentTools(agent({ card: "http://127.0.0.1:8000/.well-known/agent-card.json" }))
 * tools.map((t) => t.name) // ["reviewer_review", "reviewer_plan"]
 * ```
 */
export function agentTools(agentOrCardUrl: Agent | string, options?: AgentOptions): Promise<Tool[]> {
  return glue.agentTools(agentOrCardUrl, options) as unknown as Promise<Tool[]>
}

/**
 * Reads an MCP config: the server map under `mcpServers`, `servers` or `mcp` (or the object
 * itself, minus `builtins`, `agents`, `a2a` and `mcpServer`), each server entry as given (as
 * the reference port returns it: nothing added, header values unexpanded). In Node and Deno
 * `input` may be a file path. Every entry is checked as a toolkit would read it: a config or
 * a server entry that cannot be used throws (`code: "invalid_config"`).
 *
 * ```js
 * parseMcpConfig({ mcpServers: { docs: { url: "https://example.com/mcp" } } })
 * // { docs: { url: "https://example.com/mcp" } }
 * ```
 */
export function parseMcpConfig(input: string | McpConfigInput): Record<string, McpServerInput> {
  return glue.parseMcpConfig(input)
}

/**
 * The `tool_calls` of an OpenAI assistant message as `{id, name, arguments}` (arguments as
 * JSON text); an entry without `function` is skipped.
 *
 * ```js
 * toolCallsOf({ role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] })
 * // [{ id: "c1", name: "f", arguments: "{}" }]
 * ```
 */
export function toolCallsOf(message: unknown): TranslatedToolCall[] {
  return glue.toolCallsOf(message)
}

/**
 * The OpenAI finish reason of a turn: `"tool_calls"` whenever it called a tool; else
 * `max_tokens` / `length` → `"length"`, `refusal` / `content_filter` → `"content_filter"`,
 * anything else `"stop"`.
 *
 * ```js
 * finishReasonFor(false, "max_tokens") // "length"
 * ```
 */
export function finishReasonFor(hasToolCalls: boolean, providerStop?: string): FinishReason {
  return glue.finishReasonFor(hasToolCalls, providerStop)
}

/** The preamble `skillsPrompt()` starts with when a skill has a description (byte for byte the reference port's). */
export let SKILLS_PROMPT_PREAMBLE = ""
/** The `skill` tool's description (byte for byte the reference port's). */
export let SKILL_TOOL_DESCRIPTION = ""
// The module's own texts, read once it is instantiated.
whenInstantiated(() => {
  ;[SKILLS_PROMPT_PREAMBLE, SKILL_TOOL_DESCRIPTION] = glue.__skillTexts()
})

/**
 * The tools an MCP profile exposes: all of `tools`, or those named in `config.tools` (in
 * `tools`' order; unknown names are ignored, never an error).
 *
 * ```js
 * exposedMcpTools(toolkit.tools(), { tools: ["echo", "nope"] }).map((t) => t.name) // ["echo"]
 * ```
 */
export function exposedMcpTools<T extends Pick<Tool, "name">>(tools: T[], config?: MCPServeConfig): T[] {
  return exposedTools(tools, config)
}

/**
 * An MCP server exposing `tools` (SPEC §7C): `tools/list` gives each tool's name, description
 * and input schema verbatim, `tools/call` runs it (arguments checked against its schema, the
 * request's cancellation reaching `ctx.signal`) and answers its output as one text block,
 * `isError` as the tool said (a throw, or a suspension whose prompt is the text, is an error
 * result); an unknown tool is JSON-RPC `-32602`. `config` names the server (`name`, default
 * `"toolnexus"`; `version`, default `"0.1.0"`); filter the tools with {@link exposedMcpTools}.
 * `onCall` hears `{name, source, ms, isError}` after each call. Serve it over HTTP
 * (`server.handle`) or any MCP SDK transport (`server.connect`).
 *
 * ```js
 * const server = buildMcpServer(toolkit.tools(), { name: "gateway" }, (e) => console.log(e.name, e.ms))
 * Deno.serve((request) => server.handle(request))
 * ```
 */
export function buildMcpServer(tools: ToolLike[], config?: MCPServeConfig, onCall?: OnCall): McpServer {
  checkOnCall(onCall, "buildMcpServer")
  return new McpServer(glue.buildMcpServerCore(tools, config), onCall)
}

function checkOnCall(onCall: unknown, what: string): void {
  if (onCall !== undefined && typeof onCall !== "function") {
    throw new ToolnexusError("invalid_options", `${what}: onCall must be a function, got ${onCall === null ? "null" : typeof onCall}`)
  }
}

// The full build's `handler` and `serve` (the lean build's refuse; see ./core/index.ts).
const servingProto = glue.Toolkit.prototype as module.Toolkit & Pick<Toolkit, "handler" | "serve">
servingProto.handler = function handler(this: module.Toolkit, options?: HandlerOptions) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new ToolnexusError("invalid_options", `handler: options must be an object, got ${options === null ? "null" : typeof options}`)
  }
  checkOnCall(options?.onCall, "handler")
  // One dispatch over request views (src/js/serve-exchange.js): the WHATWG handler wraps it,
  // `serve` on node:http calls it directly (src/js/serve-node.js).
  const mcp = mcpDispatch(this.__mcpServer(options?.mcp), options?.onCall)
  const a2a = a2aProfile(this, options)
  return handlerOf(a2a === undefined ? mcp : (view) => a2a(view) ?? mcp(view))
}
/** The A2A routes of `handler` (its `a2a`, else the config's `a2a` block); `undefined` when off. */
function a2aProfile(toolkit: module.Toolkit, options: HandlerOptions | undefined) {
  const config = (options?.a2a ?? toolkit.__a2aConfig()) as A2AConfig | undefined
  if (config === undefined || config === null) return undefined
  if (typeof config !== "object") throw new ToolnexusError("invalid_options", `handler: a2a must be an object, got ${typeof config}`)
  const client = options?.client as Client | undefined
  if (typeof client?.run !== "function") {
    throw new ToolnexusError("invalid_options", "handler: the a2a profile runs each task on options.client (a client from createClient); none was given")
  }
  if (options?.onTask !== undefined && typeof options.onTask !== "function") {
    throw new ToolnexusError("invalid_options", `handler: onTask must be a function, got ${options.onTask === null ? "null" : typeof options.onTask}`)
  }
  const kit = toolkit as unknown as Toolkit
  const run = (text: string, contextId: string | undefined) =>
    contextId === undefined ? client.run(text, { toolkit: kit }) : client.ask(text, { toolkit: kit, id: contextId })
  // A suspended task's answer: the halted run's transcript is saved with the task, or, for a
  // task with a context, in the client's conversation store.
  const resume = (suspended: { pending: Request; messages?: unknown[] }, answer: Answer, contextId: string | undefined) =>
    contextId === undefined
      ? client.runWithAnswer({ toolkit: kit, history: (suspended.messages ?? []) as Message[], pending: suspended.pending, answer })
      : client.askWithAnswer({ toolkit: kit, id: contextId, pending: suspended.pending, answer })
  return a2aRoutes({ config, skills: () => toolkit.__skillCards(), run, resume, onTask: options?.onTask })
}
servingProto.serve = async function serve(this: module.Toolkit & Pick<Toolkit, "handler">, addr: string, options?: HandlerOptions): Promise<ServeHandle> {
  return listen(this.handler(options), addr)
}
