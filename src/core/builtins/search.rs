//! `grep` and `glob`: a deterministic walk (names in order, `node_modules` and `.git`
//! skipped, symlinked directories followed once) over the host's filesystem.

use crate::core::names::Names;
use crate::core::text::JoinWith;
use std::rc::Rc;

use super::args;
use super::glob::Glob;
use super::tool::{ok_with, Builtin};
use crate::core::fs::{basename, join, resolve, DirEntry, EntryKind, SharedFs};

const IGNORED_DIRS: [&str; 2] = ["node_modules", ".git"];
const DEFAULT_LIMIT: i64 = 100;

/// A compiled regular expression of the host's engine.
pub trait Regex {
    /// The 0-based indices of the lines of `text` (split on `\n`) it matches, at most `limit`.
    fn matching_lines(&self, text: &str, limit: usize) -> Vec<usize>;
}

/// The host's regular expressions, which `grep` searches with: JavaScript's `RegExp` in the
/// wasm build (so a pattern means exactly what it means to a JS port), any engine in a test.
///
/// ```
/// # use toolnexus::core::builtins::{Regex, RegexEngine};
/// struct Literal(String);
/// impl Regex for Literal {
///     fn matching_lines(&self, text: &str, limit: usize) -> Vec<usize> {
///         text.split('\n').enumerate().filter(|(_, l)| l.contains(&self.0)).map(|(i, _)| i).take(limit).collect()
///     }
/// }
/// struct Literals;
/// impl RegexEngine for Literals {
///     fn compile(&self, pattern: &str) -> Result<Box<dyn Regex>, String> {
///         Ok(Box::new(Literal(pattern.to_owned())))
///     }
/// }
/// assert_eq!(Literals.compile("b").unwrap().matching_lines("a\nb\nab", 10), vec![1, 2]);
/// ```
pub trait RegexEngine {
    /// Compiles `pattern`; `Err` holds the engine's reason when it is not a valid expression.
    fn compile(&self, pattern: &str) -> Result<Box<dyn Regex>, String>;
}

/// A shared regular-expression engine.
pub type SharedRegexEngine = Rc<dyn RegexEngine>;

/// One file found by the walk: its path relative to the root, and how to show it.
struct Found {
    relative: String,
    shown: String,
}

/// Every file under `root` (or `root` itself when it is a file), depth first with each
/// directory's entries in name order, so `a/z.txt` comes before `b.txt`.
async fn walk(fs: &SharedFs, root: &str) -> Result<Vec<Found>, String> {
    let absolute = resolve(fs.as_ref(), root);
    match fs.kind(&absolute).await.map_err(|e| e.to_string())? {
        None => return Err(format!("no such file or directory: {root}")),
        Some(EntryKind::File) => {
            let relative = basename(&absolute).to_owned();
            let shown = root.to_owned();
            return Ok(vec![Found { relative, shown }]);
        }
        Some(EntryKind::Dir) => {}
    }
    let mut seen = Names::default();
    let mut found = Vec::new();
    let mut stack = Vec::new();
    if let Some(frame) = open_dir(fs, &mut seen, absolute, String::new()).await {
        stack.push(frame);
    }
    while let Some((dir, prefix, entries)) = stack.last_mut() {
        let Some(entry) = entries.next() else {
            stack.pop();
            continue;
        };
        let relative = join(prefix, &entry.name);
        match entry.kind {
            EntryKind::Dir if IGNORED_DIRS.contains(&entry.name.as_str()) => {}
            EntryKind::Dir => {
                let path = join(dir, &entry.name);
                if let Some(frame) = open_dir(fs, &mut seen, path, relative).await {
                    stack.push(frame);
                }
            }
            EntryKind::File => {
                let shown = join(root, &relative);
                found.push(Found { relative, shown });
            }
        }
    }
    Ok(found)
}

type Frame = (String, String, std::vec::IntoIter<DirEntry>);

/// Lists a directory not seen before (by its real path, so a symlink loop ends).
async fn open_dir(
    fs: &SharedFs,
    seen: &mut Names<()>,
    dir: String,
    prefix: String,
) -> Option<Frame> {
    let real = fs.real_path(&dir).await.ok()?;
    if seen.insert(real, ()).is_some() {
        return None;
    }
    let entries = fs.list(&dir).await.ok()?;
    Some((dir, prefix, entries.into_iter()))
}

fn limit_of(args: &crate::core::json::value::Value) -> usize {
    usize::try_from(args::count(args, "limit").unwrap_or(DEFAULT_LIMIT).max(0)).unwrap_or(0)
}

/// `grep {pattern, path?, include?, limit?}`: `file:line:text` for every line matching the
/// regex, in file order, at most `limit` (100) of them.
pub fn grep(fs: SharedFs, regex: Option<SharedRegexEngine>) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "description": "Regular expression to search for"},
            "path": {"type": "string", "description": "Directory to search (default: process cwd)"},
            "include": {"type": "string", "description": "Glob filter for file names"},
            "limit": {"type": "number", "description": "Maximum number of matches (default 100)"}
        },
        "required": ["pattern"],
        "additionalProperties": false
    }"#;
    let description = "Searches the text of files under a directory for a regular expression \
                       and lists matching lines as file:line:text. include narrows the files \
                       by a glob such as *.ts.";
    Builtin::new("grep", description, schema, move |args, _ctx| {
        let (fs, engine) = (fs.clone(), regex.clone());
        Box::pin(async move {
            let pattern = args::required(&args, "pattern")?;
            let engine = engine.ok_or("this host has no regular-expression engine")?;
            let regex = engine
                .compile(&pattern)
                .map_err(|e| format!("invalid regex: {e}"))?;
            let root = args::optional(&args, "path").unwrap_or_else(|| fs.cwd());
            let include = args::optional(&args, "include").map(|g| Glob::new(&g));
            let limit = limit_of(&args);
            let mut matches = Vec::new();
            for file in walk(&fs, &root).await? {
                if matches.len() >= limit {
                    break;
                }
                if include.as_ref().is_some_and(|g| !g.matches(&file.relative)) {
                    continue;
                }
                let absolute = resolve(fs.as_ref(), &file.shown);
                let Ok(text) = fs.read(&absolute).await else {
                    continue;
                };
                let lines: Vec<&str> = text.split('\n').collect();
                for index in regex.matching_lines(&text, limit - matches.len()) {
                    let line = lines.get(index).copied().unwrap_or_default();
                    matches.push(format!("{}:{}:{line}", file.shown, index + 1));
                }
            }
            let count = matches.len();
            Ok(ok_with(
                matches.join_with("\n"),
                crate::json_value!({"count": count}),
            ))
        })
    })
}

/// `glob {pattern, path?, limit?}`: the files under `path` matching the pattern, as relative
/// paths in walk order, at most `limit` (100).
pub fn glob(fs: SharedFs) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "pattern": {"type": "string", "description": "Glob pattern to match"},
            "path": {"type": "string", "description": "Directory to search (default: process cwd)"},
            "limit": {"type": "number", "description": "Maximum number of results (default 100)"}
        },
        "required": ["pattern"],
        "additionalProperties": false
    }"#;
    let description = "Lists the files under a directory whose paths match a glob (*, **, ?, \
                       {a,b}, [abc]); one relative path per line.";
    Builtin::new("glob", description, schema, move |args, _ctx| {
        let fs = fs.clone();
        Box::pin(async move {
            let pattern = args::required(&args, "pattern")?;
            let glob = Glob::new(&pattern);
            let root = args::optional(&args, "path").unwrap_or_else(|| fs.cwd());
            let limit = limit_of(&args);
            let found: Vec<String> = walk(&fs, &root)
                .await?
                .into_iter()
                .map(|f| f.relative)
                .filter(|relative| glob.matches(relative))
                .take(limit)
                .collect();
            let count = found.len();
            Ok(ok_with(
                found.join_with("\n"),
                crate::json_value!({"count": count}),
            ))
        })
    })
}
