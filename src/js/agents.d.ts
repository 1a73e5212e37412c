// Typings of agents.js, the `agents` namespace the entries export (`import { agents } from
// "toolnexus-wasm"`): context compaction (SPEC §7F).
import type { AnthropicTool, ClientOptions, Hooks, Message, OpenAITool, RunResult, Toolkit } from "../ts/index.js"
import type { ToolnexusError } from "./errors.js"

/** Options of {@link compactor}. */
export interface CompactorOptions {
  /** Compact only when the transcript's estimate is over this; at or below, the hook does nothing. */
  maxTokens: number
  /** Keep at least this many tokens of the most recent messages, from 0 to `maxTokens` (default `Math.floor(maxTokens / 2)`). */
  keepTail?: number
  /**
   * Summarizes the older messages (everything between the leading system prompt and the kept
   * tail); may call a model. A throw, a rejection or a result that is not a string leaves that
   * call uncompacted (a console warning, `onError`) and the run going: never a lost transcript.
   */
  summarize: (older: Message[]) => string | Promise<string>
  /** The token estimate of a list of messages (default {@link estimateTokens}). */
  countTokens?: (messages: Message[]) => number
  /** Puts a system reminder to save durable facts with the `memory` tool between the summary and the tail. */
  flushToMemory?: boolean
  /**
   * Hears a failed compaction (a `summarize` that throws, rejects or gives no string; code
   * `"hook"`): that call goes uncompacted, with a console warning, and the run goes on. A place
   * for a host's counter or metric.
   */
  onError?: (error: ToolnexusError) => void
  /**
   * Hears each compaction attempt as a {@link CompactionMetric} (`status: "ok"` or `"error"`),
   * the way a client's `onMetric` hears model and tool calls: pass the same sink to both (type it
   * `(event: MetricEvent | agents.CompactionMetric) => void`). A throw is ignored. Compactions are
   * not in `client.metrics()` (its Prometheus text is pinned across ports).
   */
  onMetric?: (event: CompactionMetric) => void
}

/**
 * One compaction attempt, as {@link CompactorOptions.onMetric} hears it: an `onMetric` event
 * beside the client's `llm`, `tool` and `run` (SPEC §8 names those three; this one is this
 * package's). Sent only when the transcript is over budget and has something to summarize.
 */
export interface CompactionMetric {
  event: "compaction"
  /** `"ok"`: the transcript was compacted; `"error"`: `summarize` failed and this call went uncompacted. */
  status: "ok" | "error"
  /** The model the call is for (the `beforeLLM` event's). */
  model: string
  /** How many earlier messages the summary stands for (or would have). */
  messages: number
  /** Their token estimate (by `countTokens` when given). */
  tokens: number
  /** How long `summarize` took, in milliseconds. */
  ms: number
  /** With `status: "error"`: why (the `onError` error's message). */
  error?: string
}

/**
 * The `metadata` of a compaction summary (`message.metadata.compacted`): what it stands for, so
 * a UI can say "12 earlier messages summarised". Never sent to the provider.
 */
export interface CompactedMetadata {
  /** How many earlier messages it replaced; an earlier summary it folds in counts as its own `messages`, the flush reminder as none. */
  messages: number
  /** Their token estimate (by `countTokens` when given; an earlier summary counts as its own `tokens`). */
  tokens: number
}

/** What a `beforeLLM` hook is given before each model call. */
export interface BeforeLLMEvent {
  /** The working transcript. */
  messages: Message[]
  /** The tools offered to the model. */
  tools: (OpenAITool | AnthropicTool)[]
  /** The model asked. */
  model: string
  /** The turn, from 0. */
  turn: number
}

/**
 * The hook {@link compactor} makes: a `beforeLLM` function that also carries itself as
 * `beforeLLM`, so it fits `hooks: compactor(...)` as well as `hooks: { beforeLLM: compactor(...) }`.
 */
export interface CompactorHook {
  /** Nothing at or below budget; above, the compacted transcript. */
  (event: BeforeLLMEvent): Promise<{ messages: Message[] } | undefined>
  /** The hook itself, so the hook is also a hooks object. */
  beforeLLM: CompactorHook
}

/**
 * A `beforeLLM` hook that keeps a long-lived agent under budget (SPEC §7F). At or below
 * `maxTokens` it returns nothing, and the run is byte-identical to one without it. Above, the
 * transcript becomes `[leading system prompt (unchanged), summary system message (starting
 * "[Summary of earlier conversation]\n", with `metadata: {compacted: {messages, tokens}}`, a
 * {@link CompactedMetadata} the client never sends), flush reminder (with `flushToMemory`), ...tail]`: the
 * tail is the longest that fits `keepTail` (else the shortest possible) and starts at a user
 * turn that carries no tool result, so no tool result loses the call it answers, in either
 * dialect. Under `style: "anthropic"` the transcript has no system prompt (it is the body's
 * `system`, and the API refuses a system role in `messages`), so the summary and the reminder
 * lead `messages` as user turns. Bad options throw a `ToolnexusError` with code
 * `"invalid_options"`.
 *
 * ```js
 * import { agents, createClient } from "toolnexus-wasm"
 * const client = createClient({
 *   baseUrl, style: "openai", model,
 *   hooks: agents.compactor({ maxTokens: 120_000, summarize: async (older) => summarizeWithAModel(older) }),
 * })
 * ```
 */
export declare function compactor(options: CompactorOptions): CompactorHook

/**
 * The default token estimate of {@link compactor}: for each message, the length of its JSON text
 * (without its `metadata`, which is never sent) divided by 4, rounded up, summed. An estimator,
 * not a tokenizer.
 */
export declare function estimateTokens(messages: Message[]): number

/**
 * A policy check on a tool call ("may it?", never "is it right?"): `"allow"` or nothing
 * permits it; any other string denies it with that reason.
 */
export type Guardrail = (event: { name: string; args: Record<string, unknown>; id?: string; turn: number }) =>
  | string | undefined | void | Promise<string | undefined | void>

/** What a completion verifier says of a run. */
export interface Verdict {
  ok: boolean
  /** Why not, when `ok` is false; it reaches the model's retry prompt. */
  reason?: string
}

/** The gate that stops an agent claiming it is done before its work verifies. */
export interface Completion {
  /** Judges a run, given the tool calls of every attempt so far. */
  verify: (result: RunResult) => Verdict | Promise<Verdict>
  /** Required (a whole number ≥ 1): an unbounded verify loop is a bill without end. */
  maxAttempts: number
}

/** An agent spec as the harness reads it (the sub-agent runtime reads more of it). */
export interface HarnessSpec {
  /** What the agent does (what a delegating model sees). */
  does?: string
  /** Its identity: the system prompt. */
  soul?: string
  /** Policy checks on its tool calls, first deny wins. */
  guardrails?: Guardrail[]
  /** Its hooks; replaces the client options' `hooks`. */
  hooks?: Hooks
  /** Its completion gate. */
  completion?: Completion
  [key: string]: unknown
}

/**
 * Names an agent spec as a harness: it returns `spec` itself (tools, guardrails and a
 * completion gate are already what a harness is).
 *
 * ```js
 * const spec = agents.harness({ does: "writes the report", completion: { verify: agents.allTodosDone, maxAttempts: 3 } })
 * ```
 */
export declare function harness<S extends HarnessSpec>(spec: S): S

/**
 * One `beforeTool` hook from `guardrails`, ahead of `hooks.beforeTool`: the first denial wins
 * (nothing after it runs) and the call's result is `{output: "denied: <reason>", isError: true}`.
 * No guardrails: `hooks` as given, so absent is byte-identical.
 *
 * ```js
 * const hooks = agents.guardedHooks([({ name }) => (name === "bash" ? "no shell here" : "allow")], myHooks)
 * ```
 */
export declare function guardedHooks(guardrails: Guardrail[] | undefined, hooks: Hooks | undefined): Hooks | undefined

/**
 * The built-in completion verifier: the last `todowrite` call's plan must have every item
 * completed; no plan passes.
 *
 * ```js
 * const completion = { verify: agents.allTodosDone, maxAttempts: 3 }
 * ```
 */
export declare function allTodosDone(result: RunResult): Verdict

/**
 * Runs `ask(prompt)` under a completion gate: each attempt judged over the tool calls of every
 * attempt so far; a failure re-prompts `Your work did not verify: <reason>. Fix it and finish.`;
 * after `maxAttempts` failures, `status: "incomplete"` with `limit: "completion"`. A run that
 * stops on its own (`pending`, a budget) comes back as it is. A `maxAttempts` that is not a
 * whole number ≥ 1 throws `invalid_options`.
 *
 * ```js
 * const r = await agents.runGated((p) => client.run(p, { toolkit }), "Ship it", { verify, maxAttempts: 2 })
 * ```
 */
export declare function runGated(ask: (prompt: string) => Promise<RunResult>, prompt: string, completion: Completion | undefined): Promise<RunResult>

/** What {@link Loop.run} reports. */
export interface Outcome {
  text: string
  status: "done" | "incomplete" | "pending" | "error"
  /** Why it stopped, whenever `status` is not `"done"`. */
  stoppedBy?: string
  /** Runs made under the completion gate. */
  attempts: number
  /** Model calls of every run of this loop so far. */
  turns: number
  /** The last run's result. */
  result?: RunResult
}

/**
 * A live execution of an agent (`{name, spec}`: `spec.soul` becomes the system prompt, with
 * its guardrails, hooks and completion gate) over client options and a toolkit. Each `run`
 * continues the same conversation; `status` and `turns` are observed.
 *
 * ```js
 * const loop = new agents.Loop({ name: "writer", spec }, { baseUrl, style: "openai", model }, toolkit)
 * const out = await loop.run("Draft the release notes", { model: "gpt-4o" })
 * if (out.status !== "done") console.log(out.stoppedBy)
 * ```
 */
export declare class Loop {
  constructor(agent: { name?: string; spec: HarnessSpec }, options: ClientOptions, toolkit: Toolkit)
  /** `"idle"`, `"running"`, or how the last run ended. */
  readonly status: string
  /** Model calls made by every run so far. */
  readonly turns: number
  /** Runs `prompt` under the completion gate; `options.model` overrides the model for this call only. */
  run(prompt: string, options?: { model?: string }): Promise<Outcome>
}
