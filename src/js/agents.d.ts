// Typings of agents.js, the `agents` namespace the entries export (`import { agents } from
// "toolnexus-wasm"`): context compaction (SPEC §7F).
import type { Message, OpenAITool, AnthropicTool } from "../ts/index.js"

/** Options of {@link compactor}. */
export interface CompactorOptions {
  /** Compact only when the transcript's estimate is over this; at or below, the hook does nothing. */
  maxTokens: number
  /** Keep at least this many tokens of the most recent messages (default `Math.floor(maxTokens / 2)`). */
  keepTail?: number
  /**
   * Summarizes the older messages (everything between the leading system prompt and the kept
   * tail); may call a model. A throw or rejection fails the hook with a `ToolnexusError` of code
   * `"hook"` (a run stops with it) and the transcript is left as it was.
   */
  summarize: (older: Message[]) => string | Promise<string>
  /** The token estimate of a list of messages (default {@link estimateTokens}). */
  countTokens?: (messages: Message[]) => number
  /** Puts a system reminder to save durable facts with the `memory` tool between the summary and the tail. */
  flushToMemory?: boolean
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
 * "[Summary of earlier conversation]\n"), flush reminder (with `flushToMemory`), ...tail]`: the
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
 * divided by 4, rounded up, summed. An estimator, not a tokenizer.
 */
export declare function estimateTokens(messages: Message[]): number
