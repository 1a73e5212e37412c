//! The filesystem trait: `MemoryFs` (errors, listing, removal, JSON round trip) and the path
//! helpers, with the same expectations checked on a real temporary directory.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::builtins_support;

use builtins_support::*;
use futures_executor::block_on;
use toolnexus::core::fs::{
    basename, dirname, join, normalize, relative, resolve, DirEntry, EntryKind, Fs, FsError,
    MemoryFs,
};
use toolnexus::json;

fn entry(name: &str, kind: EntryKind) -> DirEntry {
    DirEntry {
        name: name.into(),
        kind,
    }
}

#[test]
fn paths_normalize_posix_style() {
    assert_eq!(normalize("/a/b", "c/./d/../e"), "/a/b/c/e");
    assert_eq!(normalize("/a", "//x///y/"), "/x/y");
    assert_eq!(normalize("/", "../../.."), "/");
    assert_eq!(normalize("/a", ""), "/a");
    assert_eq!(dirname("/"), "/");
    assert_eq!(dirname("/a/b/"), "/a");
    assert_eq!(basename("/a/b/"), "b");
    assert_eq!(join("", "x"), "x");
    assert_eq!(relative("/a/b", "/a/b"), Some(String::new()));
    assert_eq!(relative("/a/b", "/a"), None);
}

#[test]
fn every_filesystem_agrees_on_reads_writes_and_errors() {
    for case in both() {
        let fs = case.fs.clone();
        let label = case.label;
        block_on(async {
            fs.write("deep/er/file.txt", "one").await.unwrap();
            assert_eq!(fs.read("deep/er/file.txt").await.unwrap(), "one", "{label}");
            let abs = format!("{}/deep/er/file.txt", case.root);
            assert_eq!(fs.read(&abs).await.unwrap(), "one", "{label}");
            assert_eq!(
                fs.kind("deep").await.unwrap(),
                Some(EntryKind::Dir),
                "{label}"
            );
            assert_eq!(
                fs.kind("deep/er/file.txt").await.unwrap(),
                Some(EntryKind::File)
            );
            assert_eq!(fs.kind("nope").await.unwrap(), None, "{label}");
            let missing = format!("{}/nope.txt", case.root);
            assert_eq!(
                fs.read("nope.txt").await,
                Err(FsError::NotFound(missing)),
                "{label}"
            );
            let dir = format!("{}/deep", case.root);
            assert_eq!(
                fs.read("deep").await,
                Err(FsError::NotAFile(dir.clone())),
                "{label}"
            );
            assert_eq!(
                fs.write("deep", "x").await,
                Err(FsError::NotAFile(dir)),
                "{label}"
            );
            fs.write("deep/b.txt", "two").await.unwrap();
            assert_eq!(
                fs.list("deep").await.unwrap(),
                vec![entry("b.txt", EntryKind::File), entry("er", EntryKind::Dir)],
                "{label}"
            );
            let file = format!("{}/deep/b.txt", case.root);
            assert_eq!(
                fs.list("deep/b.txt").await,
                Err(FsError::NotADirectory(file))
            );
            assert_eq!(
                fs.real_path("deep/./er/..").await.unwrap(),
                format!("{}/deep", case.root)
            );
            assert!(matches!(
                fs.real_path("ghost").await,
                Err(FsError::NotFound(_))
            ));
            fs.remove("deep/b.txt").await.unwrap();
            assert_eq!(fs.kind("deep/b.txt").await.unwrap(), None, "{label}");
            fs.remove("deep").await.unwrap();
            assert_eq!(fs.kind("deep/er/file.txt").await.unwrap(), None, "{label}");
            assert!(
                matches!(fs.remove("deep").await, Err(FsError::NotFound(_))),
                "{label}"
            );
        });
    }
}

#[test]
fn a_file_in_the_way_of_a_parent_directory_is_not_a_directory() {
    let fs = MemoryFs::new();
    fs.write_sync("/a", "file").unwrap();
    assert_eq!(
        fs.write_sync("/a/b.txt", "x"),
        Err(FsError::NotADirectory("/a".into()))
    );
    assert_eq!(fs.read_sync("/a").unwrap(), "file");
}

#[test]
fn the_root_cannot_be_removed_and_lists_what_is_at_the_top() {
    let fs = MemoryFs::new();
    fs.write_sync("x.txt", "1").unwrap();
    assert!(matches!(fs.remove_sync("/"), Err(FsError::Other(_))));
    assert_eq!(
        fs.list_sync("/").unwrap(),
        vec![entry("x.txt", EntryKind::File)]
    );
}

#[test]
fn two_memory_filesystems_are_separate_and_clones_share() {
    let a = MemoryFs::new();
    let b = MemoryFs::new();
    let a2 = a.clone();
    a.write_sync("/f", "a").unwrap();
    assert_eq!(a2.read_sync("/f").unwrap(), "a");
    assert!(b.read_sync("/f").is_err());
}

#[test]
fn export_and_import_round_trip_files_and_empty_directories() {
    let fs = MemoryFs::with_cwd("/home/me");
    fs.write_sync("notes/a.md", "# A\n").unwrap();
    fs.write_sync("/etc/conf", "k=v").unwrap();
    let saved = fs.export_json();
    assert_eq!(
        saved["files"],
        json!({"/etc/conf": "k=v", "/home/me/notes/a.md": "# A\n"})
    );
    assert_eq!(
        saved["dirs"],
        json!(["/etc", "/home", "/home/me", "/home/me/notes"])
    );
    fs.remove_sync("/home/me/notes/a.md").unwrap();
    let empty_dir_kept = fs.export_json();
    let restored = MemoryFs::from_json(&empty_dir_kept).unwrap();
    assert_eq!(restored.kind_sync("/home/me/notes"), Some(EntryKind::Dir));
    assert_eq!(restored.paths(), vec!["/etc/conf".to_owned()]);
    let text = serde_json::to_string(&saved).unwrap();
    let back = MemoryFs::from_json(&serde_json::from_str(&text).unwrap()).unwrap();
    assert_eq!(back.read_sync("/home/me/notes/a.md").unwrap(), "# A\n");
}

#[test]
fn a_malformed_import_is_refused_and_changes_nothing() {
    let fs = MemoryFs::new();
    fs.write_sync("/keep", "me").unwrap();
    for bad in [
        json!("text"),
        json!({"files": []}),
        json!({"files": {"/x": 1}}),
        json!({"dirs": "nope"}),
        json!({"dirs": [1]}),
        json!({"files": {"/a": "file", "/a/b": "under a file"}}),
    ] {
        assert!(fs.import_json(&bad).is_err(), "{bad}");
        assert_eq!(fs.read_sync("/keep").unwrap(), "me", "{bad}");
    }
}

#[test]
fn resolve_uses_the_filesystem_cwd() {
    let fs = MemoryFs::with_cwd("/w/x");
    assert_eq!(resolve(&fs, "../y"), "/w/y");
    assert_eq!(fs.kind_sync("/w/x"), Some(EntryKind::Dir));
}

#[cfg(unix)]
#[test]
fn the_real_filesystem_follows_symlinks_and_real_path_resolves_them() {
    let dir = TempDir::new();
    let fs = StdFs { cwd: dir.path() };
    block_on(fs.write("target/inner.txt", "x")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("target"), dir.0.join("link")).unwrap();
    let listed = block_on(fs.list(".")).unwrap();
    assert_eq!(
        listed,
        vec![
            entry("link", EntryKind::Dir),
            entry("target", EntryKind::Dir)
        ]
    );
    let real = block_on(fs.real_path("link")).unwrap();
    assert_eq!(real, format!("{}/target", dir.path()));
}

#[test]
fn the_root_is_never_listed_among_the_directories() {
    let fs = MemoryFs::new();
    fs.write_sync("/a/b", "x").unwrap();
    assert_eq!(fs.export_json()["dirs"], json!(["/a"]));
    let fs = MemoryFs::with_cwd("/");
    assert_eq!(fs.export_json()["dirs"], json!([]));
}
