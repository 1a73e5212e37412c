//! [`MemoryFs`]: a filesystem held in memory, per instance, that saves to and restores from
//! JSON so a page can persist it (in `localStorage`, IndexedDB, a download, …).

use crate::core::json::value::{Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

use super::{normalize, DirEntry, EntryKind, Fs, FsError, FsFuture};
use crate::core::names::Names;
use crate::core::sorting::sort;

#[derive(Default)]
struct Tree {
    files: Names<String>,
    /// Every directory but the root, which always exists.
    dirs: Names<()>,
}

impl Tree {
    fn kind(&self, path: &str) -> Option<EntryKind> {
        if path == "/" || self.dirs.contains_key(path) {
            Some(EntryKind::Dir)
        } else if self.files.contains_key(path) {
            Some(EntryKind::File)
        } else {
            None
        }
    }

    /// Creates every missing ancestor directory of `path` (itself excluded).
    fn make_parents(&mut self, path: &str) -> Result<(), FsError> {
        let mut at = 0;
        let mut parents = Vec::new();
        while let Some(next) = path.get(at + 1..).and_then(|rest| rest.find('/')) {
            at += next + 1;
            let parent = path.get(..at).unwrap_or("/");
            if parent != "/" {
                parents.push(parent.to_owned());
            }
        }
        for parent in &parents {
            if self.files.contains_key(parent) {
                return Err(FsError::NotADirectory(parent.clone()));
            }
        }
        for parent in parents {
            self.dirs.insert(parent, ());
        }
        Ok(())
    }
}

/// An in-memory filesystem. Clones share the same files; two `MemoryFs::new()` do not.
///
/// ```
/// use toolnexus::core::fs::{Fs, MemoryFs};
/// let fs = MemoryFs::new();
/// fs.write_sync("/a/b.txt", "hi").unwrap();
/// let saved = fs.export_json();
/// assert_eq!(saved["files"]["/a/b.txt"], "hi");
/// let restored = MemoryFs::from_json(&saved).unwrap();
/// assert_eq!(restored.read_sync("a/b.txt").unwrap(), "hi");
/// ```
#[derive(Clone)]
pub struct MemoryFs {
    tree: Rc<RefCell<Tree>>,
    cwd: String,
}

impl Default for MemoryFs {
    fn default() -> Self {
        MemoryFs::new()
    }
}

impl MemoryFs {
    /// An empty filesystem whose working directory is `/`.
    pub fn new() -> Self {
        MemoryFs::with_cwd("/")
    }

    /// An empty filesystem with the given working directory (created, so it exists).
    ///
    /// ```
    /// # use toolnexus::core::fs::{Fs, MemoryFs};
    /// assert_eq!(MemoryFs::with_cwd("/work").cwd(), "/work");
    /// ```
    pub fn with_cwd(cwd: &str) -> Self {
        let cwd = normalize("/", cwd);
        let fs = MemoryFs {
            tree: Rc::new(RefCell::new(Tree::default())),
            cwd: cwd.clone(),
        };
        let mut tree = fs.tree.borrow_mut();
        let _ = tree.make_parents(&format!("{cwd}/"));
        drop(tree);
        fs
    }

    /// Reads a file at once.
    pub fn read_sync(&self, path: &str) -> Result<String, FsError> {
        let path = normalize(&self.cwd, path);
        let tree = self.tree.borrow();
        match tree.files.get(&path) {
            Some(text) => Ok(text.clone()),
            None if tree.kind(&path).is_some() => Err(FsError::NotAFile(path)),
            None => Err(FsError::NotFound(path)),
        }
    }

    /// Writes a file at once, creating its parent directories.
    pub fn write_sync(&self, path: &str, contents: &str) -> Result<(), FsError> {
        let path = normalize(&self.cwd, path);
        let mut tree = self.tree.borrow_mut();
        if tree.kind(&path) == Some(EntryKind::Dir) {
            return Err(FsError::NotAFile(path));
        }
        tree.make_parents(&path)?;
        tree.files.insert(path, contents.to_owned());
        Ok(())
    }

    /// Removes a file, or a directory with everything under it, at once.
    pub fn remove_sync(&self, path: &str) -> Result<(), FsError> {
        let path = normalize(&self.cwd, path);
        let mut tree = self.tree.borrow_mut();
        match tree.kind(&path) {
            None => Err(FsError::NotFound(path)),
            Some(EntryKind::File) => {
                tree.files.remove(&path);
                Ok(())
            }
            Some(EntryKind::Dir) if path == "/" => {
                Err(FsError::Other("cannot remove the root directory".into()))
            }
            Some(EntryKind::Dir) => {
                let prefix = format!("{path}/");
                tree.files.retain(|p, _| !p.starts_with(&prefix));
                tree.dirs
                    .retain(|p, _| *p != path && !p.starts_with(&prefix));
                Ok(())
            }
        }
    }

    /// Moves the file at `from` to `to` at once, replacing a file there and creating `to`'s
    /// parent directories; a directory at either end is refused.
    ///
    /// ```
    /// # use toolnexus::core::fs::MemoryFs;
    /// let fs = MemoryFs::new();
    /// fs.write_sync("/a.tmp", "new").unwrap();
    /// fs.write_sync("/b/a.md", "old").unwrap();
    /// fs.rename_sync("/a.tmp", "/b/a.md").unwrap();
    /// assert_eq!(fs.read_sync("/b/a.md").unwrap(), "new");
    /// assert!(fs.rename_sync("/a.tmp", "/c").is_err());
    /// ```
    pub fn rename_sync(&self, from: &str, to: &str) -> Result<(), FsError> {
        let (from, to) = (normalize(&self.cwd, from), normalize(&self.cwd, to));
        let mut tree = self.tree.borrow_mut();
        match tree.kind(&from) {
            None => return Err(FsError::NotFound(from)),
            Some(EntryKind::Dir) => return Err(FsError::NotAFile(from)),
            Some(EntryKind::File) => {}
        }
        if tree.kind(&to) == Some(EntryKind::Dir) {
            return Err(FsError::NotAFile(to));
        }
        tree.make_parents(&to)?;
        if let Some(text) = tree.files.remove(&from) {
            tree.files.insert(to, text);
        }
        Ok(())
    }

    /// The entries of a directory, sorted by name, at once.
    pub fn list_sync(&self, dir: &str) -> Result<Vec<DirEntry>, FsError> {
        let dir = normalize(&self.cwd, dir);
        let tree = self.tree.borrow();
        match tree.kind(&dir) {
            None => return Err(FsError::NotFound(dir)),
            Some(EntryKind::File) => return Err(FsError::NotADirectory(dir)),
            Some(EntryKind::Dir) => {}
        }
        let prefix = if dir == "/" { dir } else { format!("{dir}/") };
        let child = |p: &String| {
            p.strip_prefix(&prefix)
                .filter(|rest| !rest.is_empty() && !rest.contains('/'))
                .map(str::to_owned)
        };
        let files = tree.files.keys().filter_map(child).map(|name| DirEntry {
            name,
            kind: EntryKind::File,
        });
        let dirs = tree.dirs.keys().filter_map(child).map(|name| DirEntry {
            name,
            kind: EntryKind::Dir,
        });
        let mut entries: Vec<DirEntry> = files.chain(dirs).collect();
        sort(&mut entries);
        Ok(entries)
    }

    /// What the path names, at once.
    pub fn kind_sync(&self, path: &str) -> Option<EntryKind> {
        self.tree.borrow().kind(&normalize(&self.cwd, path))
    }

    /// Every file's absolute path, sorted.
    pub fn paths(&self) -> Vec<String> {
        sorted(self.tree.borrow().files.keys())
    }

    /// The whole filesystem as JSON: `{"files": {"/abs/path": "contents", …}, "dirs": [...]}`
    /// (`dirs` lists every directory but the root, so empty ones survive a round trip).
    pub fn export_json(&self) -> Value {
        let tree = self.tree.borrow();
        let files: Map<String, Value> = sorted(tree.files.keys())
            .into_iter()
            .filter_map(|p| {
                let text = tree.files.get(&p)?.clone();
                Some((p, Value::String(text)))
            })
            .collect();
        let dirs = sorted(tree.dirs.keys())
            .into_iter()
            .map(Value::String)
            .collect();
        crate::json_value!({"files": Value::Object(files), "dirs": Value::Array(dirs)})
    }

    /// Replaces every file and directory with what `saved` (from [`MemoryFs::export_json`])
    /// holds. Relative paths in `saved` resolve against the working directory. A malformed
    /// value is refused and leaves the filesystem as it was.
    ///
    /// ```
    /// # use toolnexus::core::fs::MemoryFs;
    /// let fs = MemoryFs::new();
    /// assert!(fs.import_json(&toolnexus::json!({"files": {"/x": 1}})).is_err());
    /// assert!(fs.import_json(&toolnexus::json!({"files": {"/x": "1"}, "dirs": ["/e"]})).is_ok());
    /// ```
    pub fn import_json(&self, saved: &Value) -> Result<(), FsError> {
        let bad = |why: &str| FsError::Other(format!("invalid saved filesystem: {why}"));
        let Value::Object(map) = saved else {
            return Err(bad("expected an object {files, dirs?}"));
        };
        let mut tree = Tree::default();
        if let Some(dirs) = map.get("dirs").filter(|d| !d.is_null()) {
            let Value::Array(dirs) = dirs else {
                return Err(bad("dirs must be an array of paths"));
            };
            for dir in dirs {
                let dir = dir.as_str().ok_or_else(|| bad("dirs must be strings"))?;
                let dir = normalize(&self.cwd, dir);
                tree.make_parents(&format!("{dir}/"))?;
            }
        }
        match map.get("files") {
            None | Some(Value::Null) => {}
            Some(Value::Object(files)) => {
                for (path, text) in files {
                    let text = text
                        .as_str()
                        .ok_or_else(|| bad("file contents must be strings"))?;
                    let path = normalize(&self.cwd, path);
                    if tree.kind(&path) == Some(EntryKind::Dir) {
                        return Err(FsError::NotAFile(path));
                    }
                    tree.make_parents(&path)?;
                    tree.files.insert(path, text.to_owned());
                }
            }
            Some(_) => return Err(bad("files must be an object of path → contents")),
        }
        tree.make_parents(&format!("{}/", self.cwd))?;
        *self.tree.borrow_mut() = tree;
        Ok(())
    }

    /// A new filesystem (working directory `/`) holding what `saved` holds.
    pub fn from_json(saved: &Value) -> Result<Self, FsError> {
        let fs = MemoryFs::new();
        fs.import_json(saved)?;
        Ok(fs)
    }
}

fn sorted<'a>(paths: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut paths: Vec<String> = paths.cloned().collect();
    sort(&mut paths);
    paths
}

fn ready<T: 'static>(value: Result<T, FsError>) -> FsFuture<T> {
    Box::pin(async move { value })
}

impl Fs for MemoryFs {
    fn read(&self, path: &str) -> FsFuture<String> {
        ready(self.read_sync(path))
    }
    fn write(&self, path: &str, contents: &str) -> FsFuture<()> {
        ready(self.write_sync(path, contents))
    }
    fn remove(&self, path: &str) -> FsFuture<()> {
        ready(self.remove_sync(path))
    }
    fn rename(&self, from: &str, to: &str) -> Option<FsFuture<()>> {
        Some(ready(self.rename_sync(from, to)))
    }
    fn list(&self, dir: &str) -> FsFuture<Vec<DirEntry>> {
        ready(self.list_sync(dir))
    }
    fn kind(&self, path: &str) -> FsFuture<Option<EntryKind>> {
        ready(Ok(self.kind_sync(path)))
    }
    fn real_path(&self, path: &str) -> FsFuture<String> {
        let path = normalize(&self.cwd, path);
        let found = self.tree.borrow().kind(&path).is_some();
        ready(if found {
            Ok(path)
        } else {
            Err(FsError::NotFound(path))
        })
    }
    fn cwd(&self) -> String {
        self.cwd.clone()
    }
}
