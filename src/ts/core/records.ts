// Generated from the records' declarations (src/core/contract.rs): do not edit.
import type { Message, ToolSource } from "./types.js"

/** What a tool hands back to the model. `metadata.pending` marks a suspension. */
export interface ToolResult {
  /** Text handed back to the model. */
  output: string
  /** Whether the tool failed (or suspended: see `pending`). */
  isError: boolean
  /** Free-form extra data; `metadata.pending` marks a suspension. */
  metadata?: Record<string, unknown>
  /**
   * Images, files or audio the tool returns beside `output` (SPEC §1B): they reach the
   * model as blocks where the provider takes them, while text-only consumers
   * (compaction, estimates, older providers) see `output`. Absent, the result is
   * byte-identical to one without parts.
   */
  parts?: ContentPart[]
}

/**
 * An out-of-band question a suspended tool asks the host (SPEC §10). Keys are fixed
 * across ports.
 */
export interface Request {
  /** Unique per suspension; the correlation key an `Answer` echoes. */
  id: string
  /** What kind of question (an open vocabulary). */
  kind: "authorization" | "approval" | "input" | "question" | "tool_call" | (string & {})
  /** What is being asked, in human words. */
  prompt: string
  /** Present when the action happens at a link. */
  url?: string
  /** Kind-specific extra data (for example `data.schema`). */
  data?: Record<string, unknown>
  /**
   * When the request goes stale: an ISO 8601 date-time that `Date.parse` reads
   * (`"2030-01-02"`, `"2030-01-02T03:04Z"`, a Date's `toISOString()`; without an offset a
   * date-time is local time, a date alone UTC). An answer after it is declined as
   * expired; `pending` throws `invalid_request` for any other text.
   */
  expiresAt?: string
}

/** The host's resolution of a `Request`. */
export interface Answer {
  /** Echoes `Request.id`. */
  id: string
  /** Satisfied, versus declined / cancelled / expired. */
  ok: boolean
  /** Kind-specific payload (for example the value entered). */
  data?: Record<string, unknown>
  /** Advisory reason when `ok` is false. */
  reason?: "declined" | "cancelled" | "expired" | (string & {})
}

/**
 * One piece of content (SPEC §1B): text, or an image, file or audio as bytes (`data`,
 * standard base64) or a URL. The same flat record in every port; `mimeType` is its wire key.
 */
export interface ContentPart {
  /** What the part holds. */
  type: "text" | "image" | "file" | "audio"
  /** A text part's text. */
  text?: string
  /** The MIME type of an image, file or audio part (`image/png`, `application/pdf`, …). */
  mimeType?: string
  /** The bytes, standard base64 (padded, no line breaks); exactly one of `data` and `url`. */
  data?: string
  /** Where the bytes are (`https:`), sent to the provider as a URL; never fetched here. */
  url?: string
  /** A file name, for providers that show one (a PDF's). */
  name?: string
}

/**
 * A part as a metric event names it (SPEC §9): its type, MIME type and decoded size,
 * never its bytes.
 */
export interface PartSummary {
  /** The part's type. */
  type: "image" | "file" | "audio"
  /** Its MIME type. */
  mimeType?: string
  /** Its decoded size in bytes (0 for a URL). */
  bytes: number
}

/** One tool call of a run, with its outcome. */
export interface ToolCallRecord {
  /** The tool's name. */
  name: string
  /** The arguments it ran with (after any `beforeTool` rewrite). */
  args: Record<string, unknown>
  /** Its output. */
  output: string
  /** Whether it failed. */
  isError: boolean
  /** Its metadata. */
  metadata?: Record<string, unknown>
}

/** Token usage, summed over a run's model calls. */
export interface Usage {
  /** Input tokens. */
  promptTokens: number
  /** Output tokens. */
  completionTokens: number
  /** Their sum (or the provider's own total). */
  totalTokens: number
}

/** What `run` / `ask` resolve to (SPEC §8, §10): plain JSON. */
export interface RunResult {
  /** The final text (the pending prompt when halted). */
  text: string
  /** The whole transcript, in the dialect's shape. */
  messages: Message[]
  /** Every tool call, in order. */
  toolCalls: ToolCallRecord[]
  /** The number of tool calls. */
  toolCallCount: number
  /** Model calls made. */
  turns: number
  /** Usage summed over the model calls. */
  usage: Usage
  /** The configured model. */
  model: string
  /** How the run ended. */
  status: "done" | "pending" | "incomplete"
  /** Present iff `status` is `"pending"`. */
  pending?: Request
  /** Present iff `status` is `"incomplete"`. */
  limit?: "maxTurns" | (string & {})
  /** Set when `ask` saved nothing because the store's `save` failed. */
  saveError?: string
}

/** One event, as `onMetric` receives it. */
export type MetricEvent =
  | { event: "llm"; model: string; status: "ok" | "error"; ms: number; promptTokens: number; completionTokens: number; parts?: PartSummary[] }
  | { event: "tool"; tool: string; source: string; isError: boolean; pending: boolean; ms: number }
  | { event: "run"; model: string; turns: number; toolCalls: number; totalTokens: number; ms: number; error?: string }

/** One event of a streamed run, as `for await` yields it. */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call"; id: string; name: string; args: Record<string, unknown> }
  | { type: "tool_result"; id: string; name: string; output: string; isError: boolean; parts?: ContentPart[] }
  | { type: "usage"; usage: Usage }
  | { type: "pending"; request: Request }
  | { type: "done"; result: RunResult }

/** The MCP serve profile: what `initialize` advertises and which tools are exposed. */
export interface McpServeConfig {
  /** Advertised server name (`serverInfo.name`); default `"toolnexus"`. */
  name?: string
  /** Advertised server version (`serverInfo.version`); default `"0.1.0"`. */
  version?: string
  /** The tool names to expose; absent exposes every tool. Unknown names are ignored. */
  tools?: string[]
}

/**
 * What `onCall` receives after each `tools/call` (the result's `metadata` stays here,
 * off the MCP wire).
 */
export interface OnCallEvent {
  /** The tool's name. */
  name: string
  /** The tool's source (`"native"`, `"mcp"`, `"builtin"`, …). */
  source: ToolSource
  /** How long the call took, in milliseconds. */
  ms: number
  /** Whether the call failed (or suspended). */
  isError: boolean
}

/**
 * The limits an agent runs under. Every field is optional; a set one must be a positive
 * number.
 */
export interface Budget {
  /** Model calls over the handle's life (default 6). */
  maxTurns?: number
  /** A token pool shared downward with descendants. */
  maxTokens?: number
  /** A tool-call pool shared downward with descendants. */
  maxToolCalls?: number
  /** A wall-clock deadline in milliseconds from spawn (min'd with the parent's). */
  maxWallMs?: number
  /** Direct children, checked at spawn. */
  maxChildren?: number
  /** Children running at once (default 8); more wakes queue FIFO. */
  maxConcurrent?: number
  /** Tree depth below this handle's children (default 3), checked at spawn. */
  maxDepth?: number
}

/**
 * An unsolicited inbox item: it reaches the agent only in a fresh turn's coalesced drain,
 * rendered with its provenance.
 */
export interface InboxItem {
  /** The sender's handle path, or `"external"` / `"clock"`. */
  from: string
  /** The channel: `"peer"`, `"timer"`, `"external"`, …. */
  channel: string
  /** The content. */
  text: string
}

/** The result of one turn (or of waiting for one), as waiters and the `task` tool see it. */
export interface TaskResult {
  /** The final text (the error or limit sentence when there is no answer). */
  text: string
  /** Whether it is a failure the parent's model should judge. */
  isError: boolean
  /** How it ended. */
  status: "done" | "pending" | "incomplete" | "interrupted" | "closed" | "timeout" | "error"
  /** Present iff `status` is `"pending"`; `data.path` names the suspended handle. */
  pending?: Request
  /** Model calls of the run. */
  turns: number
  /** Tokens of the run. */
  totalTokens: number
  /** The limit that stopped it, when `status` is `"incomplete"`. */
  limit?: string
}

/** A read-only row of `list()`. */
export interface HandleView {
  /** The deterministic id path (`root/coordinator.1/explore.2`). */
  id: string
  /** The state. */
  state: "idle" | "running" | "suspended" | "closed"
  /** Tokens attributed to it (its own and its descendants'). */
  tokens: number
  /** Items waiting in its inbox. */
  inbox: number
}

/** What `inspect()` tells of one handle: its row and more. */
export interface HandleDetail {
  /** The deterministic id path. */
  id: string
  /** The state. */
  state: "idle" | "running" | "suspended" | "closed"
  /** Tokens attributed to it (its own and its descendants'). */
  tokens: number
  /** Items waiting in its inbox. */
  inbox: number
  /** Model calls it made itself, over its life. */
  turns: number
  /** What is left of its token pool (`None`: unlimited). */
  poolTokens?: number
  /** Its unanswered request while suspended. */
  pending?: Request
}

/**
 * The tool call a suspended chain halted on, at its deepest handle: what a page shows
 * beside the request ("researcher → browser wants to run `fetch_page({url})`"). The
 * request itself stays the tool's own, unchanged but for `data.path`.
 */
export interface HaltedCall {
  /** The id of the handle whose own tool asked. */
  handle: string
  /** The tool's name. */
  tool: string
  /** The arguments it was called with. */
  args: Record<string, unknown>
}

/**
 * A tool call a halted turn completed (or halted on): its replay from the checkpoint is
 * answered with this result instead of running the tool again.
 */
export interface RecordedCall {
  /** The tool's name. */
  tool: string
  /** The arguments it ran with. */
  args: Record<string, unknown>
  /** What it returned (for the halted call, its suspension). */
  result: ToolResult
}

/** A child's wake waiting for its parent's concurrency slot. */
export interface QueuedWakeRecord {
  /** The child's id. */
  child: string
  /** The wake's prompt. */
  prompt?: string
}

/** One handle at rest. */
export interface HandleRecord {
  /** Its id path. */
  id: string
  /** Its agent's name. */
  agent: string
  /** Its parent's id (`None` for the root). */
  parent?: string
  /** Its depth (the root is 0). */
  depth: number
  /** Its children's ids, in spawn order. */
  children: string[]
  /** Its state. */
  state: "idle" | "running" | "suspended" | "closed"
  /** Its buffered inbox. */
  inbox: InboxItem[]
  /** Its budget (the def's with the spawn's over it). */
  budget: Budget
  /** Tokens left in its pool (`None`: unlimited). */
  poolTokens?: number
  /** Tool calls left in its pool. */
  poolToolCalls?: number
  /** Children it may still have. */
  poolChildren?: number
  /** Its wall-clock deadline (clock ms). */
  deadline?: number
  /** Tokens attributed to it (own and rolled up). */
  usageTotal: number
  /** Tool calls attributed to it (own and rolled up). */
  toolCallsTotal: number
  /** Model calls it made itself. */
  turnsTotal: number
  /** Its unanswered request while suspended. */
  pending?: Request
  /** The tool call its suspended chain halted on, at the deepest handle. */
  haltedCall?: HaltedCall
  /** Its last settled result. */
  lastResult?: TaskResult
  /** The input its suspended turn replays on resume. */
  checkpoint?: string
  /** The calls its halted turn ran, answered from here on the replay. */
  checkpointCalls: RecordedCall[]
  /** `agent:prompt` when `task` spawned it. */
  taskKey?: string
  /** Its children running now. */
  runningChildren: number
  /** The last child number it gave. */
  seq: number
  /** Its children's queued wakes, in order. */
  wakeQueue: QueuedWakeRecord[]
}

/**
 * A runtime at rest, as plain JSON: what [`AgentRuntime::saved_state`] gives and
 * [`AgentRuntime::restore`] takes.
 */
export interface RuntimeState {
  /** Always `"toolnexus-agent-runtime/v1"`. */
  format: string
  /** Every handle, the root first, in table order. */
  handles: HandleRecord[]
  /** The transition trace so far. */
  trace: string[]
}
