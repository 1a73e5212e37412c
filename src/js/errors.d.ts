/**
 * What kind of failure a {@link ToolnexusError} is (the table in README.md says when each is
 * thrown and what to do):
 * - `http_status`: the model endpoint (or an A2A Agent Card request) answered with a non-2xx
 *   status (see `status`);
 * - `network`: the model request (or an Agent Card request) got no response;
 * - `bad_response`: the model's response could not be read, or an Agent Card is not a card;
 * - `timeout`: a retry would have waited past the run's `timeoutMs`, or an Agent Card did not
 *   arrive within the agent's `timeout`;
 * - `aborted`: the run's `signal` fired, or its `timeoutMs` passed during a request (the
 *   error's `name` is `"AbortError"`);
 * - `hook`: a hook threw or rejected;
 * - `model`: an in-process model (`createInProcessClient`'s `generate`) failed;
 * - `invalid_resume`: `runWithAnswer` got an answer that does not fit the halted run, or
 *   `agents.AgentRuntime.resume` one that no suspended handle waits on;
 * - `invalid_options`, `invalid_argument`, `invalid_tool`, `invalid_config`, `invalid_request`:
 *   a maker, method or config was given something it cannot use (the message names it);
 * - `invalid_part`, `unsupported_part`: a content part is not well-formed (both or neither of
 *   `data` and `url`, bad base64, an unknown extension, over `maxPartBytes`, not an `http(s):`
 *   URL), or the provider has no block for it (audio on Anthropic, a file URL on OpenAI);
 * - `unsupported`: the runtime or this build cannot do it (no `fetch`, no IndexedDB, a `full`
 *   feature asked of `toolnexus-wasm/core`);
 * - `store`, `quota_exceeded`: a conversation store could not read or write;
 * - `internal`: a value could not cross into JavaScript (a bug: please report it).
 */
export type ErrorCode =
  | "http_status"
  | "network"
  | "bad_response"
  | "timeout"
  | "aborted"
  | "hook"
  | "model"
  | "invalid_resume"
  | "invalid_options"
  | "invalid_argument"
  | "invalid_tool"
  | "invalid_config"
  | "invalid_request"
  | "invalid_part"
  | "unsupported_part"
  | "unsupported"
  | "store"
  | "quota_exceeded"
  | "internal"

/**
 * Every failure the library reports: a rejected run, a refused option, a store that cannot
 * write. An aborted run's error keeps the name `"AbortError"`.
 *
 * ```ts
 * try {
 *   await client.run("hi", { toolkit })
 * } catch (e) {
 *   if (isToolnexusError(e) && e.code === "http_status" && e.status === 401) askForAKey()
 *   else if (isToolnexusError(e) && e.retryable) retryLater()
 * }
 * ```
 */
export declare class ToolnexusError extends Error {
  constructor(code: ErrorCode, message: string, options?: { status?: number; retryable?: boolean; cause?: unknown; name?: string })
  /** What kind of failure it is. */
  readonly code: ErrorCode
  /** The HTTP status of an `http_status` failure. */
  readonly status?: number
  /** Whether the same call may succeed when tried again later (`network`, `timeout`, 429 and 5xx). */
  readonly retryable: boolean
}

/**
 * Whether `value` is a {@link ToolnexusError}, also one made by another copy of the package.
 *
 * ```ts
 * catch (e) { if (isToolnexusError(e)) console.log(e.code) }
 * ```
 */
export declare function isToolnexusError(value: unknown): value is ToolnexusError
