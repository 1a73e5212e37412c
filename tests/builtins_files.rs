//! `read`, `write` and `edit` on the in-memory filesystem and on a real temporary directory.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::builtins_support;

use builtins_support::*;
use std::rc::Rc;
use toolnexus::json;

#[test]
fn write_creates_parents_and_reports_the_byte_count() {
    for case in both() {
        let kit = case.kit();
        let r = kit.run("write", json!({"path": "a/b/c.txt", "content": "héllo"}));
        assert!(!r.is_error, "{}: {}", case.label, r.output);
        assert_eq!(r.output, "Wrote 6 bytes to a/b/c.txt");
        assert_eq!(r.metadata.unwrap()["bytes"], json!(6));
        assert_eq!(case.get("a/b/c.txt").as_deref(), Some("héllo"));
        let again = kit.run("write", json!({"path": "a/b/c.txt", "content": ""}));
        assert_eq!(again.output, "Wrote 0 bytes to a/b/c.txt");
        assert_eq!(case.get("a/b/c.txt").as_deref(), Some(""));
    }
}

#[test]
fn write_failures_are_error_results() {
    for case in both() {
        let kit = case.kit();
        case.put("dir/x", "1");
        let r = kit.run("write", json!({"path": "dir", "content": "x"}));
        assert!(r.is_error, "{}", case.label);
        assert!(r.output.starts_with("write: "), "{}", r.output);
        let r = kit.run("write", json!({"path": "", "content": "x"}));
        assert_eq!(r.output, "write: path is required");
        let r = kit.run("write", json!({"path": "x"}));
        assert!(r.is_error && r.output.contains("content"), "{}", r.output);
    }
}

#[test]
fn read_returns_the_whole_file_or_a_line_window() {
    for case in both() {
        let kit = case.kit();
        case.put("f.txt", "l1\nl2\nl3\nl4\nl5");
        let read = |args| kit.run("read", args).output;
        assert_eq!(read(json!({"path": "f.txt"})), "l1\nl2\nl3\nl4\nl5");
        assert_eq!(
            read(json!({"path": "f.txt", "offset": 2, "limit": 2})),
            "l2\nl3"
        );
        assert_eq!(read(json!({"path": "f.txt", "offset": 4})), "l4\nl5");
        assert_eq!(read(json!({"path": "f.txt", "limit": 1})), "l1");
        assert_eq!(
            read(json!({"path": "f.txt", "offset": 0, "limit": 1})),
            "l1"
        );
        assert_eq!(
            read(json!({"path": "f.txt", "offset": 2.9, "limit": 1.9})),
            "l2"
        );
        assert_eq!(read(json!({"path": "f.txt", "offset": 99})), "");
        assert_eq!(read(json!({"path": "f.txt", "limit": 0})), "");
        assert_eq!(read(json!({"path": "f.txt", "limit": -3})), "");
    }
}

#[test]
fn read_returns_a_media_file_as_a_content_part() {
    // On disk the bytes are binary (not UTF-8); in memory they are the text's bytes.
    let png: &[u8] = &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00];
    let dir = TempDir::new();
    std::fs::create_dir_all(format!("{}/shots", dir.path())).unwrap();
    std::fs::write(format!("{}/shots/Screen.PNG", dir.path()), png).unwrap();
    let kit = Kit::on(Rc::new(StdFs { cwd: dir.path() }));
    let r = kit.run("read", json!({"path": "shots/Screen.PNG"}));
    assert!(!r.is_error, "{}", r.output);
    assert_eq!(r.output, "shots/Screen.PNG (image/png, 10 bytes)");
    let parts = r.parts.unwrap();
    assert_eq!(
        parts[0].to_json_text(),
        r#"{"type":"image","mimeType":"image/png","data":"iVBORw0KGgr/AA==","name":"Screen.PNG"}"#
    );
    // offset and limit are for text files; a media file comes whole.
    let windowed = kit.run("read", json!({"path": "shots/Screen.PNG", "limit": 1}));
    assert_eq!(windowed.parts.unwrap()[0].data, parts[0].data);

    for case in both() {
        let kit = case.kit();
        case.put("doc.pdf", "%PDF-1.7");
        case.put("a.wav", "RIFF");
        let pdf = kit.run("read", json!({"path": "doc.pdf"}));
        assert_eq!(
            pdf.output, "doc.pdf (application/pdf, 8 bytes)",
            "{}",
            case.label
        );
        let part = &pdf.parts.unwrap()[0];
        assert_eq!(
            (part.kind.as_str(), part.data.as_deref()),
            ("file", Some("JVBERi0xLjc="))
        );
        assert_eq!(
            kit.run("read", json!({"path": "a.wav"})).parts.unwrap()[0].kind,
            "audio"
        );
        // Text files stay text with no parts, byte-identical to before.
        case.put("notes.txt", "hi");
        assert!(kit
            .run("read", json!({"path": "notes.txt"}))
            .parts
            .is_none());
        // A missing media file is the same error result as a missing text file.
        let missing = kit.run("read", json!({"path": "gone.jpg"}));
        let expected = format!("read: no such file or directory: {}/gone.jpg", case.root);
        assert_eq!(
            (missing.is_error, missing.output),
            (true, expected),
            "{}",
            case.label
        );
        assert!(missing.parts.is_none());
    }
}

#[test]
fn read_failures_are_error_results() {
    for case in both() {
        let kit = case.kit();
        let r = kit.run("read", json!({"path": "missing.txt"}));
        assert!(r.is_error);
        let missing = format!("read: no such file or directory: {}/missing.txt", case.root);
        assert_eq!(r.output, missing, "{}", case.label);
        case.put("d/x", "");
        let r = kit.run("read", json!({"path": "d"}));
        assert!(r.is_error && r.output.starts_with("read: "), "{}", r.output);
        assert_eq!(
            kit.run("read", json!({"path": ""})).output,
            "read: path is required"
        );
        let r = kit.run("read", json!({"path": "x", "extra": 1}));
        assert!(
            r.is_error && r.output.contains("Invalid arguments"),
            "{}",
            r.output
        );
    }
}

#[test]
fn edit_replaces_the_single_occurrence() {
    for case in both() {
        let kit = case.kit();
        case.put("e.txt", "alpha beta gamma");
        let r = kit.run(
            "edit",
            json!({"path": "e.txt", "oldString": "beta", "newString": "$&B"}),
        );
        assert!(!r.is_error, "{}", r.output);
        assert_eq!(r.output, "Edited e.txt (1 replacement)");
        assert_eq!(r.metadata.unwrap()["replacements"], json!(1));
        assert_eq!(
            case.get("e.txt").as_deref(),
            Some("alpha $&B gamma"),
            "{}",
            case.label
        );
    }
}

#[test]
fn edit_refuses_a_repeated_string_without_replace_all_and_changes_nothing() {
    for case in both() {
        let kit = case.kit();
        case.put("e.txt", "x-x-x");
        let r = kit.run(
            "edit",
            json!({"path": "e.txt", "oldString": "x", "newString": "y"}),
        );
        assert!(r.is_error);
        assert_eq!(
            r.output,
            "edit: oldString is not unique in e.txt (3 occurrences); use replaceAll"
        );
        assert_eq!(case.get("e.txt").as_deref(), Some("x-x-x"));
        let all = json!({"path": "e.txt", "oldString": "x", "newString": "yy", "replaceAll": true});
        let r = kit.run("edit", all);
        assert_eq!(r.output, "Edited e.txt (3 replacements)");
        assert_eq!(
            case.get("e.txt").as_deref(),
            Some("yy-yy-yy"),
            "{}",
            case.label
        );
    }
}

#[test]
fn edit_failures_are_error_results() {
    for case in both() {
        let kit = case.kit();
        case.put("e.txt", "abc");
        let r = kit.run(
            "edit",
            json!({"path": "e.txt", "oldString": "zzz", "newString": "y"}),
        );
        assert_eq!(r.output, "edit: oldString not found in e.txt");
        let r = kit.run(
            "edit",
            json!({"path": "e.txt", "oldString": "", "newString": "y"}),
        );
        assert_eq!(r.output, "edit: oldString is required");
        let r = kit.run(
            "edit",
            json!({"path": "nope", "oldString": "a", "newString": "b"}),
        );
        assert!(
            r.is_error && r.output.starts_with("edit: no such file"),
            "{}",
            r.output
        );
        let r = kit.run("edit", json!({"path": "e.txt", "oldString": "a"}));
        assert!(r.is_error && r.output.contains("newString"), "{}", r.output);
        assert_eq!(case.get("e.txt").as_deref(), Some("abc"), "{}", case.label);
    }
}
