//! Directory skills over a filesystem: recursive `**/SKILL.md`, symlinks followed without
//! looping, skipped folders, typed skips, several roots, and the `skill` tool's `file://` output
//! byte-exact to the reference port.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use crate::skills_common;

use std::rc::Rc;

use skills_common::{call, dirs, load_now, TempDir};
use toolnexus::core::fs::MemoryFs;
use toolnexus::core::skills::{list, SkillDef, SkillsConfig, SkipReason};

const RELATIVE: &str =
    "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.";

fn alpha(dir: &TempDir) {
    dir.file(
        "skills/alpha/SKILL.md",
        "---\nname: alpha\ndescription: >\n  Does alpha\n  things.\n---\n\n# Alpha\n\nRun `scripts/run.sh`.\n\n",
    )
    .file("skills/alpha/README.md", "readme")
    .file("skills/alpha/scripts/run.sh", "#!/bin/sh")
    .file("skills/alpha/ref/notes.md", "notes");
}

#[test]
fn a_directory_skill_renders_its_file_base_and_sampled_files() {
    let dir = TempDir::new("dir-render");
    alpha(&dir);
    let root = dir.path("skills");
    let (set, warnings) = load_now(dirs(&[&root]));
    assert!(warnings.is_empty(), "{warnings:?}");
    let out = call(&set, "alpha");
    let base = dir.path("skills/alpha");
    assert_eq!(
        out.output,
        format!(
            "<skill_content name=\"alpha\">\n# Skill: alpha\n\n# Alpha\n\nRun `scripts/run.sh`.\n\nBase directory for this skill: file://{base}\n{RELATIVE}\nNote: file list is sampled.\n\n<skill_files>\n<file>{base}/README.md</file>\n<file>{base}/scripts/run.sh</file>\n<file>{base}/ref/notes.md</file>\n</skill_files>\n</skill_content>"
        )
    );
    let metadata = serde_json::to_value(&out.metadata).unwrap();
    assert_eq!(metadata, toolnexus::json!({"name": "alpha", "dir": base}));
    assert_eq!(set.skills()[0].location, format!("{base}/SKILL.md"));
    assert_eq!(
        set.prompt().lines().last(),
        Some("- **alpha**: Does alpha things.")
    );
}

#[test]
fn the_sample_limit_caps_or_omits_the_directory_files() {
    let dir = TempDir::new("dir-limit");
    alpha(&dir);
    let root = dir.path("skills");
    let base = dir.path("skills/alpha");
    let with = |limit| {
        let config = SkillsConfig {
            sample_limit: limit,
            ..dirs(&[&root])
        };
        call(&load_now(config).0, "alpha").output
    };
    assert!(with(2).contains(&format!(
        "<skill_files>\n<file>{base}/README.md</file>\n<file>{base}/scripts/run.sh</file>\n</skill_files>"
    )));
    let omitted = with(-1);
    assert!(omitted.ends_with(&format!("file://{base}\n{RELATIVE}\n</skill_content>")));
}

#[test]
fn a_directory_skill_with_no_other_files_keeps_an_empty_block() {
    let dir = TempDir::new("dir-empty");
    dir.file("s/only/SKILL.md", "---\nname: only\n---\nBody");
    let (set, _) = load_now(dirs(&[&dir.path("s")]));
    assert!(call(&set, "only").output.ends_with(
        "Note: file list is sampled.\n\n<skill_files>\n\n</skill_files>\n</skill_content>"
    ));
}

#[test]
fn discovery_is_recursive_and_skips_node_modules_and_git() {
    let dir = TempDir::new("dir-recursive");
    dir.file("s/top/SKILL.md", "---\nname: top\n---\n")
        .file("s/group/deeper/nested/SKILL.md", "---\nname: nested\n---\n")
        .file("s/node_modules/pkg/SKILL.md", "---\nname: vendored\n---\n")
        .file("s/.git/SKILL.md", "---\nname: git\n---\n")
        .file("s/SKILL.md", "---\nname: at-root\n---\n");
    let (set, _) = load_now(dirs(&[&dir.path("s")]));
    let mut names: Vec<_> = set.skills().iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["at-root", "nested", "top"]);
}

#[test]
fn symlinked_directories_and_files_are_followed_and_cycles_end() {
    let outside = TempDir::new("dir-outside");
    outside.file("shared/SKILL.md", "---\nname: shared\n---\nShared body");
    outside.file("loose.md", "---\nname: loose\n---\n");
    let dir = TempDir::new("dir-links");
    dir.file("s/own/SKILL.md", "---\nname: own\n---\n")
        .link("s/linked", &outside.path("shared"))
        .link("s/file-link/SKILL.md", &outside.path("loose.md"))
        .link("s/own/loop", &dir.path("s"))
        .link("s/own/up", "..");
    let root = dir.path("s");
    let (set, warnings) = load_now(dirs(&[&root]));
    assert!(
        warnings.is_empty(),
        "no duplicates from the cycles: {warnings:?}"
    );
    let mut names: Vec<_> = set.skills().iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["loose", "own", "shared"]);
    let shared = set.skills().iter().find(|s| s.name == "shared").unwrap();
    assert_eq!(shared.location, format!("{root}/linked/SKILL.md"));
    let out = call(&set, "own").output;
    assert!(out.contains("<skill_files>\n\n</skill_files>"), "{out}");
}

#[test]
fn skips_are_typed_and_directories_come_before_data() {
    let dir = TempDir::new("dir-skips");
    dir.file("s/a/SKILL.md", "---\nname: a\n---\n")
        .file("s/b/SKILL.md", "---\nname: [broken\n---\n")
        .file("s/c/SKILL.md", "---\ndescription: no name\n---\n")
        .file("s/d/SKILL.md", "no frontmatter at all")
        .file("s/e/SKILL.md", "---\nname: a\n---\n");
    std::fs::create_dir_all(dir.0.join("s/f")).unwrap();
    std::fs::write(dir.0.join("s/f/SKILL.md"), [0xff, 0xfe, 0x00]).unwrap();
    let config = SkillsConfig {
        defs: vec![SkillDef::new("a", "data", "")],
        filter: vec![("a".into(), false)],
        ..dirs(&[&dir.path("s")])
    };
    let (inventory, _) = futures_executor::block_on(list(&config));
    assert_eq!(inventory.skills.len(), 1, "unfiltered");
    // The walk is the reference's stack: subdirectories listed a..f are visited f..a.
    assert_eq!(inventory.skills[0].location, dir.path("s/e/SKILL.md"));
    let skipped: Vec<_> = inventory
        .skipped
        .iter()
        .map(|s| (s.location.clone(), s.reason))
        .collect();
    let at = |rel: &str| dir.path(rel);
    assert_eq!(
        skipped,
        [
            (at("s/f/SKILL.md"), SkipReason::Unreadable),
            (at("s/d/SKILL.md"), SkipReason::MissingName),
            (at("s/c/SKILL.md"), SkipReason::MissingName),
            (at("s/b/SKILL.md"), SkipReason::MalformedFrontmatter),
            (at("s/a/SKILL.md"), SkipReason::DuplicateName),
            ("skill://a/".to_owned(), SkipReason::DuplicateName),
        ]
    );
}

#[test]
fn several_roots_are_searched_in_order_and_a_missing_one_warns() {
    let one = TempDir::new("dir-root-one");
    let two = TempDir::new("dir-root-two");
    one.file("x/SKILL.md", "---\nname: x\ndescription: from one\n---\n");
    two.file("x/SKILL.md", "---\nname: x\ndescription: from two\n---\n")
        .file("y/SKILL.md", "---\nname: y\n---\n");
    let missing = one.path("nope");
    let (set, warnings) = load_now(dirs(&[&one.path(""), &missing, &two.path("")]));
    let got: Vec<_> = set
        .skills()
        .iter()
        .map(|s| (s.name.as_str(), s.description.as_deref()))
        .collect();
    assert_eq!(got, [("x", Some("from one")), ("y", None)]);
    assert_eq!(warnings[0], format!("skills dir not found: {missing}"));
    assert!(warnings[1].starts_with("duplicate skill name \"x\""));
}

#[test]
fn a_relative_root_keeps_relative_paths_and_a_file_url_against_the_cwd() {
    let fs = MemoryFs::with_cwd("/work/my app");
    fs.write_sync(
        "/work/my app/skills/tool/SKILL.md",
        "---\nname: tool\n---\nUse it.",
    )
    .unwrap();
    fs.write_sync("/work/my app/skills/tool/bin/run #1.sh", "echo")
        .unwrap();
    let config = SkillsConfig {
        dirs: vec!["./skills/".into()],
        fs: Some(Rc::new(fs)),
        ..SkillsConfig::default()
    };
    let (set, _) = load_now(config);
    assert_eq!(set.skills()[0].location, "skills/tool/SKILL.md");
    assert_eq!(
        call(&set, "tool").output,
        format!("<skill_content name=\"tool\">\n# Skill: tool\n\nUse it.\n\nBase directory for this skill: file:///work/my%20app/skills/tool\n{RELATIVE}\nNote: file list is sampled.\n\n<skill_files>\n<file>skills/tool/bin/run #1.sh</file>\n</skill_files>\n</skill_content>")
    );
}
