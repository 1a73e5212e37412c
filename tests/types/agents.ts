// Type tests of the `agents` namespace (SPEC §7F): compactor's options and hook, estimateTokens.
import { agents, createClient, createInProcessClient, type Hooks, type Message } from "toolnexus-wasm"
import * as lean from "toolnexus-wasm/core"

const transcript: Message[] = [{ role: "system", content: "soul" }, { role: "user", content: "hi" }]
const n: number = agents.estimateTokens(transcript)

const hook: agents.CompactorHook = agents.compactor({
  maxTokens: 120_000,
  keepTail: 4_000,
  summarize: async (older) => `summarized ${older.length} messages`,
  countTokens: (messages) => messages.length,
  flushToMemory: true,
})
// The hook is a hooks object and a beforeLLM function.
const asHooks: Hooks = hook
const asBeforeLLM: Hooks = { beforeLLM: hook }
const same: agents.CompactorHook = hook.beforeLLM
createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m", hooks: hook })
createInProcessClient({ model: "m", generate: () => ({ content: "x" }), hooks: { beforeLLM: agents.compactor({ maxTokens: 10, summarize: () => "s" }) } })

async function direct(): Promise<Message[] | undefined> {
  const event: agents.BeforeLLMEvent = { messages: transcript, tools: [], model: "m", turn: 0 }
  const out = await hook(event)
  return out?.messages
}

// @ts-expect-error summarize is required
agents.compactor({ maxTokens: 10 })
// @ts-expect-error maxTokens is a number
agents.compactor({ maxTokens: "10", summarize: () => "s" })
// @ts-expect-error summarize returns a string
agents.compactor({ maxTokens: 10, summarize: () => 3 })

const options: lean.agents.CompactorOptions = { maxTokens: 1, summarize: () => "s" }
const leanHook: lean.agents.CompactorHook = lean.agents.compactor(options)

export { n, asHooks, asBeforeLLM, same, direct, leanHook }

// Agent homes (SPEC §7E), full build only.
async function homes(fs: import("toolnexus-wasm").IndexedDbFileSystem) {
  const composed: agents.ComposedSoul = await agents.composeSoul("/personas/ava", { fs })
  const soul: string = composed.soul
  const first: "AGENTS.md" = agents.BOOTSTRAP_ORDER[0]
  const memory: import("toolnexus-wasm").Tool = agents.memoryTool("/personas/ava", { fs: "node" })
  const options: agents.HomeOptions = { fs: "memory" }
  // @ts-expect-error: fs is a filesystem or its name
  void agents.memoryTool("/a", { fs: 42 })
  // @ts-expect-error: the lean build has no homes
  void lean.agents.composeSoul
  void [soul, first, memory, options, agents.HEARTBEAT_PROMPT.length, agents.MAX_FILE_BYTES + 1]
}
void homes

// The harness and the completion gate.
async function harnessed(toolkit: import("toolnexus-wasm").Toolkit) {
  const spec = agents.harness({
    does: "writes the report",
    soul: "You write reports.",
    guardrails: [({ name }) => (name === "bash" ? "no shell" : "allow")],
    completion: { verify: agents.allTodosDone, maxAttempts: 3 },
  })
  const loop = new agents.Loop({ name: "writer", spec }, { baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m" }, toolkit)
  const out: agents.Outcome = await loop.run("Draft it", { model: "other" })
  const status: "done" | "incomplete" | "pending" | "error" = out.status
  const hooks: import("toolnexus-wasm").Hooks | undefined = agents.guardedHooks(spec.guardrails, undefined)
  const verdict: agents.Verdict = agents.allTodosDone(out.result!)
  // @ts-expect-error: maxAttempts is required
  const bad: agents.Completion = { verify: agents.allTodosDone }
  void [status, hooks, verdict, bad, loop.turns]
}
void harnessed
