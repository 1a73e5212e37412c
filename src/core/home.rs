//! Agent homes (SPEC §7E): a persona is a directory. Its bootstrap files, read in
//! [`BOOTSTRAP_ORDER`] and each capped at [`MAX_FILE_BYTES`], compose its soul (the system
//! prompt, frozen for a session), and the `memory` tool edits `MEMORY.md` and `USER.md` there
//! for the next session. Everything goes through an [`Fs`], so a home can live on disk (Node,
//! Deno), in IndexedDB or in memory.
//!
//! ```
//! use toolnexus::core::fs::{Fs, MemoryFs};
//! use toolnexus::core::home::compose_soul;
//! let fs = MemoryFs::new();
//! futures_executor::block_on(fs.write("/ava/SOUL.md", "You are Ava.\n")).unwrap();
//! let soul = futures_executor::block_on(compose_soul(&fs, "/ava")).unwrap();
//! assert_eq!((soul.soul.as_str(), soul.found), ("## SOUL.md\n\nYou are Ava.", vec!["SOUL.md".to_owned()]));
//! ```

use std::rc::Rc;

use crate::core::builtins::Builtin;
use crate::core::fs::{join, move_file, Fs, FsError, SharedFs};
use crate::core::jsfmt::trim;
use crate::core::types::ToolResult;

/// The bootstrap files, in the order they enter the soul: identity first, durable memory last.
pub const BOOTSTRAP_ORDER: [&str; 7] = [
    "AGENTS.md",
    "SOUL.md",
    "IDENTITY.md",
    "USER.md",
    "TOOLS.md",
    "HEARTBEAT.md",
    "MEMORY.md",
];

/// The largest part of one bootstrap file that enters the soul, in bytes; the file itself is
/// never changed.
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

/// What follows a bootstrap file cut at [`MAX_FILE_BYTES`].
pub const TRUNCATION_NOTICE: &str = "\n[truncated: exceeds 2 MB bootstrap cap]";

/// A heartbeat reply holding this says nothing needs attention, and surfaces nothing.
pub const HEARTBEAT_OK: &str = "HEARTBEAT_OK";

/// The prompt a heartbeat wakes a persona with.
pub const HEARTBEAT_PROMPT: &str =
    "Heartbeat. Read your HEARTBEAT.md section and follow it. If nothing needs attention, reply HEARTBEAT_OK.";

/// A composed soul: the text and the bootstrap files it holds, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Soul {
    /// Each present file as `## <name>\n\n<its trimmed text>`, joined by a blank line.
    pub soul: String,
    /// The files found.
    pub found: Vec<String>,
}

/// The soul of the home at `dir`: its bootstrap files present, in [`BOOTSTRAP_ORDER`]. A
/// missing file (or a directory in its place) is skipped; any other failure to read one is an
/// error naming it, never a soul silently missing a part.
pub async fn compose_soul(fs: &dyn Fs, dir: &str) -> Result<Soul, String> {
    let mut sections = Vec::new();
    let mut found = Vec::new();
    for file in BOOTSTRAP_ORDER {
        let path = join(dir, file);
        let bytes = match fs.read_bytes(&path).await {
            Ok(bytes) => bytes,
            Err(FsError::NotFound(_) | FsError::NotAFile(_)) => continue,
            Err(error) => return Err(format!("reading {path}: {error}")),
        };
        let body = capped(&bytes);
        sections.push(format!("## {file}\n\n{}", trim(&body)));
        found.push(file.to_owned());
    }
    Ok(Soul {
        soul: sections.join("\n\n"),
        found,
    })
}

/// A bootstrap file's text: at most [`MAX_FILE_BYTES`] of it, then [`TRUNCATION_NOTICE`].
fn capped(bytes: &[u8]) -> String {
    match bytes.get(..MAX_FILE_BYTES) {
        Some(head) if bytes.len() > MAX_FILE_BYTES => {
            String::from_utf8_lossy(head).into_owned() + TRUNCATION_NOTICE
        }
        _ => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// The `memory` tool of the home at `dir`: `add` appends `- <text>` to `MEMORY.md` (or
/// `USER.md` with `target: "user"`), `replace` swaps the first `text` for `with`, `remove`
/// deletes it. It writes the file only: the live system prompt is a frozen snapshot, and the
/// change loads with the next session. A `text` not in the file is an error result. The new
/// text goes to `.<file>.tmp` beside the file, then is moved over it ([`move_file`]), so a
/// write that fails leaves the old file whole.
pub fn memory_tool(fs: SharedFs, dir: &str) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ["add", "replace", "remove"]},
            "target": {"type": "string", "enum": ["self", "user"], "description": "self=MEMORY.md (default), user=USER.md"},
            "text": {"type": "string", "description": "For add: the entry. For replace/remove: the existing text."},
            "with": {"type": "string", "description": "For replace: the replacement text."}
        },
        "required": ["action", "text"]
    }"#;
    let description = "Persist durable memory. action=add appends an entry; replace swaps an \
        existing substring (with); remove deletes one. target=self (MEMORY.md, default) or user \
        (USER.md). Writes persist to disk and load at the START of your NEXT session — they do \
        NOT change your current context.";
    let dir: Rc<str> = dir.into();
    Builtin::new("memory", description, schema, move |args, _ctx| {
        let (fs, dir) = (fs.clone(), dir.clone());
        Box::pin(async move {
            let text = |key: &str| args.get(key).and_then(|v| v.as_str()).unwrap_or_default();
            let action = text("action").to_owned();
            let name = if text("target") == "user" {
                "USER.md"
            } else {
                "MEMORY.md"
            };
            let path = join(&dir, name);
            let current = match fs.read(&path).await {
                Ok(current) => current,
                Err(FsError::NotFound(_)) => String::new(),
                Err(error) => return Err(error.to_string()),
            };
            let entry = text("text");
            // The first occurrence, found without `str::replacen` (its searcher costs the
            // module 4 KiB).
            let at = crate::core::text::find(&current, entry);
            let swapped = |with: &str| {
                let at = at.unwrap_or_default();
                let rest = current.get(at + entry.len()..).unwrap_or_default();
                format!("{}{with}{rest}", current.get(..at).unwrap_or_default())
            };
            let next = match action.as_str() {
                "add" => format!("{}\n- {entry}\n", current.trim_end())
                    .trim_start()
                    .to_owned(),
                "replace" | "remove" if at.is_none() => {
                    return Ok(ToolResult::error(format!("not found: {entry}")))
                }
                "replace" => swapped(text("with")),
                "remove" => swapped(""),
                other => return Ok(ToolResult::error(format!("unknown action: {other}"))),
            };
            // The new text goes to a temporary file first and replaces the old one only once
            // written in full: a failed write leaves the old file as it was.
            let temporary = join(&dir, &format!(".{name}.tmp"));
            if let Err(error) = fs.write(&temporary, &next).await {
                let _ = fs.remove(&temporary).await;
                return Err(format!("{name} was not changed: {error}"));
            }
            move_file(fs.as_ref(), &temporary, &path)
                .await
                .map_err(|error| format!("could not save {name}: {error}"))?;
            Ok(ToolResult::ok(format!(
                "ok ({action} → {name}); loads next session"
            )))
        })
    })
}
