// Type tests of the `agents` namespace (SPEC §7F): compactor's options and hook, estimateTokens.
import { agents, createClient, createInProcessClient, type Hooks, type Message, type MessageMetadata, type MetricEvent } from "toolnexus-wasm"
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

// A summary's metadata, and one onMetric sink for the client and the compactor.
function marker(m: Message): string | undefined {
  const compacted: agents.CompactedMetadata | undefined = m.metadata?.compacted
  return compacted && `${compacted.messages} earlier messages summarised (${compacted.tokens} tokens)`
}
const noted: Message = { role: "user", content: "hi", metadata: { compacted: { messages: 2, tokens: 9 }, pinned: true } satisfies MessageMetadata }
const sink = (event: MetricEvent | agents.CompactionMetric): void => {
  if (event.event === "compaction") {
    const status: "ok" | "error" = event.status
    const counted: number = event.messages + event.tokens + event.ms
    void [status, counted, event.error, event.model]
  }
}
createClient({ baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m", onMetric: sink, hooks: agents.compactor({ maxTokens: 10, summarize: () => "s", onMetric: sink }) })
// @ts-expect-error onMetric is a function
agents.compactor({ maxTokens: 10, summarize: () => "s", onMetric: "log" })

const options: lean.agents.CompactorOptions = { maxTokens: 1, summarize: () => "s", onMetric: (e: lean.agents.CompactionMetric) => void e.status }
const leanHook: lean.agents.CompactorHook = lean.agents.compactor(options)

export { n, asHooks, asBeforeLLM, same, direct, leanHook, marker, noted }

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

// The sub-agent runtime (SPEC §7D) and the Level-1 agent.
async function runtimes(lookup: import("toolnexus-wasm").Tool, store: import("toolnexus-wasm").ConversationStore) {
  const clock: agents.Clock = agents.systemClock
  const registry: Record<string, agents.AgentDef> = {
    explore: { does: "read-only research", tools: [lookup], budget: { maxTokens: 500 }, onSpawn: (h) => void h.id, onClose: async (h, reason) => void [h.state, reason] },
    lead: { does: "delegates", team: ["explore"], waitFor: async (request) => ({ id: request.id, ok: true }), onMetric: (e) => void e.event },
    // The completion gate on a runtime agent: the built-in verifier, or any (async) judge of the RunResult.
    writer: { does: "writes", completion: { verify: agents.allTodosDone, maxAttempts: 3 } },
    tester: { does: "tests", completion: { verify: async (r) => ({ ok: r.toolCalls.length > 0, reason: "no tests ran" }), maxAttempts: 2 } },
  }
  // @ts-expect-error: maxAttempts is required
  void ({ does: "x", completion: { verify: agents.allTodosDone } } satisfies agents.AgentDef)
  const rt = new agents.AgentRuntime({ registry, llm: { baseUrl: "http://127.0.0.1:9/v1", style: "openai", model: "m" }, clock, store, inboxCap: 4, maxConcurrentTurns: 2, shutdownMs: 100, hooks: {} })
  const spawned = rt.spawn(rt.root, "lead", { maxTurns: 3 })
  if (agents.isVerbError(spawned)) {
    const why: string = spawned.error
    void why
    return
  }
  const h: agents.Handle = spawned
  const state: agents.HandleState = h.state
  const parent: agents.Handle | null = h.parent
  const kids: agents.Handle[] = h.children
  const items: agents.InboxItem[] = h.inbox
  const posted = rt.post(h, { from: "external", channel: "external", text: "hi" })
  if (!posted.ok) void posted.error.length
  rt.wake(h, "go")
  const result: agents.TaskResult = await rt.wait(h, { timeoutMs: 10, by: rt.root })
  const status: agents.TaskStatus = result.status
  rt.interrupt(h)
  await rt.close(rt.root, { force: true, reason: "budget" })
  const rows: agents.HandleView[] = rt.list()
  const detail: agents.HandleDetail = rt.inspect(h)
  const trace: string[] = rt.trace
  const max: number = rt.maxObservedConcurrentTurns
  // @ts-expect-error: not a close reason
  void rt.close(h, { reason: "bored" })
  // @ts-expect-error: the registry is required
  void new agents.AgentRuntime({})
  // @ts-expect-error: handles come from spawn
  void new agents.Handle()
  void [state, parent, kids, items, status, rows, detail, trace, max, h.depth]
}
void runtimes

async function level1(lookup: import("toolnexus-wasm").Tool) {
  const explore = agents.agent("explore", { does: "read-only research", uses: { tools: [lookup] }, model: "m" })
  const coder: agents.Agent = agents.agent("coder", { does: "implements", team: [explore], budget: { maxTokens: 10_000 }, guardrails: [() => "allow"], completion: { verify: agents.allTodosDone, maxAttempts: 2 } })
  const registry: Record<string, agents.AgentDef> = coder.registry()
  const out: agents.AgentRunResult = await coder.run("fix it", { llm: { model: "m" } })
  const rt: agents.AgentRuntime = out.runtime
  const tool: import("toolnexus-wasm").Tool = explore.asTool({ llm: { model: "m" } })
  const runtime: agents.AgentRuntime = coder.createRuntime({ inboxCap: 2 })
  // @ts-expect-error: does is required
  agents.agent("x", {})
  // @ts-expect-error: a team is agents, not names
  agents.agent("x", { does: "y", team: ["explore"] })
  // @ts-expect-error: the lean build has no runtime
  void lean.agents.AgentRuntime
  void [registry, rt, tool, runtime]
}
void level1

// Personas: an agent home as an agent, on a heartbeat.
async function persona(fs: import("toolnexus-wasm").IndexedDbFileSystem) {
  const ava: agents.Agent = await agents.fromDir("/personas/ava", { fs, memory: true, does: "support" })
  const started: agents.StartedAgent = agents.startAgent(ava, { llm: { model: "m" } }, { everyMs: 60_000, onBeat: (text: string) => void text, signal: new AbortController().signal })
  const beats: string[] = started.beats
  await started.stop()
  // @ts-expect-error: everyMs is required
  agents.startAgent(ava, {}, {})
  void beats
}
void persona

// Escalation and durable resume (SPEC §7D): resume, savedState / restore, haltedCall, suspended.
async function durable(lookup: import("toolnexus-wasm").Tool, store: import("toolnexus-wasm").ConversationStore) {
  const lead = agents.agent("lead", { does: "delegates", team: [agents.agent("explore", { does: "research", uses: { tools: [lookup] } })] })
  const options: agents.RuntimeOptions = { registry: lead.registry(), store, waitFor: async (request) => ({ id: request.id, ok: true }) }
  const out = await lead.run("go")
  if (out.status !== "pending" || out.pending === undefined) return
  const state: agents.RuntimeState = out.runtime.savedState()
  const handles: agents.HandleRecord[] = state.handles
  const calls: agents.RecordedCall[] = handles[0].checkpointCalls
  const rows: agents.SuspendedHandle[] = out.runtime.suspended()
  const who: agents.Handle = rows[0].handle
  const halted: agents.HaltedToolCall | undefined = out.runtime.haltedCall(out.pending.id)
  if (halted !== undefined) {
    const at: agents.Handle = halted.handle
    const tool: string = halted.tool
    const args: Record<string, unknown> = halted.args
    void [at, tool, args]
  }
  const record: agents.HaltedCall | undefined = handles[0].haltedCall
  const restored: agents.AgentRuntime = agents.AgentRuntime.restore(options, JSON.parse(JSON.stringify(state)))
  const result: agents.TaskResult = await restored.resume({ id: out.pending.id, ok: true })
  await out.runtime.resume({ id: out.pending.id, ok: false, reason: "no" })
  // @ts-expect-error: an answer has an id and ok
  void restored.resume({ ok: true })
  // @ts-expect-error: a request id is a string
  void restored.haltedCall(3)
  // @ts-expect-error: waitFor resolves with an Answer
  void new agents.AgentRuntime({ registry: {}, waitFor: () => "yes" })
  void [calls, who, record, result]
}
void durable
