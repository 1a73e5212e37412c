//! Helpers of the skills tests: a test-only `Fs` over `std::fs`, temporary directories, and a
//! way to call the `skill` tool.
#![allow(
    clippy::indexing_slicing,
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};
use toolnexus::json;

use toolnexus::core::fs::{DirEntry, EntryKind, Fs, FsError, FsFuture, SharedFs};
use toolnexus::core::skills::{load, SkillDef, SkillSet, SkillsConfig};
use toolnexus::core::types::ToolResult;

/// The real filesystem, for tests (symlinks and all).
pub struct StdFs;

fn err(path: &str, e: std::io::Error) -> FsError {
    match e.kind() {
        std::io::ErrorKind::NotFound => FsError::NotFound(path.into()),
        _ => FsError::Other(format!("{path}: {e}")),
    }
}

fn ready<T: 'static>(value: Result<T, FsError>) -> FsFuture<T> {
    Box::pin(async move { value })
}

impl Fs for StdFs {
    fn read(&self, path: &str) -> FsFuture<String> {
        ready(std::fs::read_to_string(path).map_err(|e| err(path, e)))
    }
    fn write(&self, path: &str, contents: &str) -> FsFuture<()> {
        ready(std::fs::write(path, contents).map_err(|e| err(path, e)))
    }
    fn remove(&self, path: &str) -> FsFuture<()> {
        ready(std::fs::remove_file(path).map_err(|e| err(path, e)))
    }
    fn list(&self, dir: &str) -> FsFuture<Vec<DirEntry>> {
        let listed = std::fs::read_dir(dir)
            .map_err(|e| err(dir, e))
            .map(|entries| {
                let mut out: Vec<DirEntry> = entries
                    .flatten()
                    .filter_map(|entry| {
                        let meta = std::fs::metadata(entry.path()).ok()?;
                        let kind = if meta.is_dir() {
                            EntryKind::Dir
                        } else {
                            EntryKind::File
                        };
                        Some(DirEntry {
                            name: entry.file_name().to_string_lossy().into_owned(),
                            kind,
                        })
                    })
                    .collect();
                out.sort_by(|a, b| a.name.cmp(&b.name));
                out
            });
        ready(listed)
    }
    fn kind(&self, path: &str) -> FsFuture<Option<EntryKind>> {
        let kind = std::fs::metadata(path).ok().map(|m| {
            if m.is_dir() {
                EntryKind::Dir
            } else {
                EntryKind::File
            }
        });
        ready(Ok(kind))
    }
    fn real_path(&self, path: &str) -> FsFuture<String> {
        ready(
            std::fs::canonicalize(path)
                .map(|p| p.to_string_lossy().into_owned())
                .map_err(|e| err(path, e)),
        )
    }
    fn cwd(&self) -> String {
        std::env::current_dir()
            .unwrap()
            .to_string_lossy()
            .into_owned()
    }
}

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("toolnexus-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(std::fs::canonicalize(&dir).unwrap())
    }

    /// The absolute path of `rel` inside.
    pub fn path(&self, rel: &str) -> String {
        if rel.is_empty() {
            return self.0.to_string_lossy().into_owned();
        }
        self.0.join(rel).to_string_lossy().into_owned()
    }

    /// Writes `rel` (creating parents).
    pub fn file(&self, rel: &str, text: &str) -> &Self {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    /// Makes `rel` a symlink to `target` (absolute or relative to the link).
    pub fn link(&self, rel: &str, target: &str) -> &Self {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(Path::new(target), path).unwrap();
        self
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The shared test filesystem.
pub fn std_fs() -> SharedFs {
    Rc::new(StdFs)
}

/// Loads skills, returning the set and the warnings.
pub fn load_now(config: SkillsConfig) -> (Rc<SkillSet>, Vec<String>) {
    futures_executor::block_on(load(config))
}

/// Calls the `skill` tool of `set` with `{name}`.
pub fn call(set: &Rc<SkillSet>, name: &str) -> ToolResult {
    let tool = set.tool();
    futures_executor::block_on(tool.execute(json!({ "name": name }), Default::default()))
}

/// Directory skills under `roots` on the real filesystem.
pub fn dirs(roots: &[&str]) -> SkillsConfig {
    SkillsConfig {
        dirs: roots.iter().map(|r| (*r).to_owned()).collect(),
        fs: Some(std_fs()),
        ..SkillsConfig::default()
    }
}

/// A data skill.
pub fn def(name: &str, description: Option<&str>, content: &str, resources: &[&str]) -> SkillDef {
    SkillDef {
        name: Some(name.into()),
        description: description.map(str::to_owned),
        content: content.into(),
        resources: resources.iter().map(|r| (*r).to_owned()).collect(),
        base: None,
    }
}

/// Data skills only.
pub fn data(defs: Vec<SkillDef>) -> SkillsConfig {
    SkillsConfig {
        defs,
        ..SkillsConfig::default()
    }
}
