//! Support for the built-in tool tests: a real `std::fs` filesystem over a temporary
//! directory, clocks whose sleeps finish at once or never, a fake `Exec`, and a toolkit of the
//! built-ins on any filesystem.
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use futures_executor::block_on;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use toolnexus::core::json::value::Value;

use toolnexus::core::builtins::{create, BuiltinHost, Exec, ExecOutput, Regex, RegexEngine};
use toolnexus::core::fs::{
    normalize, DirEntry, EntryKind, Fs, FsError, FsFuture, MemoryFs, SharedFs,
};
use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
use toolnexus::core::toolkit::{Sources, Toolkit};
use toolnexus::core::types::ToolResult;

// ---------------------------------------------------------------------------------------------
// A temporary directory and std::fs behind the Fs trait

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> Self {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let dir = std::env::temp_dir().join(format!(
            "toolnexus-builtins-{}-{n}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir.canonicalize().unwrap())
    }

    pub fn path(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The real filesystem; relative paths resolve against `cwd`.
pub struct StdFs {
    pub cwd: String,
}

fn io_error(e: std::io::Error, path: &str) -> FsError {
    match e.kind() {
        std::io::ErrorKind::NotFound => FsError::NotFound(path.to_owned()),
        _ => FsError::Other(e.to_string()),
    }
}

fn ready<T: 'static>(value: Result<T, FsError>) -> FsFuture<T> {
    Box::pin(async move { value })
}

impl StdFs {
    fn at(&self, path: &str) -> String {
        normalize(&self.cwd, path)
    }
    fn kind_now(path: &str) -> Option<EntryKind> {
        let meta = std::fs::metadata(path).ok()?;
        Some(if meta.is_dir() {
            EntryKind::Dir
        } else {
            EntryKind::File
        })
    }
}

impl Fs for StdFs {
    fn read(&self, path: &str) -> FsFuture<String> {
        let path = self.at(path);
        if StdFs::kind_now(&path) == Some(EntryKind::Dir) {
            return ready(Err(FsError::NotAFile(path)));
        }
        ready(std::fs::read_to_string(&path).map_err(|e| io_error(e, &path)))
    }
    fn read_bytes(&self, path: &str) -> FsFuture<Vec<u8>> {
        let path = self.at(path);
        if StdFs::kind_now(&path) == Some(EntryKind::Dir) {
            return ready(Err(FsError::NotAFile(path)));
        }
        ready(std::fs::read(&path).map_err(|e| io_error(e, &path)))
    }
    fn write(&self, path: &str, contents: &str) -> FsFuture<()> {
        let path = self.at(path);
        if StdFs::kind_now(&path) == Some(EntryKind::Dir) {
            return ready(Err(FsError::NotAFile(path)));
        }
        let parent = std::path::Path::new(&path).parent().unwrap().to_owned();
        let result = std::fs::create_dir_all(&parent)
            .and_then(|()| std::fs::write(&path, contents))
            .map_err(|e| io_error(e, &path));
        ready(result)
    }
    fn remove(&self, path: &str) -> FsFuture<()> {
        let path = self.at(path);
        let result = match StdFs::kind_now(&path) {
            None => Err(FsError::NotFound(path.clone())),
            Some(EntryKind::Dir) => std::fs::remove_dir_all(&path).map_err(|e| io_error(e, &path)),
            Some(EntryKind::File) => std::fs::remove_file(&path).map_err(|e| io_error(e, &path)),
        };
        ready(result)
    }
    fn rename(&self, from: &str, to: &str) -> Option<FsFuture<()>> {
        let (from, to) = (self.at(from), self.at(to));
        Some(ready(
            std::fs::rename(&from, &to).map_err(|e| io_error(e, &from)),
        ))
    }
    fn list(&self, dir: &str) -> FsFuture<Vec<DirEntry>> {
        let dir = self.at(dir);
        let result = (|| {
            if StdFs::kind_now(&dir) == Some(EntryKind::File) {
                return Err(FsError::NotADirectory(dir.clone()));
            }
            let mut entries = Vec::new();
            for entry in std::fs::read_dir(&dir).map_err(|e| io_error(e, &dir))? {
                let entry = entry.map_err(|e| io_error(e, &dir))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if let Some(kind) = StdFs::kind_now(&format!("{dir}/{name}")) {
                    entries.push(DirEntry { name, kind });
                }
            }
            entries.sort();
            Ok(entries)
        })();
        ready(result)
    }
    fn kind(&self, path: &str) -> FsFuture<Option<EntryKind>> {
        ready(Ok(StdFs::kind_now(&self.at(path))))
    }
    fn real_path(&self, path: &str) -> FsFuture<String> {
        let path = self.at(path);
        let result = std::fs::canonicalize(&path)
            .map(|p| p.to_string_lossy().into_owned())
            .map_err(|e| io_error(e, &path));
        ready(result)
    }
    fn cwd(&self) -> String {
        self.cwd.clone()
    }
}

/// A filesystem under test: its label, the filesystem, and (for std) the directory it lives in.
pub struct Case {
    pub label: &'static str,
    pub fs: SharedFs,
    pub root: String,
    _dir: Option<TempDir>,
}

/// The same test on the in-memory filesystem (cwd `/work`) and on a real temporary directory.
pub fn both() -> Vec<Case> {
    let dir = TempDir::new();
    let root = dir.path();
    vec![
        Case {
            label: "memory",
            fs: Rc::new(MemoryFs::with_cwd("/work")),
            root: "/work".into(),
            _dir: None,
        },
        Case {
            label: "std",
            fs: Rc::new(StdFs { cwd: root.clone() }),
            root,
            _dir: Some(dir),
        },
    ]
}

impl Case {
    pub fn put(&self, path: &str, text: &str) {
        block_on(self.fs.write(path, text)).unwrap();
    }
    pub fn get(&self, path: &str) -> Option<String> {
        block_on(self.fs.read(path)).ok()
    }
    pub fn kit(&self) -> Kit {
        Kit::on(self.fs.clone())
    }
}

// ---------------------------------------------------------------------------------------------
// Host pieces

/// Sleeps finish at once (`Instant`) or never (`Never`).
pub struct TestClock {
    pub instant: bool,
    pub slept: RefCell<Vec<f64>>,
}

impl TestClock {
    pub fn never() -> Rc<Self> {
        Rc::new(TestClock {
            instant: false,
            slept: RefCell::default(),
        })
    }
    pub fn instant() -> Rc<Self> {
        Rc::new(TestClock {
            instant: true,
            slept: RefCell::default(),
        })
    }
}

impl Clock for TestClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        self.slept.borrow_mut().push(ms);
        if self.instant {
            Box::pin(async {})
        } else {
            Box::pin(std::future::pending())
        }
    }
}

/// A transport that is offline.
pub struct NoNet;

impl Http for NoNet {
    fn send(&self, _: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        Box::pin(async { Err(HttpError::Network("offline".into())) })
    }
}

type Reply = Box<dyn Fn(&str) -> Option<Result<ExecOutput, String>>>;

/// An `Exec` that answers from a closure and records each call.
pub struct FakeExec {
    pub calls: RefCell<Vec<(String, Option<String>, f64)>>,
    pub reply: Reply,
    pub count: Cell<u32>,
}

impl FakeExec {
    /// `None` from `reply` means the command never finishes.
    pub fn new(reply: impl Fn(&str) -> Option<Result<ExecOutput, String>> + 'static) -> Rc<Self> {
        Rc::new(FakeExec {
            calls: RefCell::default(),
            reply: Box::new(reply),
            count: Cell::new(0),
        })
    }
}

impl Exec for FakeExec {
    fn run(
        &self,
        command: &str,
        workdir: Option<&str>,
        timeout_ms: f64,
    ) -> LocalBoxFuture<'static, Result<ExecOutput, String>> {
        self.calls
            .borrow_mut()
            .push((command.to_owned(), workdir.map(str::to_owned), timeout_ms));
        match (self.reply)(command) {
            Some(result) => Box::pin(async move { result }),
            None => Box::pin(std::future::pending()),
        }
    }
}

/// A toolkit of every built-in on one host.
pub struct Kit {
    pub kit: Toolkit,
}

impl Kit {
    pub fn on(fs: SharedFs) -> Self {
        let host = BuiltinHost {
            regex: Some(Rc::new(LiteRegex)),
            ..BuiltinHost::new(fs, Rc::new(NoNet), TestClock::never())
        };
        Kit::with(host, None)
    }

    pub fn with(host: BuiltinHost, config: Option<Value>) -> Self {
        let sources = Sources {
            builtins: create(&host),
            builtins_config: config,
            ..Sources::default()
        };
        Kit {
            kit: Toolkit::assemble(sources).0,
        }
    }

    /// Runs a tool through the toolkit (so arguments are checked against its schema).
    pub fn run(&self, name: &str, args: Value) -> ToolResult {
        block_on(self.kit.execute(name, args, Default::default()))
    }

    pub fn names(&self) -> Vec<String> {
        self.kit
            .tools()
            .iter()
            .map(|t| t.spec().name.clone())
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// A regular-expression engine for grep (the wasm build uses JavaScript's RegExp).

/// `regex-lite` as grep's engine.
pub struct LiteRegex;

struct LiteCompiled(regex_lite::Regex);

impl RegexEngine for LiteRegex {
    fn compile(&self, pattern: &str) -> Result<Box<dyn Regex>, String> {
        regex_lite::Regex::new(pattern)
            .map(|r| Box::new(LiteCompiled(r)) as Box<dyn Regex>)
            .map_err(|e| e.to_string())
    }
}

impl Regex for LiteCompiled {
    fn matching_lines(&self, text: &str, limit: usize) -> Vec<usize> {
        text.split('\n')
            .enumerate()
            .filter(|(_, line)| self.0.is_match(line))
            .map(|(index, _)| index)
            .take(limit)
            .collect()
    }
}
