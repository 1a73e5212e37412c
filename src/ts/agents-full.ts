// The full build's `agents` namespace: the lean build's (context compaction, SPEC §7F) plus
// agent homes (SPEC §7E), whose files are read and written through a filesystem.
import * as module from "#glue-full"
import { ToolnexusError } from "../js/errors.js"
import type { Tool } from "./core/index.js"
import { checked } from "./core/instance.js"
import type { IndexedDbFileSystem, MemoryFileSystem } from "./index.js"
import type { NodeFsPromises, ToolnexusFs } from "./types.js"

import { agent, isVerbError, type Agent, type AgentRunOptions, type AgentRuntime } from "../js/agents-tree.js"

export * from "../js/agents.js"
export * from "../js/agents-tree.js"

const glue = checked(module)

/** The bootstrap files of an agent home, in the order they enter its soul: identity first, durable memory last. */
export const BOOTSTRAP_ORDER = ["AGENTS.md", "SOUL.md", "IDENTITY.md", "USER.md", "TOOLS.md", "HEARTBEAT.md", "MEMORY.md"] as const

/** The largest part of one bootstrap file that enters a soul, in bytes (the file is never changed). */
export const MAX_FILE_BYTES = 2 * 1024 * 1024

/** What follows a bootstrap file cut at {@link MAX_FILE_BYTES}. */
export const TRUNCATION_NOTICE = "\n[truncated: exceeds 2 MB bootstrap cap]"

/** A heartbeat reply holding this says nothing needs attention, and surfaces nothing. */
export const HEARTBEAT_OK = "HEARTBEAT_OK"

/** The prompt a heartbeat wakes a persona with. */
export const HEARTBEAT_PROMPT = `Heartbeat. Read your HEARTBEAT.md section and follow it. If nothing needs attention, reply ${HEARTBEAT_OK}.`

/** Where an agent home's files are. */
export interface HomeOptions {
  /**
   * The home's filesystem, as `createToolkit` takes `fs`; by default the runtime's own in Node
   * and Deno. A page has none: pass an {@link IndexedDbFileSystem} (the home outlives the tab)
   * or a {@link MemoryFileSystem}.
   */
  fs?: "memory" | "node" | "deno" | MemoryFileSystem | ToolnexusFs | NodeFsPromises
}

/** A composed soul: the system prompt, and the bootstrap files it holds. */
export interface ComposedSoul {
  /** Each present file as `## <name>\n\n<its trimmed text>`, joined by a blank line. */
  soul: string
  /** The files found, in {@link BOOTSTRAP_ORDER}. */
  found: string[]
}

function directory(dir: unknown, what: string): string {
  if (typeof dir !== "string" || dir === "") {
    throw new ToolnexusError("invalid_argument", `${what}: dir must be a non-empty string, got ${dir === "" ? "an empty string" : typeof dir}`)
  }
  return dir
}

/**
 * The soul of the agent home at `dir` (SPEC §7E): its bootstrap files present, in
 * {@link BOOTSTRAP_ORDER}, each as a `## <file>` section (at most {@link MAX_FILE_BYTES} of it,
 * then {@link TRUNCATION_NOTICE}). A missing file is skipped; one that cannot be read rejects
 * with code `"store"`, naming it.
 *
 * ```js
 * const { soul, found } = await agents.composeSoul("/personas/ava", { fs: new IndexedDbFileSystem() })
 * const client = createClient({ baseUrl, style: "openai", model, systemPrompt: soul })
 * ```
 */
export function composeSoul(dir: string, options?: HomeOptions): Promise<ComposedSoul> {
  try {
    return glue.__composeSoul(directory(dir, "composeSoul"), options?.fs)
  } catch (e) {
    return Promise.reject(e)
  }
}

/**
 * The `memory` tool of the agent home at `dir` (SPEC §7E): `add` appends `- <text>` to
 * `MEMORY.md` (or `USER.md` with `target: "user"`), `replace` swaps the first `text` for
 * `with`, `remove` deletes it; a `text` not there is an error result. It writes the file only:
 * the change reaches the soul of the next session, never the live prompt.
 *
 * ```js
 * const toolkit = await createToolkit({ extraTools: [agents.memoryTool("/personas/ava", { fs })] })
 * ```
 */
export function memoryTool(dir: string, options?: HomeOptions): Tool {
  return glue.__memoryTool(directory(dir, "memoryTool"), options?.fs) as Tool
}

/** Options of {@link fromDir}. */
export interface FromDirOptions extends HomeOptions {
  /** What the persona does (what a delegating model reads); default `persona agent from <dir>`. */
  does?: string
  /** Its name; default the directory's last segment. */
  name?: string
  /** Its model; default `"inherit"` (the runtime's). */
  model?: string
  /** Tools beside the `memory` tool. */
  tools?: Tool[]
  /** `false` leaves the `memory` tool out (a read-only persona). */
  memory?: boolean
}

/**
 * The agent an agent home is (SPEC §7E): its soul composed from the bootstrap files in `dir`
 * (a snapshot, frozen for the agent's life), and, unless `memory: false`, the `memory` tool
 * over the same directory. A promise, unlike the reference's, since a page's filesystem
 * (IndexedDB) is asynchronous.
 *
 * ```js
 * const ava = await agents.fromDir("/personas/ava", { fs: new IndexedDbFileSystem() })
 * const r = await ava.run("Good morning", { llm: { baseUrl, style: "openai", model } })
 * ```
 */
export async function fromDir(dir: string, options: FromDirOptions = {}): Promise<Agent> {
  const home = directory(dir, "fromDir")
  const { soul } = await composeSoul(home, { fs: options.fs })
  const tools = [...(options.tools ?? [])]
  if (options.memory !== false) tools.push(memoryTool(home, { fs: options.fs }))
  const name = options.name ?? (home.replace(/[\\/]+$/, "").split(/[\\/]/).pop() || "persona")
  return agent(name, { does: options.does ?? `persona agent from ${home}`, soul, model: options.model ?? "inherit", uses: { tools } })
}

/** Options of {@link startAgent}. */
export interface HeartbeatOptions {
  /** Milliseconds between beats on the runtime's clock; at least 1000. */
  everyMs: number
  /** Hears each substantive beat (a reply holding {@link HEARTBEAT_OK} is silent). */
  onBeat?: (text: string) => void
  /** Stops the heartbeat and closes the persona when it aborts. */
  signal?: AbortSignal
}

/** A persona on a heartbeat (see {@link startAgent}). */
export interface StartedAgent {
  /** Its runtime: `post` / `wake` its handle to deliver events. */
  runtime: AgentRuntime
  /** The substantive beats so far. */
  beats: string[]
  /** Stops the heartbeat and closes the persona's tree. */
  stop(): Promise<void>
}

/**
 * Gives a persona its own clock (SPEC §7E): every `everyMs` on the runtime's clock it posts a
 * tick to its inbox (the unsolicited rail, where ticks coalesce into one counted entry, so a
 * slow beat or a frozen page never piles them up) and, when the persona is idle, wakes it with
 * {@link HEARTBEAT_PROMPT}. A reply holding {@link HEARTBEAT_OK} is silent; any other is a
 * beat (`onBeat`, `beats`). `stop()` or `signal` ends it and closes the tree. An `everyMs`
 * under 1000 throws `invalid_options`.
 *
 * ```js
 * const ava = await agents.fromDir("/personas/ava", { fs })
 * const started = agents.startAgent(ava, { llm }, { everyMs: 30 * 60_000, onBeat: show })
 * ```
 */
export function startAgent(persona: Agent, run: AgentRunOptions, heartbeat: HeartbeatOptions): StartedAgent {
  const everyMs = heartbeat?.everyMs
  if (typeof everyMs !== "number" || !Number.isFinite(everyMs) || everyMs < 1000) {
    throw new ToolnexusError("invalid_options", `startAgent: everyMs must be a number of milliseconds, at least 1000, got ${typeof everyMs === "number" ? everyMs : typeof everyMs}`)
  }
  const runtime = persona.createRuntime(run)
  const handle = runtime.spawn(runtime.root, persona.name)
  if (isVerbError(handle)) throw new ToolnexusError("invalid_options", `startAgent: ${handle.error}`)
  const beats: string[] = []
  let stopped = false
  let cancel: (() => void) | undefined
  const beat = (): void => {
    if (stopped) return
    runtime.post(handle, { from: "clock", channel: "timer", text: "tick" })
    if (handle.state === "idle" && runtime.wake(handle, HEARTBEAT_PROMPT).ok) {
      void runtime.wait(handle).then((r) => {
        if (stopped || r.isError || r.text.includes(HEARTBEAT_OK)) return
        beats.push(r.text)
        try {
          heartbeat.onBeat?.(r.text)
        } catch (e) {
          console.warn(`[toolnexus] startAgent: onBeat threw: ${e instanceof Error ? e.message : String(e)}`)
        }
      })
    }
    cancel = runtime.clock.setTimeout(beat, everyMs) // one live timer: each beat schedules the next
  }
  cancel = runtime.clock.setTimeout(beat, everyMs)
  const stop = async (): Promise<void> => {
    if (stopped) return
    stopped = true
    cancel?.()
    await runtime.close(runtime.root)
  }
  const signal = heartbeat.signal
  if (signal?.aborted) void stop()
  else signal?.addEventListener("abort", () => void stop(), { once: true })
  return { runtime, beats, stop }
}
