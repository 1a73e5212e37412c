// Generated from the records' declarations (src/core/contract.rs): do not edit.
import type { AnthropicResponse, OpenAIResponse, Usage } from "./core/types.js"
import type { FinishReason } from "./types.js"

/** A skill supplied as data (S1): no filesystem involved. `null` reads as absent. */
export interface SkillDef {
  /** The skill's name; a missing or empty one skips the skill (`missing-name`). */
  name?: string
  /** Shown in the prompt catalog; a skill without one is not listed there. */
  description?: string
  /** The instructions the `skill` tool hands back. */
  content?: string
  /** Logical resource names listed in `<skill_files>`. */
  resources?: string[]
  /** The logical base; `skill://<name>/` when absent or empty. */
  base?: string
}

/**
 * One server as `parseMcpConfig` returns it: `type` filled in, `command` as one array, the
 * default timeout applied; header values stay unexpanded.
 */
export type McpServerConfig =
  | { type: "remote"; url: string; headers?: Record<string, string>; enabled: boolean; timeout: number; tools?: Record<string, boolean> }
  | { type: "local"; command: string[]; environment?: Record<string, string>; cwd?: string; enabled: boolean; timeout: number; tools?: Record<string, boolean> }

/** One tool call the model asked for, in OpenAI shape (SPEC §11). */
export interface TranslatedToolCall {
  /** The call id; the caller's `tool` message answers it as its `tool_call_id`. */
  id: string
  /** The function's name. */
  name: string
  /** The arguments as JSON text (OpenAI's wire form), to hand on as they are. */
  arguments: string
}

/** What `client.translate` resolves to (SPEC §11): one provider call, in OpenAI shape. */
export interface TranslateResult {
  /** The assistant's text (`""` when it only called tools). */
  text: string
  /** Every tool call, in the provider's order; none is dropped. */
  toolCalls: TranslatedToolCall[]
  /**
   * `"tool_calls"` whenever the turn called a tool; an OpenAI-style endpoint's own
   * `finish_reason` is passed on as it is.
   */
  finishReason: FinishReason | (string & {})
  /** This call's token usage. */
  usage: Usage
  /** The configured model. */
  model: string
  /** The provider's response as it came, for what this result does not carry. */
  raw?: OpenAIResponse | AnthropicResponse
}
