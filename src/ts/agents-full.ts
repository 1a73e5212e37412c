// The full build's `agents` namespace: the lean build's (context compaction, SPEC §7F) plus
// agent homes (SPEC §7E), whose files are read and written through a filesystem.
import * as module from "#glue-full"
import { ToolnexusError } from "../js/errors.js"
import type { Tool } from "./core/index.js"
import { checked } from "./core/instance.js"
import type { IndexedDbFileSystem, MemoryFileSystem } from "./index.js"
import type { NodeFsPromises, ToolnexusFs } from "./types.js"

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
