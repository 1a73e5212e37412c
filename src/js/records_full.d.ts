// Generated from the records' declarations (src/core/contract.rs): do not edit.

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
