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
  const status: Record<string, "connected" | "disabled" | "failed"> = toolkit.mcpStatus()
  await toolkit.close()
  console.log(name, source, req, oa, an, ge, fromList, p, auth, clean, status)
}

// @ts-expect-error run is required
defineTool({ name: "x", description: "" })
// @ts-expect-error kind and prompt are required
pending({ url: "x" })

void main
