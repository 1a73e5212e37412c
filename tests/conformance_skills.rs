//! Conformance: the reference's `hello-world` skill fixture, read from
//! `../shared/conformance/skills` (beside the project root) through a filesystem over
//! `std::fs`. The `skill` tool output and the prompt must be what the reference produces for
//! it. Skipped, saying so, when the folder is absent (a plain clone).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

use crate::skills_common;

use std::path::Path;

use skills_common::{call, dirs, load_now};
use toolnexus::core::skills::paths::join;

const BODY: &str = "# Hello World Skill

This is the skill body. When the model calls the `skill` tool with
`{ \"name\": \"hello-world\" }`, everything below the frontmatter is injected into the
conversation, along with a sampled list of files in this directory.

## Steps

1. Read `scripts/greet.sh` in this skill's base directory.
2. Run it with the user's name.
3. Report the greeting back.

Relative paths (like `scripts/greet.sh`) are resolved against the base directory
printed in the tool output.";

const DESCRIPTION: &str = "A tiny example skill. Use when you want to see how skill loading (progressive disclosure) works end to end.";

/// The fixture root as the reference's `path.join` names it (normalized, not resolved).
/// Present whenever the test runs: without `../shared/conformance` it is ignored (`build.rs`).
fn root() -> String {
    let root = join(env!("CARGO_MANIFEST_DIR"), "../shared/conformance/skills");
    assert!(
        Path::new(&root).join("hello-world/SKILL.md").is_file(),
        "{root}/hello-world/SKILL.md is missing from the shared fixtures"
    );
    root
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn hello_world_skill_tool_output_matches_the_reference() {
    let root = root();
    let (set, warnings) = load_now(dirs(&[&root]));
    assert!(warnings.is_empty(), "{warnings:?}");
    let dir = format!("{root}/hello-world");
    let expected = format!(
        "<skill_content name=\"hello-world\">\n# Skill: hello-world\n\n{BODY}\n\nBase directory for this skill: file://{dir}\nRelative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.\nNote: file list is sampled.\n\n<skill_files>\n<file>{dir}/scripts/greet.sh</file>\n</skill_files>\n</skill_content>"
    );
    let out = call(&set, "hello-world");
    assert!(!out.is_error);
    assert_eq!(out.output, expected);
    assert_eq!(set.skills()[0].location, format!("{dir}/SKILL.md"));
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn hello_world_prompt_matches_the_reference() {
    let root = root();
    let (set, _) = load_now(dirs(&[&root]));
    assert_eq!(
        set.prompt(),
        format!("Skills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.\n\n## Available Skills\n- **hello-world**: {DESCRIPTION}")
    );
    assert_eq!(
        call(&set, "nope").output,
        "Skill \"nope\" not found. Available skills: hello-world"
    );
}
