//! Node's POSIX `path.normalize` / `path.join` / `path.dirname`, which the reference uses to
//! name skill files: a relative root stays relative in `location` and in `<file>` entries.

use crate::core::text::JoinWith;

/// `path.normalize(p)`: `.` and `..` resolved (a relative path may keep leading `..`), repeated
/// slashes collapsed, a trailing slash kept; `"."` for an empty result.
///
/// ```
/// # use toolnexus::core::skills::paths::normalize;
/// assert_eq!(normalize("/a/b/../c/"), "/a/c/");
/// assert_eq!(normalize("./x//y"), "x/y");
/// assert_eq!(normalize("../a/.."), "..");
/// assert_eq!(normalize(""), ".");
/// ```
pub fn normalize(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let absolute = path.starts_with('/');
    let trailing = path.ends_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => parts.push(".."),
            },
            other => parts.push(other),
        }
    }
    let mut out = parts.join_with("/");
    if out.is_empty() && !absolute {
        out.push('.');
    }
    if !out.is_empty() && trailing {
        out.push('/');
    }
    if absolute {
        format!("/{out}")
    } else {
        out
    }
}

/// `path.join(dir, name)`.
///
/// ```
/// # use toolnexus::core::skills::paths::join;
/// assert_eq!(join("/skills/", "a"), "/skills/a");
/// assert_eq!(join(".", "a"), "a");
/// assert_eq!(join("", "a"), "a");
/// ```
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        return normalize(name);
    }
    normalize(&format!("{dir}/{name}"))
}

/// `path.dirname(p)`: `"."` for a bare name, `"/"` for a file at the root.
///
/// ```
/// # use toolnexus::core::skills::paths::dirname;
/// assert_eq!(dirname("/s/a/SKILL.md"), "/s/a");
/// assert_eq!(dirname("/SKILL.md"), "/");
/// assert_eq!(dirname("a/SKILL.md"), "a");
/// assert_eq!(dirname("SKILL.md"), ".");
/// ```
pub fn dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return if path.starts_with('/') { "/" } else { "." }.into();
    }
    match trimmed.rfind('/') {
        None => ".".into(),
        Some(at) => {
            let parent = trimmed.get(..at).unwrap_or("").trim_end_matches('/');
            if parent.is_empty() {
                "/".into()
            } else {
                parent.into()
            }
        }
    }
}
