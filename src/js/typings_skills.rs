//! TypeScript types of skills (SPEC §3): the skill options merged into `ToolkitOptions` and
//! `listSkills`' inventory.

use wasm_bindgen::prelude::*;

/// The full build's records, generated from their declarations (`src/core/contract.rs`).
#[wasm_bindgen(typescript_custom_section)]
const RECORDS: &'static str = include_str!("records_full.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"

/** A discovered skill. */
export interface SkillInfo {
  name: string
  description?: string
  /** The path of its `SKILL.md`, or the logical base of a data skill. */
  location: string
  /** The body after the frontmatter. */
  content: string
  origin: "fs" | "logical"
  /** Data skills only. */
  resources?: string[]
  /** Data skills only. */
  base?: string
}

/** Why a candidate did not become a skill. */
export type SkillSkipReason = "missing-name" | "malformed-frontmatter" | "duplicate-name" | "unreadable"

/** A candidate that did not become a skill: where it was and why. */
export interface SkillSkip {
  location: string
  reason: SkillSkipReason
}

/** What {@link listSkills} resolves to: every valid skill (unfiltered) and every skip. */
export interface SkillInventory {
  skills: SkillInfo[]
  skipped: SkillSkip[]
}

/** The sources {@link listSkills} reads. */
export interface ListSkillsOptions {
  /** Skill directories, searched for `**\/SKILL.md` (needs a filesystem). */
  dirs?: string | string[]
  skills?: SkillDef[]
  /** More data skills, resolved once. */
  skillProvider?: () => SkillDef[] | Promise<SkillDef[]>
  /** Where `dirs` are read; the runtime's own filesystem in Node and Deno by default. */
  fs?: "node" | "deno" | MemoryFileSystem | ToolnexusFs | NodeFsPromises
}

/** The sources and shaping {@link loadSkills} reads. */
export interface LoadSkillsOptions extends ListSkillsOptions {
  /** Which skills to keep: any `true` makes it an allowlist, else `false` entries drop skills. */
  filter?: Record<string, boolean>
  /** Files listed by the `skill` tool: `0` ⇒ 10, `n > 0` ⇒ at most `n`, `-1` ⇒ no file list. */
  sampleLimit?: number
}

export interface ToolkitOptions {
  /** Skills as data. */
  skills?: SkillDef[]
  /** More data skills, resolved once when the toolkit is built; a failure is a console warning. */
  skillProvider?: () => SkillDef[] | Promise<SkillDef[]>
  /**
   * Skill directories (each searched for `**\/SKILL.md`, symlinks followed). Read through `fs`
   * when given, else the runtime's filesystem (Node, Deno); in a browser pass `fs`.
   */
  skillsDir?: string | string[]
  /** Which skills to expose: any `true` makes it an allowlist, else `false` entries drop skills. */
  skillsFilter?: Record<string, boolean>
  /** Skill names to drop (folded into `skillsFilter` as `false`; explicit entries win). */
  disableSkills?: string[]
  /** Files listed by the `skill` tool: `0` ⇒ 10, `n > 0` ⇒ at most `n`, `-1` ⇒ no file list. */
  skillSampleLimit?: number
}
"#;
