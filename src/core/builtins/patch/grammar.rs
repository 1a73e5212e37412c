//! The patch grammar (opencode's): `*** Begin Patch`, then any number of `*** Add File: p`
//! (`+` lines), `*** Update File: p` (optionally `*** Move to: q`, then hunks of ` `/`-`/`+`
//! lines separated by `@@` lines) and `*** Delete File: p`, then `*** End Patch`.

use crate::core::text::JoinWith;

/// One file operation of a patch.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// Creates a file that must not exist yet.
    Add {
        /// The path as written in the patch.
        path: String,
        /// The new file's text.
        content: String,
    },
    /// Removes a file that must exist.
    Delete {
        /// The path as written in the patch.
        path: String,
    },
    /// Changes a file that must exist, every hunk matching its current text.
    Update {
        /// The path as written in the patch.
        path: String,
        /// `*** Move to:` target, when the file is also renamed.
        move_to: Option<String>,
        /// The changes, in file order.
        hunks: Vec<Hunk>,
    },
}

/// One change: the lines it expects (context and `-`), the lines it leaves (context and `+`),
/// and the `@@` anchor text that precedes it, if any.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Hunk {
    /// Text after `@@ `: a line the change comes after.
    pub anchor: Option<String>,
    /// Lines that must be present, in order.
    pub old: Vec<String>,
    /// What replaces them.
    pub new: Vec<String>,
}

fn file_marker(line: &str) -> Option<(&str, String)> {
    let rest = line.strip_prefix("*** ")?;
    ["Add", "Update", "Delete"].into_iter().find_map(|kind| {
        let path = rest.strip_prefix(kind)?.strip_prefix(" File: ")?.trim();
        (!path.is_empty()).then(|| (kind, path.to_owned()))
    })
}

/// Parses a whole patch.
///
/// ```
/// use toolnexus::core::builtins::patch::{parse, Op};
/// let ops = parse("*** Begin Patch\n*** Add File: a.txt\n+hi\n*** Delete File: b.txt\n*** End Patch").unwrap();
/// assert_eq!(ops[0], Op::Add { path: "a.txt".into(), content: "hi".into() });
/// assert_eq!(parse("nope").unwrap_err(), "missing '*** Begin Patch'");
/// ```
pub fn parse(text: &str) -> Result<Vec<Op>, String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut i = lines.iter().take_while(|l| l.trim().is_empty()).count();
    if lines.get(i).map(|l| l.trim()) != Some("*** Begin Patch") {
        return Err("missing '*** Begin Patch'".into());
    }
    i += 1;
    let mut ops = Vec::new();
    while let Some(line) = lines.get(i) {
        if line.trim() == "*** End Patch" {
            return Ok(ops);
        }
        i += 1;
        if line.trim().is_empty() {
            continue;
        }
        let Some((kind, path)) = file_marker(line) else {
            return Err(format!("unexpected line: {line}"));
        };
        let mut body = Vec::new();
        while let Some(next) = lines.get(i) {
            if next.trim() == "*** End Patch" || file_marker(next).is_some() {
                break;
            }
            body.push(*next);
            i += 1;
        }
        ops.push(match kind {
            "Add" => {
                let added: Vec<&str> = body
                    .iter()
                    .map(|l| l.strip_prefix('+').unwrap_or(l))
                    .collect();
                Op::Add {
                    path,
                    content: added.join_with("\n"),
                }
            }
            "Delete" => Op::Delete { path },
            _ => update(path, &body),
        });
    }
    Err("missing '*** End Patch'".into())
}

fn update(path: String, body: &[&str]) -> Op {
    let mut move_to = None;
    let mut hunks = Vec::new();
    let mut current = Hunk::default();
    for line in body {
        if let Some(target) = line.strip_prefix("*** Move to:") {
            move_to = Some(target.trim().to_owned()).filter(|t| !t.is_empty());
        } else if line.trim() == "*** End of File" {
        } else if let Some(anchor) = line.strip_prefix("@@") {
            if !current.old.is_empty() || !current.new.is_empty() {
                hunks.push(std::mem::take(&mut current));
            }
            current.anchor = Some(anchor.trim().to_owned()).filter(|a| !a.is_empty());
        } else if let Some(removed) = line.strip_prefix('-') {
            current.old.push(removed.to_owned());
        } else if let Some(added) = line.strip_prefix('+') {
            current.new.push(added.to_owned());
        } else {
            let context = line.strip_prefix(' ').unwrap_or(line).to_owned();
            current.old.push(context.clone());
            current.new.push(context);
        }
    }
    if !current.old.is_empty() || !current.new.is_empty() {
        hunks.push(current);
    }
    for hunk in &mut hunks {
        trim_blank_tail(hunk);
    }
    Op::Update {
        path,
        move_to,
        hunks,
    }
}

/// Drops bare empty lines at a hunk's end that are context on both sides (a blank line before
/// the next marker is layout, not content).
fn trim_blank_tail(hunk: &mut Hunk) {
    while hunk.old.last().is_some_and(String::is_empty)
        && hunk.new.last().is_some_and(String::is_empty)
    {
        hunk.old.pop();
        hunk.new.pop();
    }
}

/// Applies the hunks of an update to `content`, each searched from where the previous one
/// ended (then from the start). A hunk whose lines are not found is an error.
///
/// ```
/// use toolnexus::core::builtins::patch::{apply_hunks, Hunk};
/// let h = Hunk { anchor: None, old: vec!["b".into()], new: vec!["B".into()] };
/// assert_eq!(apply_hunks("a\nb\nc", &[h.clone()]).unwrap(), "a\nB\nc");
/// assert!(apply_hunks("a", &[h]).is_err());
/// ```
pub fn apply_hunks(content: &str, hunks: &[Hunk]) -> Result<String, String> {
    let mut text = content.to_owned();
    let mut cursor = 0;
    for (n, hunk) in hunks.iter().enumerate() {
        let new_block = hunk.new.join_with("\n");
        if hunk.old.is_empty() {
            let separator = if text.is_empty() || text.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            text = format!("{text}{separator}{new_block}");
            cursor = text.len();
            continue;
        }
        let old_block = hunk.old.join_with("\n");
        let from = hunk
            .anchor
            .as_ref()
            .and_then(|a| find_from(&text, a, cursor).map(|at| at + a.len()))
            .unwrap_or(cursor);
        let at = find_from(&text, &old_block, from)
            .or_else(|| text.find(&old_block))
            .ok_or_else(|| format!("hunk {} does not match file contents", n + 1))?;
        let before = text.get(..at).unwrap_or_default();
        let after = text.get(at + old_block.len()..).unwrap_or_default();
        text = format!("{before}{new_block}{after}");
        cursor = at + new_block.len();
    }
    Ok(text)
}

fn find_from(text: &str, needle: &str, from: usize) -> Option<usize> {
    text.get(from..)?.find(needle).map(|at| at + from)
}
