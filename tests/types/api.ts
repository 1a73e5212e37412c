// Type tests: compiled by `tsc --noEmit --strict`; a wrong public type fails the build.
import {
  createToolkit,
  defineTool,
  pending,
  pendingOf,
  authRequired,
  sanitize,
  toOpenAI,
  toAnthropic,
  toGemini,
  type Answer,
  type Request,
  type ToolResult,
  type ToolLike,
  type Toolkit,
  type OpenAITool,
  type AnthropicTool,
  type GeminiTools,
} from "toolnexus-wasm"

const tool = defineTool({
  name: "t",
  description: "d",
  inputSchema: { type: "object", properties: { a: { type: "string" } } },
  run: async (args, ctx) => {
    const a: unknown = args.a
    const signal: AbortSignal | undefined = ctx.signal
    const answer: Answer | undefined = ctx.answer
    return `${String(a)} ${signal?.aborted} ${answer?.ok}`
  },
})
const name: string = tool.name
const source: string = tool.source

const plain: ToolLike = {
  name: "plain",
  description: "a reference-shaped tool",
  inputSchema: { type: "object" },
  source: "custom",
  execute: async () => ({ output: "ok", isError: false }),
}

async function main(): Promise<void> {
  const toolkit: Toolkit = await createToolkit({ extraTools: [tool, plain], builtins: { tools: { bash: false } } })
  await createToolkit()
  const same: Toolkit = toolkit.register(plain, tool)
  const result: ToolResult = await same.execute("t", { a: "x" }, { timeout: 1000, signal: AbortSignal.timeout(5) })
  await toolkit.execute("t")
  const req: Request | undefined = pendingOf(result)
  const oa: OpenAITool[] = toolkit.toOpenAI()
  const an: AnthropicTool[] = toolkit.toAnthropic()
  const ge: GeminiTools = toolkit.toGemini()
  const fromList: OpenAITool[] = toOpenAI([tool, plain])
  toAnthropic([plain])
  toGemini([])
  const p: ToolResult = pending({ kind: "approval", prompt: "ok?" })
  const auth: ToolResult = authRequired("https://example.com/login")
  const clean: string = sanitize("a b")
  const status: Record<string, "connected" | "disabled" | "failed" | "pending"> = toolkit.mcpStatus()
  await toolkit.close()
  console.log(name, source, req, oa, an, ge, fromList, p, auth, clean, status)
}

// @ts-expect-error run is required
defineTool({ name: "x", description: "" })
// @ts-expect-error kind and prompt are required
pending({ url: "x" })

void main

// The client API.
import {
  createClient,
  createInProcessClient,
  InMemoryConversationStore,
  type RunResult,
  type ConversationStore,
  type Client,
} from "toolnexus-wasm"

async function clients(toolkit: Toolkit): Promise<void> {
  const client: Client = createClient({
    baseUrl: "http://127.0.0.1:1/v1",
    style: "openai",
    model: "m",
    apiKey: "k",
    headers: { "x-extra": "1" },
    systemPrompt: "Be brief.",
    maxTurns: 3,
    hooks: {
      beforeLLM: ({ messages }) => ({ messages }),
      beforeTool: async ({ name }) => (name === "x" ? { result: { output: "no", isError: true } } : undefined),
    },
    waitFor: async (request: Request): Promise<Answer> => ({ id: request.id, ok: true }),
    requestParams: { temperature: 0 },
    bodyTransform: (body) => body,
    store: new InMemoryConversationStore(),
  })
  const r: RunResult = await client.run("hi", { toolkit, signal: new AbortController().signal })
  const status: "done" | "pending" | "incomplete" = r.status
  const pendingRequest: Request | undefined = r.pending
  await client.ask("hi", { toolkit, id: "t" })
  const chat = client.conversation({ toolkit })
  await chat.send("hello")
  chat.reset()
  const store: ConversationStore = client.conversationStore()
  const inProcess = createInProcessClient({ model: "m", generate: async () => ({ content: "ok" }) })
  await inProcess.run("x", { toolkit, history: r.messages })
  // @ts-expect-error style must be openai or anthropic
  createClient({ baseUrl: "u", style: "gemini", model: "m" })
  console.log(status, pendingRequest, store)
}
void clients

// Streaming, resilience and observability.
import type { StreamEvent, MetricEvent, ErrorInfo } from "toolnexus-wasm"

async function streaming(client: Client, toolkit: Toolkit): Promise<void> {
  for await (const event of client.stream("hi", { toolkit, id: "t", signal: AbortSignal.timeout(1000) })) {
    const e: StreamEvent = event
    if (e.type === "text") console.log(e.delta.length)
    else if (e.type === "pending") console.log(e.request.prompt)
    else if (e.type === "done") console.log(e.result.status)
  }
  let text = ""
  await client.ask("hi", { toolkit, on_text: (delta: string) => (text += delta) })
  const resilient = createClient({
    baseUrl: "http://127.0.0.1:1/v1",
    style: "anthropic",
    model: "m",
    retries: 3,
    retryBaseMs: 100,
    timeoutMs: 30_000,
    onMetric: (event: MetricEvent) => console.log(event.event === "tool" ? event.pending : event.ms),
    onError: (info: ErrorInfo) => (info.status === 429 ? "retry" : "fail"),
    anthropicBrowserAccess: true,
  })
  const text2: string = resilient.metrics()
  console.log(text, text2)
}
void streaming

// MCP: config input and output, the inventory, toolkit options and status.
import { parseMcpConfig, listMcpTools } from "toolnexus-wasm"
import type { McpConfigInput, McpServerInput, McpInventory, McpToolInfo, McpStatus, TokenStore, McpAuthConfig } from "toolnexus-wasm"

async function mcp(): Promise<void> {
  const config: McpConfigInput = {
    mcpServers: {
      docs: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" }, timeout: 5000, tools: { search: true } },
      fs: { command: ["npx", "server-fs"], environment: { A: "1" }, cwd: "/tmp", enabled: false },
      claude: { command: "npx", args: ["-y", "x"], env: { B: "2" } },
    },
    builtins: false,
  }
  const parsed: Record<string, McpServerInput> = parseMcpConfig(config)
  const fromFile: Record<string, McpServerInput> = parseMcpConfig("./mcp.json")
  const first = parsed.docs
  if (first && "url" in first) console.log(first.url, first.timeout)
  else if (first) console.log(first.command)
  const inventory: McpInventory = await listMcpTools(config, { env: { TOKEN: "t" }, signal: AbortSignal.timeout(5000) })
  const infos: McpToolInfo[] = inventory.tools.docs ?? []
  const states: Record<string, McpStatus> = inventory.status
  const why: Record<string, string> = inventory.errors
  const toolkit = await createToolkit({
    mcpConfig: config,
    env: { TOKEN: "t" },
    waitFor: (request: Request) => ({ id: request.id, ok: request.kind === "input", data: { name: "Ada" } }),
    disableTools: ["docs_delete"],
  })
  await createToolkit({ mcpConfig: "./mcp.json" })
  const errors: Record<string, string> = toolkit.mcpErrors()
  // OAuth: the entry's auth block, a token store, the pending sign-ins and their resume.
  const store: TokenStore = { get: () => undefined, set: async () => {}, delete: () => {} }
  const authBlock: McpAuthConfig = { redirectUrl: "https://app.example/cb", scope: "read" }
  const secured = await createToolkit({
    mcpConfig: { mcpServers: { notes: { url: "https://notes.example/mcp", auth: { redirectUrl: "https://app.example/cb", clientId: "c", tokenEndpointAuthMethod: "none" } } } },
    tokenStore: store,
  })
  const signIns: Request[] = secured.mcpPending()
  const resumed: McpStatus = await secured.mcpResume({ id: signIns[0]?.id ?? "", ok: true, data: { url: "https://app.example/cb?code=x&state=y" } })
  // @ts-expect-error an unknown token endpoint auth method
  await createToolkit({ mcpConfig: { mcpServers: { n: { url: "u", auth: { tokenEndpointAuthMethod: "magic" } } } } })
  console.log(resumed, authBlock)
  await toolkit.close()
  console.log(fromFile, infos, states, why, errors)
}
void mcp

// @ts-expect-error a remote server needs a url string
parseMcpConfig({ mcpServers: { bad: { url: 5 } } })

// The browser stores (plain JavaScript, stores.js): conversation stores that keep halted runs.
import {
  IndexedDbConversationStore,
  WebStorageConversationStore,
  type PendingStore,
  type StorageLike,
} from "toolnexus-wasm"

async function stores(result: RunResult): Promise<void> {
  const memory = new Map<string, string>()
  const like: StorageLike = {
    getItem: (key) => memory.get(key) ?? null,
    setItem: (key, value) => void memory.set(key, value),
    removeItem: (key) => void memory.delete(key),
  }
  const kept: PendingStore[] = [new IndexedDbConversationStore(), new IndexedDbConversationStore("db", "store"),
    new WebStorageConversationStore(), new WebStorageConversationStore("session", "app:"), new WebStorageConversationStore(like)]
  for (const store of kept) {
    await store.savePending("k", result)
    const back: RunResult | undefined = await store.loadPending("k")
    const messages = await store.get("t")
    createClient({ baseUrl: "u", style: "openai", model: "m", store })
    console.log(back, messages)
  }
  // @ts-expect-error storage is a Storage-like object, "local" or "session"
  new WebStorageConversationStore("disk")
}
void stores

// Messages are the two styles' message unions; hooks see typed tool specs and responses.
import type { Hooks, Message, OpenAIMessage, AnthropicMessage } from "toolnexus-wasm"
const typedHooks: Hooks = {
  beforeLLM({ messages, tools }) {
    const names: string[] = tools.map((t) => ("function" in t ? t.function.name : t.name))
    const roles: string[] = messages.map((m) => m.role)
    return { messages: messages.slice(-10), tools: tools.filter((_, i) => names[i] !== roles[0]) }
  },
  afterLLM({ response }) {
    if ("choices" in response) {
      const call: string | undefined = response.choices[0]?.message.tool_calls?.[0]?.function.arguments
      void call
    } else {
      const first = response.content[0]
      if (first?.type === "tool_use") {
        const input: Record<string, unknown> = first.input
        void input
      }
    }
  },
}
void typedHooks
const toolReply: OpenAIMessage = { role: "tool", tool_call_id: "c1", content: "42" }
const blocks: AnthropicMessage = { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "42" }] }
const either: Message[] = [toolReply, blocks, { role: "user", content: "hi" }]
void either
// @ts-expect-error a message's role is one the styles know
const robot: Message = { role: "robot", content: "beep" }
// @ts-expect-error an OpenAI tool message needs its tool_call_id
const orphan: OpenAIMessage = { role: "tool", content: "42" }
void robot, orphan

// The reference port's helpers (SPEC §2, §3, §4A, §6, §10).
import {
  loadMcp, loadSkills, createBuiltinTools, builtinsEnabled, expandEnvHeaders, elicitationToRequest,
  answerToElicitResult, SKILLS_PROMPT_PREAMBLE, SKILL_TOOL_DESCRIPTION, tool as toolDecorator, collectTools,
} from "toolnexus-wasm"
import type { McpSource, SkillSource, SkillInfo, ElicitResult, LoadSkillsOptions, LoadMcpOptions, Tool } from "toolnexus-wasm"

async function reference(): Promise<void> {
  const controller = new AbortController()
  const mcpOptions: LoadMcpOptions = { signal: controller.signal, waitFor: (r: Request) => ({ id: r.id, ok: true }) }
  const mcp: McpSource = await loadMcp({ mcpServers: {} }, mcpOptions)
  const mcpTools: Tool[] = mcp.tools
  const mcpStatus: Record<string, McpStatus> = mcp.status
  await mcp.close()
  const skillOptions: LoadSkillsOptions = { skills: [{ name: "a", description: "d", content: "c" }], filter: { a: true }, sampleLimit: -1 }
  const source: SkillSource = await loadSkills(skillOptions)
  const fromDir: SkillSource = await loadSkills("./skills")
  const info: SkillInfo | undefined = source.skills.a
  const prompt: string = source.prompt()
  const loaded = await source.tool.execute({ name: "a" })
  const builtins: Tool[] = createBuiltinTools({ fs: "memory" })
  const on: boolean = builtinsEnabled({ disabled: true }) && builtinsEnabled(undefined) && builtinsEnabled(false)
  const headers: Record<string, string> | undefined = expandEnvHeaders({ A: "${X}" }, { X: "1" })
  const request: Request = elicitationToRequest({ message: "Name?", requestedSchema: { type: "object" } })
  const result: ElicitResult = answerToElicitResult({ id: request.id, ok: false, reason: "declined" })
  const texts: string = SKILLS_PROMPT_PREAMBLE + SKILL_TOOL_DESCRIPTION
  const shout = toolDecorator("Upper-cases text", { name: "shout" })(function shout(args: { text?: string }) {
    return String(args.text).toUpperCase()
  })
  class Maths {
    @toolDecorator("Adds a and b")
    add(args: { a: number; b: number }): string {
      return String(args.a + args.b)
    }
  }
  const collected: Tool[] = [...collectTools(new Maths()), ...collectTools({ shout })]
  await createToolkit({ extraTools: collected, signal: controller.signal })
  console.log(mcpTools, mcpStatus, fromDir, info, prompt, loaded, builtins, on, headers, result, texts)
}
void reference
