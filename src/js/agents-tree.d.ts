// Typings of agents-tree.js: the sub-agent runtime (SPEC §7D), in the full build's `agents`
// namespace (agents-runtime.js, the runtime's facade, and agent.js, the Level-1 `agent`).
import type { AnthropicTool, ClientOptions, Hooks, Message, OpenAITool, RunResult, Toolkit } from "../ts/index.js"
import type { Completion, Guardrail, Loop } from "./agents.js"

import type { Answer, ConversationStore, MetricEvent, Request, Tool, Budget, HaltedCall, HandleDetail, HandleView, InboxItem, RuntimeState, TaskResult } from "../ts/index.js"
export type { Budget, HaltedCall, HandleDetail, HandleRecord, HandleView, InboxItem, QueuedWakeRecord, RecordedCall, RuntimeState, TaskResult } from "../ts/index.js"

/** Where a handle is: `idle → running → (idle | suspended | closed)`. */
export type HandleState = "idle" | "running" | "suspended" | "closed"
/** How a turn (or a wait on one) ended. */
export type TaskStatus = TaskResult["status"]
/** Why a handle was closed (what `onClose` is told). */
export type CloseReason = "closed" | "interrupted" | "budget" | "error"

/** The time every timer, timeout and deadline of a runtime reads (a virtual one in tests). */
export interface Clock {
  /** The time now, in milliseconds. */
  now(): number
  /** Runs `fn` after `ms`; returns the function that cancels it. */
  setTimeout(fn: () => void, ms: number): () => void
}

/**
 * The real clock: `Date.now()` and an unref'd `setTimeout`.
 *
 * ```js
 * const rt = new agents.AgentRuntime({ registry, clock: agents.systemClock })
 * ```
 */
export declare const systemClock: Clock

/** A verb's refusal: returned, never thrown. */
export interface VerbError {
  error: string
}

/**
 * Whether `x` is a {@link VerbError}.
 *
 * ```js
 * const h = rt.spawn(rt.root, "explore")
 * if (agents.isVerbError(h)) console.log(h.error)
 * ```
 */
export declare function isVerbError(x: unknown): x is VerbError

/** An agent definition: a runtime's registry entry. */
export interface AgentDef {
  /** Its name; when given, the registry key it is under. */
  name?: string
  /** What it does: what a delegating model reads. */
  does: string
  /** Its identity, sent as the system prompt. */
  soul?: string
  /** Its model; `"inherit"` (the default) takes the runtime's `llm.model`. */
  model?: string
  /** The tools it may use (its view of the tools is its security model). */
  tools?: Tool[]
  /** The agents it may delegate to through the `task` tool; none: no `task` tool. */
  team?: string[]
  /** Its budget. */
  budget?: Budget
  /** Answers the suspensions of its own tools. */
  waitFor?: (request: Request) => Promise<Answer>
  /** Runs once when a handle of it is spawned. */
  onSpawn?: (h: Handle) => void | Promise<void>
  /** Runs before a handle of it closes for good. */
  onClose?: (h: Handle, reason: CloseReason) => void | Promise<void>
  /** §8 hooks of its client; set, they replace the runtime's `hooks` for it. */
  hooks?: Hooks
  /** §8 metric sink of its client; set, it replaces the runtime's `onMetric` for it. */
  onMetric?: (event: MetricEvent) => void
  /**
   * The completion gate each turn of its handles runs through, a delegated child's too: a `done`
   * run is judged by `verify` (given the `RunResult`, its `toolCalls` those of every attempt of
   * the turn); a failed verdict asks again on the same conversation with the reason; after
   * `maxAttempts` runs the turn ends `status: "incomplete"`, `limit: "completion"`, text
   * `completion.verify failed N×: <reason>`. A suspended turn is not judged; every attempt is
   * spent from the budgets; a `verify` that throws ends the turn as an `error` result.
   * `maxAttempts` (a whole number ≥ 1) and `verify` are required (`invalid_options`).
   */
  completion?: Completion
}

/** What a runtime is built from. */
export interface RuntimeOptions {
  /** The agent definitions by name; checked at once (unknown team agent, team cycle, bad budget: `invalid_options`). */
  registry: Record<string, AgentDef>
  /** Where the model calls go (default model `"inherit"`, style `"openai"`). */
  llm?: { baseUrl?: string; style?: "openai" | "anthropic"; apiKey?: string; model?: string }
  /** The transport of every model call (default the global `fetch`). */
  fetch?: typeof fetch
  /** The clock (default the system's). */
  clock?: Clock
  /** The one conversation store of every handle (id = handle id); default in memory. */
  store?: ConversationStore
  /** Inbox capacity of each handle (default 8); a post over it is refused at once. */
  inboxCap?: number
  /** Model calls in flight at once across the tree (default 8). */
  maxConcurrentTurns?: number
  /** How long a graceful close lets a running turn finish before aborting it (default 200). */
  shutdownMs?: number
  /** §8 hooks of every agent whose definition sets none. */
  hooks?: Hooks
  /** §8 metric sink of every agent whose definition sets none. */
  onMetric?: (event: MetricEvent) => void
  /**
   * The runtime's own answerer: the last hop before a durable `pending`. It answers what a
   * top-level handle's subtree raises when no definition's `waitFor` nearer does; without
   * it the top result is `pending` and {@link AgentRuntime.resume} continues it.
   */
  waitFor?: (request: Request) => Promise<Answer>
}

/** The tool call a suspended chain halted on: its deepest handle, the tool and its arguments. */
export interface HaltedToolCall extends Omit<HaltedCall, "handle"> {
  /** The handle whose own tool asked. */
  handle: Handle
}

/** A suspended handle and the request it waits on (a row of {@link AgentRuntime.suspended}). */
export interface SuspendedHandle {
  /** The suspended handle. */
  handle: Handle
  /** Its unanswered request (`data.path` names the handle that asked). */
  request: Request
}

/** A live agent of a runtime. Its fields read the runtime at the moment they are read. */
export declare class Handle {
  private constructor()
  /** The deterministic id path (`root/coordinator.1/explore.2`). */
  readonly id: string
  /** Its parent (`null` for the root). */
  readonly parent: Handle | null
  /** Its depth (the root's is 0). */
  readonly depth: number
  /** Its state now. */
  readonly state: HandleState
  /** Its children, in spawn order. */
  readonly children: Handle[]
  /** Its buffered inbox items. */
  readonly inbox: InboxItem[]
  /** Tokens attributed to it, its descendants' included. */
  readonly usageTotal: number
  /** Model calls it made itself. */
  readonly turnsTotal: number
  /** What is left of its token pool (`Infinity`: unlimited). */
  readonly pool: { tokens: number }
  /** Its unanswered request while suspended. */
  readonly pendingRequest: Request | undefined
}

/**
 * The sub-agent runtime (SPEC §7D): a tree of handles driven by six verbs. A refused verb
 * returns its reason ({@link VerbError}, `{ok: false, error}`); bad options throw a
 * `ToolnexusError` with code `"invalid_options"`.
 *
 * ```js
 * const rt = new agents.AgentRuntime({ registry: { peer: { does: "team member", tools: [lookup] } }, llm: { baseUrl, model } })
 * const h = rt.spawn(rt.root, "peer")
 * if (!agents.isVerbError(h)) { rt.wake(h, "look it up"); console.log((await rt.wait(h)).text) }
 * await rt.close(rt.root)
 * ```
 */
export declare class AgentRuntime {
  constructor(options: RuntimeOptions)
  /**
   * A runtime over `options` (the constructor's) holding a saved `state`: its suspended
   * handles still wait on their requests, ready for {@link AgentRuntime.resume}. Give it the
   * same `store` when the transcripts must carry over. A corrupt state, or one naming agents
   * the registry does not have, throws `invalid_argument`; bad options `invalid_options`.
   *
   * ```js
   * const saved = JSON.stringify(rt.savedState())
   * const later = agents.AgentRuntime.restore({ registry, store, llm }, JSON.parse(saved))
   * const result = await later.resume({ id: request.id, ok: true })
   * ```
   */
  static restore(options: RuntimeOptions, state: RuntimeState | unknown): AgentRuntime
  /** The root handle. */
  readonly root: Handle
  /** The transition trace (a copy, as of the read). */
  readonly trace: string[]
  /** The store of every handle's conversation. */
  readonly store: ConversationStore
  /** The runtime's clock. */
  readonly clock: Clock
  /** The most model calls that were ever in flight at once. */
  readonly maxObservedConcurrentTurns: number
  /** A new idle child of `parent` running agent `name`; `budget` overrides the definition's. */
  spawn(parent: Handle, name: string, budget?: Budget): Handle | VerbError
  /** Appends to the handle's inbox (no transition); a closed handle or a full inbox refuses. */
  post(h: Handle, item: InboxItem): { ok: true } | ({ ok: false } & VerbError)
  /** `idle → running` with `prompt` and the inbox drained; over budget it refuses. */
  wake(h: Handle, prompt?: string): { ok: true } | ({ ok: false } & VerbError)
  /** The handle's next result, or its last one when it is settled. `by`: only the spawner may wait. */
  wait(h: Handle, options?: { timeoutMs?: number; by?: Handle }): Promise<TaskResult>
  /** Aborts the running turn (the handle goes back to idle), or cancels a pending request. */
  interrupt(h: Handle): void
  /** Closes the handle and its subtree, leaf-first. */
  close(h: Handle, options?: { force?: boolean; reason?: CloseReason }): Promise<void>
  /** Every handle but the root, in tree order. */
  list(): HandleView[]
  /** One handle's detail. */
  inspect(h: Handle): HandleDetail
  /**
   * Continues a suspended subtree: `answer` goes to the deepest suspended handle waiting on
   * its `id`, whose halted turn replays from its checkpoint (no tool runs twice), then each
   * suspended ancestor replays, reattaching to its delegated child. Resolves with the last
   * replayed handle's result (`pending` again if something else still waits). An answer that
   * fits no suspended handle rejects with `invalid_resume`, nothing changed.
   *
   * ```js
   * const r = await lead.run("deploy it")
   * if (r.status === "pending") console.log((await r.runtime.resume({ id: r.pending.id, ok: true })).text)
   * ```
   */
  resume(answer: Answer): Promise<TaskResult>
  /**
   * The runtime's state as plain JSON, to keep (`JSON.stringify`) and give to
   * {@link AgentRuntime.restore}. Saved between turns: while a turn runs it throws `invalid_argument`.
   */
  savedState(): RuntimeState
  /** The tool call behind the suspended request `requestId` (what a page shows beside it), or `undefined`. */
  haltedCall(requestId: string): HaltedToolCall | undefined
  /** Every suspended handle and the request it waits on, in tree order. */
  suspended(): SuspendedHandle[]
}

/** The Level-1 agent spec. */
export interface AgentSpec {
  /** What it does: what a delegating model reads. */
  does: string
  /** Its view of the tools. */
  uses?: { tools?: Tool[] }
  /** Its identity (the system prompt). */
  soul?: string
  /** A file holding the soul, read when the registry is built (Node and Deno). */
  soulFile?: string
  /** The agents it may delegate to. */
  team?: Agent[]
  /** Its budget. */
  budget?: Budget
  /** Its model (default `"inherit"`). */
  model?: string
  /** Answers its tools' suspensions. */
  waitFor?: AgentDef["waitFor"]
  /** See {@link AgentDef.onSpawn}. */
  onSpawn?: AgentDef["onSpawn"]
  /** See {@link AgentDef.onClose}. */
  onClose?: AgentDef["onClose"]
  /** Its hooks (replace the runtime's). */
  hooks?: Hooks
  /** Its metric sink (replaces the runtime's). */
  onMetric?: AgentDef["onMetric"]
  /** Policy checks on its tool calls, compiled into `hooks.beforeTool`, first deny wins. */
  guardrails?: Guardrail[]
  /** Its completion gate: every turn of its runs (`run`, `asTool`, as a team member) and {@link Agent.loop} go through it. */
  completion?: Completion
}

/** The options of a one-shot run: a runtime's, its registry derived. */
export type AgentRunOptions = Omit<RuntimeOptions, "registry">

/** A one-shot run's result, with the runtime that ran it. */
export interface AgentRunResult extends TaskResult {
  runtime: AgentRuntime
}

/** An agent (made by {@link agent}). */
export declare class Agent {
  constructor(name: string, spec: AgentSpec)
  readonly name: string
  readonly spec: AgentSpec
  /** This agent and its transitive team as runtime definitions. */
  registry(acc?: Record<string, AgentDef>): Record<string, AgentDef>
  /** A runtime over this agent's team graph. */
  createRuntime(options?: AgentRunOptions): AgentRuntime
  /** One run on a fresh runtime, closed after unless pending. */
  run(prompt: string, options?: AgentRunOptions): Promise<AgentRunResult>
  /**
   * The agent as a Tool (`source: "agent"`), for `extraTools`. When a tool inside the run asks
   * and nothing there answers, the call suspends with that tool's own request (same `id`,
   * `kind`, `prompt`, `data`), `data.path` naming the whole chain down to the agent whose tool
   * asked and `data.haltedCall` the inner call `{handle, tool, args}`; the client's `waitFor`
   * and `stream()`'s `pending` event see it, and the call retried with the Answer resumes the
   * parked run.
   */
  asTool(options?: AgentRunOptions): Tool
  /** A live execution over client options and a toolkit. */
  loop(options: ClientOptions, toolkit: Toolkit): Loop
}

/**
 * Defines an agent (SPEC §7D Level 1).
 *
 * ```js
 * const explore = agents.agent("explore", { does: "read-only research", uses: { tools: [lookup] } })
 * const coder = agents.agent("coder", { does: "implements changes", team: [explore], budget: { maxTokens: 10_000 } })
 * const result = await coder.run("fix the failing test", { llm: { baseUrl, model: "gpt-4o-mini" } })
 * ```
 */
export declare function agent(name: string, spec: AgentSpec): Agent
