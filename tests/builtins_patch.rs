//! `apply_patch`: the grammar, add / update / delete / move, and atomicity (a failing hunk or
//! a failing write leaves every file as it was).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::builtins_support;

use builtins_support::*;
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::builtins::patch::{apply_hunks, parse, Hunk, Op};
use toolnexus::core::fs::{DirEntry, EntryKind, Fs, FsError, FsFuture, MemoryFs};
use toolnexus::json;

fn patch(kit: &Kit, text: &str) -> toolnexus::core::types::ToolResult {
    kit.run("apply_patch", json!({"patchText": text}))
}

#[test]
fn the_grammar_parses_every_operation() {
    let text = "\n*** Begin Patch\n*** Add File: new.txt\n+line one\n+line two\n*** Update File: old.txt\n*** Move to: moved.txt\n@@ fn main\n context\n-gone\n+added\n\n*** Delete File: dead.txt\n*** End Patch\n";
    let ops = parse(text).unwrap();
    assert_eq!(
        ops[0],
        Op::Add {
            path: "new.txt".into(),
            content: "line one\nline two".into()
        }
    );
    let hunk = Hunk {
        anchor: Some("fn main".into()),
        old: vec!["context".into(), "gone".into()],
        new: vec!["context".into(), "added".into()],
    };
    assert_eq!(
        ops[1],
        Op::Update {
            path: "old.txt".into(),
            move_to: Some("moved.txt".into()),
            hunks: vec![hunk]
        }
    );
    assert_eq!(
        ops[2],
        Op::Delete {
            path: "dead.txt".into()
        }
    );
}

#[test]
fn malformed_patches_are_refused() {
    assert_eq!(
        parse("*** Add File: x\n").unwrap_err(),
        "missing '*** Begin Patch'"
    );
    assert_eq!(
        parse("*** Begin Patch\n*** Add File: x\n+y").unwrap_err(),
        "missing '*** End Patch'"
    );
    let odd = parse("*** Begin Patch\nhello\n*** End Patch").unwrap_err();
    assert_eq!(odd, "unexpected line: hello");
}

#[test]
fn hunks_apply_in_order_and_a_bare_insertion_appends() {
    let h = |old: &[&str], new: &[&str]| Hunk {
        anchor: None,
        old: old.iter().map(|s| s.to_string()).collect(),
        new: new.iter().map(|s| s.to_string()).collect(),
    };
    let text = "x\na\nx\nb";
    let out = apply_hunks(text, &[h(&["a", "x"], &["a", "X1"]), h(&["x"], &["X2"])]).unwrap();
    assert_eq!(out, "X2\na\nX1\nb");
    assert_eq!(apply_hunks("a", &[h(&[], &["b"])]).unwrap(), "a\nb");
    assert_eq!(apply_hunks("a\n", &[h(&[], &["b"])]).unwrap(), "a\nb");
    let anchored = Hunk {
        anchor: Some("two".into()),
        ..h(&["x"], &["Y"])
    };
    assert_eq!(apply_hunks("x\ntwo\nx", &[anchored]).unwrap(), "x\ntwo\nY");
    assert_eq!(
        apply_hunks("a", &[h(&["zz"], &["b"])]).unwrap_err(),
        "hunk 1 does not match file contents"
    );
}

#[test]
fn a_patch_adds_updates_and_deletes_files() {
    for case in both() {
        let kit = case.kit();
        case.put("keep.txt", "alpha\nbeta\ngamma\n");
        case.put("dead.txt", "bye");
        let text = "*** Begin Patch\n*** Add File: sub/new.txt\n+hello\n+world\n*** Update File: keep.txt\n@@\n alpha\n-beta\n+BETA\n*** Delete File: dead.txt\n*** End Patch";
        let r = patch(&kit, text);
        assert!(!r.is_error, "{}: {}", case.label, r.output);
        assert_eq!(r.output, "Applied patch: 3 file operations");
        assert_eq!(
            r.metadata.unwrap(),
            json!({"added": 1, "updated": 1, "deleted": 1})
                .as_object()
                .unwrap()
                .clone()
        );
        assert_eq!(case.get("sub/new.txt").as_deref(), Some("hello\nworld"));
        assert_eq!(
            case.get("keep.txt").as_deref(),
            Some("alpha\nBETA\ngamma\n")
        );
        assert_eq!(case.get("dead.txt"), None, "{}", case.label);
        let one = patch(
            &kit,
            "*** Begin Patch\n*** Delete File: sub/new.txt\n*** End Patch",
        );
        assert_eq!(one.output, "Applied patch: 1 file operation");
    }
}

#[test]
fn a_file_can_be_moved_and_changed_by_later_operations_of_the_same_patch() {
    for case in both() {
        let kit = case.kit();
        case.put("a.txt", "one\ntwo");
        let text = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n-one\n+ONE\n*** Update File: b.txt\n-two\n+TWO\n*** End Patch";
        let r = patch(&kit, text);
        assert!(!r.is_error, "{}: {}", case.label, r.output);
        assert_eq!(case.get("a.txt"), None);
        assert_eq!(
            case.get("b.txt").as_deref(),
            Some("ONE\nTWO"),
            "{}",
            case.label
        );
    }
}

#[test]
fn one_failing_hunk_writes_nothing() {
    for case in both() {
        let kit = case.kit();
        case.put("a.txt", "a1\na2");
        case.put("b.txt", "b1\nb2");
        case.put("gone.txt", "still here");
        let text = "*** Begin Patch\n*** Add File: fresh.txt\n+new\n*** Update File: a.txt\n-a1\n+A1\n*** Delete File: gone.txt\n*** Update File: b.txt\n-not in the file\n+x\n*** End Patch";
        let r = patch(&kit, text);
        assert!(r.is_error);
        assert_eq!(
            r.output, "apply_patch: b.txt: hunk 1 does not match file contents",
            "{}",
            case.label
        );
        assert_eq!(case.get("a.txt").as_deref(), Some("a1\na2"));
        assert_eq!(case.get("b.txt").as_deref(), Some("b1\nb2"));
        assert_eq!(case.get("gone.txt").as_deref(), Some("still here"));
        assert_eq!(case.get("fresh.txt"), None, "{}", case.label);
    }
}

#[test]
fn missing_and_existing_files_are_errors_before_anything_is_written() {
    for case in both() {
        let kit = case.kit();
        case.put("here.txt", "x");
        let add_existing =
            "*** Begin Patch\n*** Add File: new.txt\n+n\n*** Add File: here.txt\n+y\n*** End Patch";
        assert_eq!(
            patch(&kit, add_existing).output,
            "apply_patch: file already exists: here.txt"
        );
        assert_eq!(case.get("new.txt"), None);
        let delete_missing = "*** Begin Patch\n*** Delete File: nope.txt\n*** End Patch";
        assert_eq!(
            patch(&kit, delete_missing).output,
            "apply_patch: file not found: nope.txt"
        );
        let update_missing = "*** Begin Patch\n*** Update File: nope.txt\n-a\n+b\n*** End Patch";
        assert_eq!(
            patch(&kit, update_missing).output,
            "apply_patch: file not found: nope.txt"
        );
        assert_eq!(
            patch(&kit, "garbage").output,
            "apply_patch: missing '*** Begin Patch'"
        );
        assert_eq!(patch(&kit, "").output, "apply_patch: patchText is required");
        assert_eq!(case.get("here.txt").as_deref(), Some("x"), "{}", case.label);
    }
}

/// A filesystem whose writes to one path fail.
struct FailingWrites {
    inner: MemoryFs,
    bad: String,
}

impl Fs for FailingWrites {
    fn read(&self, path: &str) -> FsFuture<String> {
        self.inner.read(path)
    }
    fn write(&self, path: &str, contents: &str) -> FsFuture<()> {
        if path == self.bad {
            return Box::pin(async { Err(FsError::Other("disk full".into())) });
        }
        self.inner.write(path, contents)
    }
    fn remove(&self, path: &str) -> FsFuture<()> {
        self.inner.remove(path)
    }
    fn list(&self, dir: &str) -> FsFuture<Vec<DirEntry>> {
        self.inner.list(dir)
    }
    fn kind(&self, path: &str) -> FsFuture<Option<EntryKind>> {
        self.inner.kind(path)
    }
    fn real_path(&self, path: &str) -> FsFuture<String> {
        self.inner.real_path(path)
    }
    fn cwd(&self) -> String {
        self.inner.cwd()
    }
}

#[test]
fn a_write_that_fails_part_way_undoes_the_earlier_ones() {
    let memory = MemoryFs::new();
    memory.write_sync("/a.txt", "a").unwrap();
    memory.write_sync("/d.txt", "d").unwrap();
    let fs = Rc::new(FailingWrites {
        inner: memory.clone(),
        bad: "/c.txt".into(),
    });
    let kit = Kit::on(fs);
    let text = "*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** Add File: b.txt\n+b\n*** Delete File: d.txt\n*** Add File: c.txt\n+c\n*** End Patch";
    let r = patch(&kit, text);
    assert_eq!(
        r.output,
        "apply_patch: could not write /c.txt: disk full (earlier changes were undone)"
    );
    assert_eq!(memory.read_sync("/a.txt").unwrap(), "a");
    assert!(memory.read_sync("/b.txt").is_err());
    assert_eq!(memory.read_sync("/d.txt").unwrap(), "d");
    assert_eq!(block_on(memory.kind("/c.txt")).unwrap(), None);
}
