//! Agent homes (SPEC §7E): the soul composed from a home's bootstrap files (order, trimming,
//! the 2 MB cap, a failing read named), and the `memory` tool (add, replace, remove, the
//! target, a missing text as an error result), on the in-memory filesystem and on a real
//! temporary directory. Then the reference's `persona-agent` fixture (H1–H3), when
//! `../shared/conformance` is beside the project.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::builtins_support;

use builtins_support::*;
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::fs::{DirEntry, EntryKind, Fs, FsError, FsFuture, MemoryFs, SharedFs};
use toolnexus::core::home::{compose_soul, memory_tool, Soul, MAX_FILE_BYTES, TRUNCATION_NOTICE};
use toolnexus::core::tool::Tool;
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

fn soul(fs: &dyn Fs, dir: &str) -> Soul {
    block_on(compose_soul(fs, dir)).unwrap()
}

fn memory(fs: &SharedFs, dir: &str, args: Value) -> ToolResult {
    block_on(memory_tool(fs.clone(), dir).execute(args, Default::default()))
}

#[test]
fn the_soul_is_the_present_bootstrap_files_in_order_each_trimmed() {
    for case in both() {
        // Written out of order, with a file that is no bootstrap file and a directory named like one.
        case.put("ava/MEMORY.md", "- Onboarded 2026-07.\n\n");
        case.put("ava/notes.md", "not part of the soul");
        case.put("ava/SOUL.md", "\n  You are Ava.  \n");
        case.put("ava/TOOLS.md/inner.md", "a directory, skipped");
        case.put("ava/USER.md", "The user is Muthu.");
        let got = soul(case.fs.as_ref(), &format!("{}/ava", case.root));
        assert_eq!(
            got.found,
            ["SOUL.md", "USER.md", "MEMORY.md"],
            "{}",
            case.label
        );
        assert_eq!(
            got.soul,
            "## SOUL.md\n\nYou are Ava.\n\n## USER.md\n\nThe user is Muthu.\n\n## MEMORY.md\n\n- Onboarded 2026-07."
        );
        let empty = soul(case.fs.as_ref(), &format!("{}/nobody", case.root));
        assert_eq!((empty.soul.as_str(), empty.found.len()), ("", 0));
    }
}

#[test]
fn a_bootstrap_file_over_2_mb_enters_cut_with_the_notice_and_stays_whole() {
    let fs = MemoryFs::new();
    let big = "ab".repeat(MAX_FILE_BYTES); // 4 MiB
    block_on(fs.write("/p/SOUL.md", &big)).unwrap();
    let got = soul(&fs, "/p");
    let expected = format!(
        "## SOUL.md\n\n{}{TRUNCATION_NOTICE}",
        &big[..MAX_FILE_BYTES]
    );
    assert_eq!(got.soul.len(), expected.len());
    assert!(got.soul == expected);
    assert_eq!(
        block_on(fs.read("/p/SOUL.md")).unwrap().len(),
        big.len(),
        "the file is untouched"
    );
}

/// A filesystem whose reads fail with an I/O error.
struct Broken;
impl Fs for Broken {
    fn read(&self, _: &str) -> FsFuture<String> {
        Box::pin(async { Err(FsError::Other("EACCES: permission denied".into())) })
    }
    fn write(&self, _: &str, _: &str) -> FsFuture<()> {
        Box::pin(async { Err(FsError::Other("read-only".into())) })
    }
    fn remove(&self, _: &str) -> FsFuture<()> {
        Box::pin(async { Ok(()) })
    }
    fn list(&self, _: &str) -> FsFuture<Vec<DirEntry>> {
        Box::pin(async { Ok(Vec::new()) })
    }
    fn kind(&self, _: &str) -> FsFuture<Option<EntryKind>> {
        Box::pin(async { Ok(None) })
    }
    fn real_path(&self, p: &str) -> FsFuture<String> {
        let p = p.to_owned();
        Box::pin(async move { Ok(p) })
    }
    fn cwd(&self) -> String {
        "/".into()
    }
}

#[test]
fn a_bootstrap_file_that_cannot_be_read_is_an_error_naming_it() {
    assert_eq!(
        block_on(compose_soul(&Broken, "/p")).unwrap_err(),
        "reading /p/AGENTS.md: EACCES: permission denied"
    );
    let fs: SharedFs = Rc::new(Broken);
    let r = memory(&fs, "/p", json!({"action": "add", "text": "x"}));
    assert_eq!(
        (r.is_error, r.output.as_str()),
        (true, "memory: EACCES: permission denied")
    );
}

#[test]
fn memory_adds_replaces_and_removes_in_the_file_only() {
    for case in both() {
        let dir = format!("{}/home", case.root);
        let fs = &case.fs;
        let add = memory(fs, &dir, json!({"action": "add", "text": "Likes hiking"}));
        assert_eq!(
            (add.is_error, add.output.as_str()),
            (false, "ok (add → MEMORY.md); loads next session")
        );
        assert_eq!(
            case.get("home/MEMORY.md").as_deref(),
            Some("- Likes hiking\n"),
            "{}",
            case.label
        );
        memory(
            fs,
            &dir,
            json!({"action": "add", "text": "Drinks green tea"}),
        );
        assert_eq!(
            case.get("home/MEMORY.md").as_deref(),
            Some("- Likes hiking\n- Drinks green tea\n")
        );
        let swap = memory(
            fs,
            &dir,
            json!({"action": "replace", "text": "green tea", "with": "oolong"}),
        );
        assert_eq!(swap.output, "ok (replace → MEMORY.md); loads next session");
        memory(
            fs,
            &dir,
            json!({"action": "remove", "text": "- Likes hiking\n"}),
        );
        assert_eq!(
            case.get("home/MEMORY.md").as_deref(),
            Some("- Drinks oolong\n")
        );

        let miss = memory(fs, &dir, json!({"action": "remove", "text": "nonexistent"}));
        assert_eq!(
            (miss.is_error, miss.output.as_str()),
            (true, "not found: nonexistent")
        );
        assert_eq!(
            case.get("home/MEMORY.md").as_deref(),
            Some("- Drinks oolong\n"),
            "a miss writes nothing"
        );
        // `$&` is text here, not a replacement pattern.
        memory(
            fs,
            &dir,
            json!({"action": "replace", "text": "oolong", "with": "$& tea"}),
        );
        assert_eq!(
            case.get("home/MEMORY.md").as_deref(),
            Some("- Drinks $& tea\n")
        );

        let user = memory(
            fs,
            &dir,
            json!({"action": "add", "target": "user", "text": "Speaks Tamil"}),
        );
        assert_eq!(user.output, "ok (add → USER.md); loads next session");
        assert_eq!(
            case.get("home/USER.md").as_deref(),
            Some("- Speaks Tamil\n")
        );
    }
}

#[test]
fn memory_checks_its_arguments_through_the_toolkit() {
    use toolnexus::core::toolkit::{Sources, Toolkit};
    let fs: SharedFs = Rc::new(MemoryFs::new());
    let tool: Rc<dyn Tool> = Rc::new(memory_tool(fs, "/h"));
    let sources = Sources {
        extras: vec![tool],
        ..Sources::default()
    };
    let (kit, _) = Toolkit::assemble(sources);
    let run = |args| block_on(kit.execute("memory", args, Default::default()));
    let bad = run(json!({"action": "forget", "text": "x"}));
    assert!(
        bad.is_error && bad.output.contains("Invalid arguments"),
        "{}",
        bad.output
    );
    let missing = run(json!({"action": "add"}));
    assert!(
        missing.is_error && missing.output.contains("text"),
        "{}",
        missing.output
    );
    assert_eq!(kit.tools()[0].spec().source, "builtin");
}

/// The `persona-agent` fixture's home, written into a filesystem.
#[cfg(shared_conformance)]
fn fixture() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/conformance/persona-agent/fixture.json"
    );
    let text = std::fs::read_to_string(path).unwrap();
    toolnexus::core::json::parse::from_str(&text).unwrap()
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn persona_agent_fixture_h1_to_h3() {
    #[cfg(shared_conformance)]
    {
        let fixture = fixture();
        let order: Vec<&str> = fixture["bootstrapOrder"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(order, toolnexus::core::home::BOOTSTRAP_ORDER);
        assert_eq!(
            fixture["maxFileBytes"].as_u64(),
            Some(MAX_FILE_BYTES as u64)
        );
        let fs = MemoryFs::new();
        for (name, text) in fixture["bootstrapDir"].as_object().unwrap().iter() {
            block_on(fs.write(&format!("/ava/{name}"), text.as_str().unwrap())).unwrap();
        }
        let expect = &fixture["expect"];
        let found: Vec<&str> = expect["H1_composedSoulSectionsInOrder"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let got = soul(&fs, "/ava");
        assert_eq!(got.found, found);
        assert!(got
            .soul
            .contains("## SOUL.md\n\nYou are Ava, a calm support assistant."));

        let shared: SharedFs = Rc::new(fs);
        let user = memory(
            &shared,
            "/ava",
            json!({"action": "add", "target": "user", "text": "Prefers dark roast"}),
        );
        assert_eq!(expect["H3_targetUserWritesUSERmd"], json!(!user.is_error));
        let read = |file: &str| block_on(shared.read(&format!("/ava/{file}"))).unwrap();
        assert_eq!(
            read("USER.md"),
            "The user is Muthu; timezone IST.\n- Prefers dark roast\n"
        );
        assert!(
            soul(shared.as_ref(), "/ava")
                .soul
                .contains("Prefers dark roast"),
            "the next session's snapshot carries it"
        );
        let miss = memory(
            &shared,
            "/ava",
            json!({"action": "replace", "text": "absent", "with": "x"}),
        );
        assert_eq!(
            expect["H3_missingSubstringIsLoudError"],
            json!(miss.is_error)
        );
        memory(
            &shared,
            "/ava",
            json!({"action": "replace", "text": "Onboarded", "with": "Joined"}),
        );
        assert_eq!(
            expect["H3_memoryReplaceSwapsSubstring"],
            json!(read("MEMORY.md").contains("- Joined 2026-07."))
        );
        memory(
            &shared,
            "/ava",
            json!({"action": "remove", "text": "- Joined 2026-07."}),
        );
        assert_eq!(
            expect["H3_memoryRemoveDeletesEntry"],
            json!(!read("MEMORY.md").contains("Joined"))
        );
        let big = "x".repeat(MAX_FILE_BYTES + 10);
        block_on(shared.write("/big/SOUL.md", &big)).unwrap();
        assert_eq!(
            expect["H2_over2MBFileTruncatedWithNotice"],
            json!(soul(shared.as_ref(), "/big")
                .soul
                .ends_with(TRUNCATION_NOTICE))
        );
    }
}

/// A filesystem over a [`MemoryFs`] whose writes to `fail_at` store only the first half of the
/// text, then fail (a full disk, a quota, a crash mid-write); with `renames` false it has no
/// [`Fs::rename`], as a host `ToolnexusFs` without one.
struct Faulty {
    inner: MemoryFs,
    fail_at: Option<String>,
    renames: bool,
}

impl Fs for Faulty {
    fn read(&self, p: &str) -> FsFuture<String> {
        self.inner.read(p)
    }
    fn write(&self, p: &str, text: &str) -> FsFuture<()> {
        if self.fail_at.as_deref() == Some(p) {
            let _ = self.inner.write_sync(p, &text[..text.len() / 2]);
            return Box::pin(async {
                Err(FsError::Other("ENOSPC: no space left on device".into()))
            });
        }
        self.inner.write(p, text)
    }
    fn remove(&self, p: &str) -> FsFuture<()> {
        self.inner.remove(p)
    }
    fn rename(&self, from: &str, to: &str) -> Option<FsFuture<()>> {
        self.renames.then(|| self.inner.rename(from, to)).flatten()
    }
    fn list(&self, p: &str) -> FsFuture<Vec<DirEntry>> {
        self.inner.list(p)
    }
    fn kind(&self, p: &str) -> FsFuture<Option<EntryKind>> {
        self.inner.kind(p)
    }
    fn real_path(&self, p: &str) -> FsFuture<String> {
        self.inner.real_path(p)
    }
    fn cwd(&self) -> String {
        "/".into()
    }
}

#[test]
fn a_memory_write_that_fails_leaves_the_previous_file_whole() {
    let before = "- Likes hiking\n- Drinks green tea\n";
    for renames in [true, false] {
        let inner = MemoryFs::new();
        inner.write_sync("/h/MEMORY.md", before).unwrap();
        let fs: SharedFs = Rc::new(Faulty {
            inner: inner.clone(),
            fail_at: Some("/h/.MEMORY.md.tmp".into()),
            renames,
        });
        for args in [
            json!({"action": "add", "text": "Speaks Tamil"}),
            json!({"action": "replace", "text": "green tea", "with": "oolong"}),
            json!({"action": "remove", "text": "- Likes hiking\n"}),
        ] {
            let r = memory(&fs, "/h", args);
            assert_eq!(
                (r.is_error, r.output.as_str()),
                (
                    true,
                    "memory: MEMORY.md was not changed: ENOSPC: no space left on device"
                ),
                "renames: {renames}"
            );
            assert_eq!(inner.read_sync("/h/MEMORY.md").unwrap(), before);
            assert_eq!(inner.paths(), ["/h/MEMORY.md"], "no temporary file is left");
        }
    }
}

#[test]
fn a_memory_edit_moves_its_temporary_file_over_the_old_one_with_or_without_rename() {
    for renames in [true, false] {
        let inner = MemoryFs::new();
        inner
            .write_sync("/h/MEMORY.md", "- Likes hiking\n")
            .unwrap();
        let fs: SharedFs = Rc::new(Faulty {
            inner: inner.clone(),
            fail_at: None,
            renames,
        });
        let r = memory(&fs, "/h", json!({"action": "add", "text": "Speaks Tamil"}));
        assert!(!r.is_error, "{}", r.output);
        assert_eq!(
            inner.read_sync("/h/MEMORY.md").unwrap(),
            "- Likes hiking\n- Speaks Tamil\n"
        );
        assert_eq!(inner.paths(), ["/h/MEMORY.md"], "renames: {renames}");
    }
}
