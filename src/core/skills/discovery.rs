//! Directory skills (SPEC §3): every `**/SKILL.md` under each root, following symlinked
//! directories and files; a real path is visited once, so symlink cycles end. Also the
//! sibling-file sampler of the `skill` tool, which walks the same way.

use crate::core::names::Names;

use super::frontmatter;
use super::model::{Origin, SkillInfo, SkillSkip, SkipReason};
use super::paths::join;
use crate::core::fs::{EntryKind, Fs};

/// One candidate before names are deduplicated: a skill, or why it is not one.
pub type Candidate = Result<SkillInfo, SkillSkip>;

/// Directories the walk never enters.
const SKIPPED_DIRS: [&str; 2] = ["node_modules", ".git"];

/// Walks `root` depth-first the way the reference does (a stack: each directory's files in
/// listing order, then its subdirectories, the last listed first), calling `keep` on every
/// file path until it returns `false`.
async fn walk(fs: &dyn Fs, root: &str, mut keep: impl FnMut(&str, &str) -> bool) {
    let mut seen: Names<()> = Names::default();
    // Unlike the reference, the root's own real path counts as visited: a link back to the
    // root does not walk it twice (which would only produce duplicate-name skips).
    if let Ok(real) = fs.real_path(root).await {
        seen.insert(real, ());
    }
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs.list(&dir).await else {
            continue;
        };
        for entry in entries {
            let full = join(&dir, &entry.name);
            match entry.kind {
                EntryKind::Dir => {
                    if SKIPPED_DIRS.contains(&entry.name.as_str()) {
                        continue;
                    }
                    let Ok(real) = fs.real_path(&full).await else {
                        continue;
                    };
                    if seen.insert(real, ()).is_none() {
                        stack.push(full);
                    }
                }
                EntryKind::File => {
                    if !keep(&full, &entry.name) {
                        return;
                    }
                }
            }
        }
    }
}

/// Every `SKILL.md` under `root`, in walk order.
async fn skill_files(fs: &dyn Fs, root: &str) -> Vec<String> {
    let mut found = Vec::new();
    walk(fs, root, |path, name| {
        if name == "SKILL.md" {
            found.push(path.to_owned());
        }
        true
    })
    .await;
    found
}

/// The candidates under one root; a root that is not a directory gives none and a warning.
pub async fn candidates_from_dir(
    fs: &dyn Fs,
    root: &str,
    warnings: &mut Vec<String>,
) -> Vec<Candidate> {
    if !matches!(fs.kind(root).await, Ok(Some(EntryKind::Dir))) {
        warnings.push(format!("skills dir not found: {root}"));
        return Vec::new();
    }
    let mut out = Vec::new();
    for file in skill_files(fs, root).await {
        let Ok(text) = fs.read(&file).await else {
            out.push(Err(skip(&file, SkipReason::Unreadable)));
            continue;
        };
        let parsed = frontmatter::parse(&text);
        if parsed.malformed {
            out.push(Err(skip(&file, SkipReason::MalformedFrontmatter)));
            continue;
        }
        let name = parsed.get("name").unwrap_or_default().to_owned();
        if name.is_empty() {
            out.push(Err(skip(&file, SkipReason::MissingName)));
            continue;
        }
        out.push(Ok(SkillInfo {
            name,
            description: parsed.get("description").map(str::to_owned),
            location: file,
            content: parsed.content,
            origin: Origin::Fs,
        }));
    }
    out
}

fn skip(location: &str, reason: SkipReason) -> SkillSkip {
    SkillSkip {
        location: location.to_owned(),
        reason,
    }
}

/// Up to `limit` files under `dir` other than `SKILL.md`, in walk order.
pub async fn sample_siblings(fs: &dyn Fs, dir: &str, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    if limit == 0 {
        return out;
    }
    walk(fs, dir, |path, name| {
        if name != "SKILL.md" {
            out.push(path.to_owned());
        }
        out.len() < limit
    })
    .await;
    out
}
