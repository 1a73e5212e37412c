// The harness and the completion gate (the reference's 0.15.0 `loop`): guardrails compiled
// into one `beforeTool` (first deny wins), `allTodosDone` (the built-in verifier over the
// `todowrite` built-in's metadata), `runGated` (re-prompts until the work verifies, at most
// `maxAttempts` times, judging the tool calls of every attempt), and `Loop`, a live execution of
// an agent spec over a client. Plain JavaScript over the public client, like compaction: it
// composes runs and hooks, and adds nothing to the loop itself.
import { createClient } from "../ts/core/index.js"
import { ToolnexusError } from "./errors.js"
import { typeName } from "./stores.js"

/**
 * Names an agent spec as a harness: it returns `spec` itself (a harness is a spec's tools,
 * guardrails and completion gate; there is nothing to wrap).
 */
export function harness(spec) {
  return spec
}

/**
 * One `beforeTool` hook from `guardrails`, ahead of `hooks.beforeTool`: each guardrail sees
 * `{name, args, id, turn}` and allows (`"allow"` or nothing) or denies with a reason; the first
 * denial wins (no later guardrail or hook runs) and the call's result is
 * `{output: "denied: <reason>", isError: true}`. No guardrails: `hooks` as given.
 */
export function guardedHooks(guardrails, hooks) {
  if (guardrails === undefined || guardrails === null || (Array.isArray(guardrails) && guardrails.length === 0)) return hooks
  if (!Array.isArray(guardrails) || !guardrails.every((g) => typeof g === "function")) {
    throw new ToolnexusError("invalid_options", `guardedHooks: guardrails must be an array of functions, got ${typeName(guardrails)}`)
  }
  const prior = hooks?.beforeTool
  return {
    ...(hooks ?? {}),
    beforeTool: async (event) => {
      for (const guardrail of guardrails) {
        const verdict = await guardrail(event)
        if (verdict && verdict !== "allow") return { result: { output: `denied: ${verdict}`, isError: true } }
      }
      return prior ? prior(event) : undefined
    },
  }
}

/**
 * The built-in completion verifier: the last `todowrite` call's plan must have every item
 * completed. No plan declared passes (the gate never punishes an agent that keeps none).
 */
export function allTodosDone(result) {
  const calls = Array.isArray(result?.toolCalls) ? result.toolCalls : []
  for (let i = calls.length - 1; i >= 0; i--) {
    if (calls[i]?.name !== "todowrite") continue
    const todos = calls[i].metadata?.todos
    if (!Array.isArray(todos)) return { ok: true }
    const open = todos.filter((t) => !t?.completed).map((t) => String(t?.text ?? ""))
    return open.length > 0 ? { ok: false, reason: `${open.length} item(s) still open: ${open.join("; ")}` } : { ok: true }
  }
  return { ok: true }
}

/** Checks a completion gate: `maxAttempts` a whole number ≥ 1 (never defaulted), `verify` a function. */
function checkedCompletion(completion) {
  const { maxAttempts, verify } = completion
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new ToolnexusError("invalid_options", `completion.maxAttempts must be an integer >= 1, got ${typeof maxAttempts === "number" ? maxAttempts : typeName(maxAttempts)}`)
  }
  if (typeof verify !== "function") throw new ToolnexusError("invalid_options", `completion.verify must be a function, got ${typeName(verify)}`)
  return completion
}

/**
 * Runs `ask(prompt)` under a completion gate. Without `completion`, one run. With it, each
 * attempt is judged by `verify` over the tool calls of every attempt so far (a retry cannot
 * escape by dropping its plan); a failed verdict re-prompts with
 * `Your work did not verify: <reason>. Fix it and finish.`, and after `maxAttempts` failures
 * the result is `status: "incomplete"`, `limit: "completion"`. A run that stops on its own
 * (`pending`, a budget) is returned as it is, never re-judged.
 */
export async function runGated(ask, prompt, completion) {
  if (completion === undefined || completion === null) return ask(prompt)
  const { maxAttempts, verify } = checkedCompletion(completion)
  let calls = []
  let last
  let reason = ""
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const result = await ask(attempt === 1 ? prompt : `Your work did not verify: ${reason}. Fix it and finish.`)
    calls = [...calls, ...(result.toolCalls ?? [])]
    const judged = { ...result, toolCalls: calls, toolCallCount: calls.length }
    last = judged
    if (result.status && result.status !== "done") {
      // Stopped for its own reason; mid-retry, the caller learns the verification failure too.
      if (reason && result.status !== "pending") judged.text = `${result.text} [while verifying: attempt ${attempt} last failed: ${reason}]`
      return judged
    }
    const verdict = await verify(judged)
    if (verdict?.ok) return judged
    reason = verdict?.reason ?? "unspecified"
  }
  return { ...last, status: "incomplete", limit: "completion", text: `completion.verify failed ${maxAttempts}×: ${reason}` }
}

/**
 * A live execution of an agent (`{name, spec}`: `spec.soul` the system prompt,
 * `spec.guardrails`, `spec.hooks`, `spec.completion`) over client options and a toolkit. Each
 * `run` continues the same conversation; `status` and `turns` are observed, never set.
 */
export class Loop {
  #agent
  #options
  #toolkit
  #status = "idle"
  #turns = 0
  #history = []

  constructor(agent, options, toolkit) {
    if (agent === null || typeof agent !== "object" || agent.spec === null || typeof agent.spec !== "object") {
      throw new ToolnexusError("invalid_argument", `Loop: agent must be an object with a spec, got ${typeName(agent)}`)
    }
    this.#agent = agent
    this.#options = options
    this.#toolkit = toolkit
  }

  /** `"idle"`, `"running"`, or how the last run ended (`"incomplete"`, `"pending"`, `"error"`). */
  get status() {
    return this.#status
  }

  /** Model calls made by every run so far. */
  get turns() {
    return this.#turns
  }

  /** Runs `prompt` under the agent's completion gate; `options.model` overrides the model for this call only. */
  async run(prompt, options = {}) {
    const spec = this.#agent.spec
    const client = createClient(this.#clientOptions(options?.model))
    this.#status = "running"
    let attempts = 0
    const ask = async (p) => {
      attempts++
      const r = await client.run(p, { toolkit: this.#toolkit, history: this.#history })
      this.#turns += r.turns
      this.#history = r.messages
      return r
    }
    try {
      const r = await runGated(ask, prompt, spec.completion)
      if (r.status && r.status !== "done") {
        this.#status = r.status
        const stoppedBy = r.limit === "completion" ? r.text : `run reported ${r.status}`
        return { text: r.text, status: r.status, stoppedBy, attempts, turns: this.#turns, result: r }
      }
      this.#status = "idle"
      return { text: r.text, status: "done", attempts, turns: this.#turns, result: r }
    } catch (e) {
      this.#status = "error"
      throw e
    }
  }

  #clientOptions(model) {
    const spec = this.#agent.spec
    const base = {
      ...this.#options,
      systemPrompt: spec.soul ?? this.#options?.systemPrompt,
      hooks: guardedHooks(spec.guardrails, spec.hooks ?? this.#options?.hooks),
    }
    // A client per run, so a per-call model is simply the client's model (metrics and results name it).
    return model ? { ...base, model } : base
  }
}
