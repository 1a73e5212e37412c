//! The filesystem the built-in tools (and skill directories) work on, as a trait: an in-memory
//! [`MemoryFs`] everywhere, the runtime's real filesystem in Node/Deno when the host opts in, or
//! any object the host supplies. Paths are POSIX-style; a relative one resolves against
//! [`Fs::cwd`].
//!
//! ```
//! use toolnexus::core::fs::{EntryKind, Fs, MemoryFs};
//! let fs = MemoryFs::new();
//! futures_executor::block_on(async {
//!     fs.write("notes/today.md", "hello").await.unwrap();
//!     assert_eq!(fs.read("/notes/today.md").await.unwrap(), "hello");
//!     assert_eq!(fs.kind("notes").await.unwrap(), Some(EntryKind::Dir));
//! });
//! ```

mod memory;
mod path;

pub use memory::MemoryFs;
pub use path::{basename, dirname, join, normalize, relative};

use std::rc::Rc;

use super::host::LocalBoxFuture;

/// What a path names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
}

/// One entry of a directory listing. For a symlink, `kind` is the kind of its target.
///
/// ```
/// # use toolnexus::core::fs::{DirEntry, EntryKind};
/// let e = DirEntry { name: "a.txt".into(), kind: EntryKind::File };
/// assert_eq!(e.kind, EntryKind::File);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DirEntry {
    /// The entry's name (no slashes).
    pub name: String,
    /// File or directory (of the target, when a symlink).
    pub kind: EntryKind,
}

/// Why a filesystem call failed. Each variant carries the path (or, for `Other`, the message).
///
/// ```
/// # use toolnexus::core::fs::FsError;
/// assert_eq!(FsError::NotFound("/a".into()).to_string(), "no such file or directory: /a");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FsError {
    /// Nothing exists at the path.
    #[error("no such file or directory: {0}")]
    NotFound(String),
    /// The path exists but is not a file (a directory, say).
    #[error("not a file: {0}")]
    NotAFile(String),
    /// The path (or one of its parents) exists but is not a directory.
    #[error("not a directory: {0}")]
    NotADirectory(String),
    /// Anything else the host reported (permissions, I/O errors, …), as its message.
    #[error("{0}")]
    Other(String),
}

/// A future of a filesystem call.
pub type FsFuture<T> = LocalBoxFuture<'static, Result<T, FsError>>;

/// A filesystem. Every method takes a POSIX-style path; a relative one resolves against
/// [`Fs::cwd`]. Implementations are shared as [`SharedFs`].
///
/// ```
/// use toolnexus::core::fs::{DirEntry, EntryKind, Fs, FsError, FsFuture};
/// struct Empty;
/// impl Fs for Empty {
///     fn read(&self, p: &str) -> FsFuture<String> { let p = p.to_owned(); Box::pin(async move { Err(FsError::NotFound(p)) }) }
///     fn write(&self, _: &str, _: &str) -> FsFuture<()> { Box::pin(async { Err(FsError::Other("read-only".into())) }) }
///     fn remove(&self, p: &str) -> FsFuture<()> { let p = p.to_owned(); Box::pin(async move { Err(FsError::NotFound(p)) }) }
///     fn list(&self, _: &str) -> FsFuture<Vec<DirEntry>> { Box::pin(async { Ok(Vec::new()) }) }
///     fn kind(&self, p: &str) -> FsFuture<Option<EntryKind>> { let d = p == "/"; Box::pin(async move { Ok(d.then_some(EntryKind::Dir)) }) }
///     fn real_path(&self, p: &str) -> FsFuture<String> { let p = p.to_owned(); Box::pin(async move { Ok(p) }) }
///     fn cwd(&self) -> String { "/".into() }
/// }
/// assert!(futures_executor::block_on(Empty.read("x")).is_err());
/// ```
pub trait Fs {
    /// The whole file as UTF-8 text. A directory is [`FsError::NotAFile`].
    fn read(&self, path: &str) -> FsFuture<String>;
    /// The whole file as bytes (the `read` built-in's media files). By default the UTF-8 bytes
    /// of [`Fs::read`]'s text, for a filesystem that holds only text.
    fn read_bytes(&self, path: &str) -> FsFuture<Vec<u8>> {
        let text = self.read(path);
        Box::pin(async move { text.await.map(String::into_bytes) })
    }
    /// Creates or replaces the file, creating missing parent directories.
    fn write(&self, path: &str, contents: &str) -> FsFuture<()>;
    /// Removes a file, or a directory with everything under it.
    fn remove(&self, path: &str) -> FsFuture<()>;
    /// Moves the file at `from` to `to` in one step, replacing a file there; `None` when this
    /// filesystem cannot (the default): [`move_file`] then copies. The memory tool writes a
    /// temporary file and moves it over the old one, so a failed write never leaves half a file.
    fn rename(&self, from: &str, to: &str) -> Option<FsFuture<()>> {
        let _ = (from, to);
        None
    }
    /// The entries of a directory, sorted by name.
    fn list(&self, dir: &str) -> FsFuture<Vec<DirEntry>>;
    /// What the path names (following symlinks), or `None` when nothing is there.
    fn kind(&self, path: &str) -> FsFuture<Option<EntryKind>>;
    /// The canonical absolute path (symlinks resolved), to detect symlink loops.
    fn real_path(&self, path: &str) -> FsFuture<String>;
    /// The directory relative paths resolve against (absolute, POSIX-style).
    fn cwd(&self) -> String;
}

/// A shared filesystem.
pub type SharedFs = Rc<dyn Fs>;

/// Moves the file at `from` to `to`, replacing a file there: through [`Fs::rename`] when the
/// filesystem has it (one step), else by writing `from`'s text to `to`, then removing `from`
/// (not atomic, but `to` is replaced only by text that was already written once in full).
///
/// ```
/// # use toolnexus::core::fs::{move_file, Fs, MemoryFs};
/// let fs = MemoryFs::new();
/// futures_executor::block_on(async {
///     fs.write("/MEMORY.md.tmp", "new").await.unwrap();
///     move_file(&fs, "/MEMORY.md.tmp", "/MEMORY.md").await.unwrap();
///     assert_eq!(fs.read("/MEMORY.md").await.unwrap(), "new");
///     assert!(fs.kind("/MEMORY.md.tmp").await.unwrap().is_none());
/// });
/// ```
pub async fn move_file(fs: &dyn Fs, from: &str, to: &str) -> Result<(), FsError> {
    if let Some(renamed) = fs.rename(from, to) {
        return renamed.await;
    }
    let text = fs.read(from).await?;
    fs.write(to, &text).await?;
    fs.remove(from).await
}

/// `path` made absolute against `fs.cwd()` and normalized (`.`/`..` and repeated slashes gone).
///
/// ```
/// # use toolnexus::core::fs::{resolve, MemoryFs};
/// let fs = MemoryFs::with_cwd("/work");
/// assert_eq!(resolve(&fs, "src/../a.txt"), "/work/a.txt");
/// ```
pub fn resolve(fs: &dyn Fs, path: &str) -> String {
    normalize(&fs.cwd(), path)
}
