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
