// The Level-1 surface (SPEC §7D): `agents.agent(name, spec)` is an agent: a soul, a view of the
// tools, a team, a budget. `registry()` is its reachable team graph as runtime definitions
// (guardrails compiled into `hooks` there, so a delegated child is governed too), `run` a
// one-shot run on a fresh runtime, `asTool` the agent as a uniform Tool (`source: "agent"`),
// `loop` a live execution over a client (the harness). Plain JavaScript over `AgentRuntime`.
import { defineTool, pending } from "../ts/core/index.js"
import { AgentRuntime, isVerbError } from "./agents-runtime.js"
import { ToolnexusError } from "./errors.js"
import { guardedHooks, Loop } from "./harness.js"
import { typeName } from "./stores.js"

/** The agent each projected definition came from, to refuse two agents of one name. */
const madeBy = new WeakMap()

/** `soulFile`'s text, read where the runtime has a filesystem (Node, Deno). */
function readSoulFile(name, path) {
  const nodeFs = globalThis.process?.getBuiltinModule?.("node:fs")
  const deno = globalThis.Deno
  if (!nodeFs && typeof deno?.readTextFileSync !== "function") {
    throw new ToolnexusError("unsupported", `agent "${name}": soulFile needs a filesystem (Node or Deno); in a page pass soul (agents.composeSoul reads an agent home)`)
  }
  try {
    return nodeFs ? nodeFs.readFileSync(path, "utf8") : deno.readTextFileSync(path)
  } catch (e) {
    throw new ToolnexusError("invalid_options", `agent "${name}": soulFile ${JSON.stringify(path)} could not be read: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
  }
}

/** An agent (see {@link agent}). */
export class Agent {
  constructor(name, spec) {
    if (typeof name !== "string" || name === "") {
      throw new ToolnexusError("invalid_options", `agent: name must be a non-empty string, got ${name === "" ? "an empty string" : typeName(name)}`)
    }
    if (spec === null || typeof spec !== "object" || typeof spec.does !== "string") {
      throw new ToolnexusError("invalid_options", `agent "${name}": spec must be an object with does (a string), got ${spec === null || typeof spec !== "object" ? typeName(spec) : `does: ${typeName(spec.does)}`}`)
    }
    if (spec.team !== undefined && !(Array.isArray(spec.team) && spec.team.every((a) => a instanceof Agent))) {
      throw new ToolnexusError("invalid_options", `agent "${name}": team must be an array of agents (agents.agent(...)), got ${typeName(spec.team)}`)
    }
    /** Its name: the registry key and the `task` target. */
    this.name = name
    /** The spec it was made from. */
    this.spec = spec
  }

  /** This agent and its transitive team as runtime definitions, by name (the reachable graph only). */
  registry(acc = {}) {
    const known = acc[this.name]
    if (known !== undefined) {
      if (madeBy.get(known) !== this) {
        throw new ToolnexusError("invalid_options", `agent "${this.name}": two different agents share this name in one team graph`)
      }
      return acc
    }
    const spec = this.spec
    const def = {
      name: this.name,
      does: spec.does,
      soul: spec.soulFile !== undefined ? readSoulFile(this.name, spec.soulFile) : (spec.soul ?? ""),
      model: spec.model ?? "inherit",
      tools: spec.uses?.tools,
      team: (spec.team ?? []).map((a) => a.name),
      budget: spec.budget,
      waitFor: spec.waitFor,
      onSpawn: spec.onSpawn,
      onClose: spec.onClose,
      hooks: guardedHooks(spec.guardrails, spec.hooks),
      onMetric: spec.onMetric,
      completion: spec.completion,
    }
    madeBy.set(def, this)
    acc[this.name] = def
    for (const member of spec.team ?? []) member.registry(acc)
    return acc
  }

  /** A runtime over this agent's reachable team graph. */
  createRuntime(options = {}) {
    return new AgentRuntime({ ...options, registry: this.registry() })
  }

  /**
   * One run on a fresh runtime: spawned, woken with `prompt`, waited for, and the tree closed
   * after, unless the run is pending (then it stays parked on `result.runtime`).
   */
  async run(prompt, options = {}) {
    const runtime = this.createRuntime(options)
    const h = runtime.spawn(runtime.root, this.name)
    if (isVerbError(h)) return { text: h.error, isError: true, status: "error", turns: 0, totalTokens: 0, runtime }
    const woke = runtime.wake(h, prompt)
    if (!woke.ok) return { ...(await runtime.wait(h)), runtime }
    const result = await runtime.wait(h)
    if (result.status !== "pending") await runtime.close(runtime.root)
    return { ...result, runtime }
  }

  /**
   * The agent as a Tool (`source: "agent"`, input `{prompt}`): each call is one {@link Agent.run};
   * the result is the final text with `{agent, turns, totalTokens}`. When something inside the
   * run asks and nothing there answers, the tool suspends with that request (see
   * {@link escalated}) and keeps the run parked; the call retried with the Answer resumes it.
   */
  asTool(options = {}) {
    /** Runs parked on a request, by its id, until the call is retried with its Answer. */
    const parked = new Map()
    return defineTool({
      name: this.name,
      description: this.spec.does,
      source: "agent",
      inputSchema: {
        type: "object",
        properties: { prompt: { type: "string", description: "The task for this agent" } },
        required: ["prompt"],
      },
      run: async (args, ctx) => {
        const answer = ctx?.answer
        let r
        if (answer != null) {
          const runtime = parked.get(answer.id)
          if (runtime === undefined) {
            return { output: `no run of agent "${this.name}" waits on request "${answer.id}" (it ended, or ran in another process)`, isError: true }
          }
          parked.delete(answer.id)
          try {
            r = { ...(await runtime.resume(answer)), runtime }
          } catch (e) {
            r = { text: e instanceof Error ? e.message : String(e), isError: true, status: "error", turns: 0, totalTokens: 0, runtime }
          }
          if (r.status !== "pending") await runtime.close(runtime.root)
        } else {
          r = await this.run(String(args.prompt), options)
        }
        if (r.status === "pending") {
          parked.set(r.pending.id, r.runtime)
          return pending(escalated(r.runtime, r.pending))
        }
        return { output: r.text, isError: r.isError, metadata: { agent: this.name, turns: r.turns, totalTokens: r.totalTokens } }
      },
    })
  }

  /** A live execution of this agent over client options and a toolkit (the harness's {@link Loop}). */
  loop(options, toolkit) {
    return new Loop(this, options, toolkit)
  }
}

/**
 * The request a pending run of `runtime` halted on, as the inner tool's own (same id, kind,
 * prompt, url, data), with `data.path` naming the whole chain down to the handle whose tool
 * asked (`["root", "lead.1", "researcher.1"]`) and `data.haltedCall` that call
 * (`{handle, tool, args}`, as `runtime.haltedCall(id)` gives it), so whoever answers (a
 * client's `waitFor`, its `stream()`'s `pending` event) sees which tool wants to run with
 * what.
 */
function escalated(runtime, request) {
  const halted = runtime.haltedCall(request.id)
  if (halted === undefined) return request
  const handle = halted.handle.id
  return { ...request, data: { ...request.data, path: handle.split("/"), haltedCall: { handle, tool: halted.tool, args: halted.args } } }
}

/** Defines an agent: `agents.agent("explore", { does: "read-only research", uses: { tools: [lookup] } })`. */
export function agent(name, spec) {
  return new Agent(name, spec)
}
