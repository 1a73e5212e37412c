//! `apply_patch`: every operation of a patch is checked against the current files first and
//! staged in memory; only when all of them apply is anything written. Should a write fail
//! part-way, the files already changed are put back as they were.

mod grammar;

pub use grammar::{apply_hunks, parse, Hunk, Op};

use super::args;
use super::tool::{ok_with, Builtin};
use crate::core::fs::{resolve, EntryKind, SharedFs};

/// Contents (`None` = absent) by absolute path. Patches touch few files: a list is enough.
type Files = Vec<(String, Option<String>)>;

fn lookup<'a>(files: &'a Files, path: &str) -> Option<&'a Option<String>> {
    files.iter().find(|(p, _)| p == path).map(|(_, c)| c)
}

/// Staged changes (final contents, in first-touch order) and the originals they replace.
#[derive(Default)]
struct Stage {
    staged: Files,
    original: Files,
}

impl Stage {
    /// The file's text as the patch sees it so far (`None` when it does not exist).
    async fn current(&mut self, fs: &SharedFs, path: &str) -> Result<Option<String>, String> {
        if let Some(staged) = lookup(&self.staged, path) {
            return Ok(staged.clone());
        }
        let text = match fs.kind(path).await.map_err(|e| e.to_string())? {
            None => None,
            Some(EntryKind::Dir) => return Err(format!("not a file: {path}")),
            Some(EntryKind::File) => Some(fs.read(path).await.map_err(|e| e.to_string())?),
        };
        self.original.push((path.to_owned(), text.clone()));
        Ok(text)
    }

    fn set(&mut self, path: &str, contents: Option<String>) {
        match self.staged.iter_mut().find(|(p, _)| p == path) {
            Some(entry) => entry.1 = contents,
            None => self.staged.push((path.to_owned(), contents)),
        }
    }

    async fn stage(&mut self, fs: &SharedFs, op: &Op) -> Result<(), String> {
        match op {
            Op::Add { path, content } => {
                let at = resolve(fs.as_ref(), path);
                if self.current(fs, &at).await?.is_some() {
                    return Err(format!("file already exists: {path}"));
                }
                self.set(&at, Some(content.clone()));
            }
            Op::Delete { path } => {
                let at = resolve(fs.as_ref(), path);
                if self.current(fs, &at).await?.is_none() {
                    return Err(format!("file not found: {path}"));
                }
                self.set(&at, None);
            }
            Op::Update {
                path,
                move_to,
                hunks,
            } => {
                let at = resolve(fs.as_ref(), path);
                let Some(text) = self.current(fs, &at).await? else {
                    return Err(format!("file not found: {path}"));
                };
                let next = apply_hunks(&text, hunks).map_err(|e| format!("{path}: {e}"))?;
                match move_to {
                    Some(target) => {
                        let to = resolve(fs.as_ref(), target);
                        if to != at && self.current(fs, &to).await?.is_some() {
                            return Err(format!("file already exists: {target}"));
                        }
                        self.set(&at, None);
                        self.set(&to, Some(next));
                    }
                    None => self.set(&at, Some(next)),
                }
            }
        }
        Ok(())
    }

    /// Writes everything staged; on a failure, restores what was already changed.
    async fn commit(&self, fs: &SharedFs) -> Result<(), String> {
        for (done, (path, contents)) in self.staged.iter().enumerate() {
            let outcome = match contents {
                Some(text) => fs.write(path, text).await,
                None if lookup(&self.original, path).is_some_and(Option::is_some) => {
                    fs.remove(path).await
                }
                None => Ok(()),
            };
            if let Err(e) = outcome {
                for (earlier, _) in self.staged.iter().take(done) {
                    let _ = match lookup(&self.original, earlier) {
                        Some(Some(text)) => fs.write(earlier, text).await,
                        _ => fs.remove(earlier).await,
                    };
                }
                return Err(format!(
                    "could not write {path}: {e} (earlier changes were undone)"
                ));
            }
        }
        Ok(())
    }
}

/// `apply_patch {patchText}`.
pub fn tool(fs: SharedFs) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "patchText": {"type": "string", "description": "The patch text in Begin/End Patch format"}
        },
        "required": ["patchText"],
        "additionalProperties": false
    }"#;
    let description = "Applies a multi-file patch: '*** Begin Patch', then '*** Add File: p' \
                       (+ lines), '*** Update File: p' (@@ hunks of ' ', '-', '+' lines) or \
                       '*** Delete File: p' sections, then '*** End Patch'. All or nothing: if \
                       any hunk does not match, no file is changed.";
    Builtin::new("apply_patch", description, schema, move |args, _ctx| {
        let fs = fs.clone();
        Box::pin(async move {
            let text = args::required(&args, "patchText")?;
            let ops = parse(&text)?;
            let mut stage = Stage::default();
            for op in &ops {
                stage.stage(&fs, op).await?;
            }
            stage.commit(&fs).await?;
            let count = |f: fn(&Op) -> bool| ops.iter().filter(|o| f(o)).count();
            let metadata = crate::json_value!({
                "added": count(|o| matches!(o, Op::Add { .. })),
                "updated": count(|o| matches!(o, Op::Update { .. })),
                "deleted": count(|o| matches!(o, Op::Delete { .. })),
            });
            let n = ops.len();
            let plural = if n == 1 { "" } else { "s" };
            Ok(ok_with(
                format!("Applied patch: {n} file operation{plural}"),
                metadata,
            ))
        })
    })
}
