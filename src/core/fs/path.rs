//! POSIX-style path arithmetic on strings: no platform rules, no filesystem access.

use crate::core::text::JoinWith;

/// Makes `path` absolute against `cwd` and removes `.`, `..` and repeated slashes. `..` above
/// the root stays at the root.
///
/// ```
/// # use toolnexus::core::fs::normalize;
/// assert_eq!(normalize("/a/b", "../c//d/."), "/a/c/d");
/// assert_eq!(normalize("/a", "/x/y"), "/x/y");
/// assert_eq!(normalize("/", "../.."), "/");
/// ```
pub fn normalize(cwd: &str, path: &str) -> String {
    let joined;
    let full = if path.starts_with('/') {
        path
    } else {
        joined = format!("{cwd}/{path}");
        &joined
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in full.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join_with("/"))
}

/// Joins a directory and a name (or relative path) with one slash.
///
/// ```
/// # use toolnexus::core::fs::join;
/// assert_eq!(join("/a", "b"), "/a/b");
/// assert_eq!(join("/", "b"), "/b");
/// assert_eq!(join("a/", "b"), "a/b");
/// ```
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        return name.to_owned();
    }
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The parent of a normalized absolute path (`/` for `/` itself).
///
/// ```
/// # use toolnexus::core::fs::dirname;
/// assert_eq!(dirname("/a/b.txt"), "/a");
/// assert_eq!(dirname("/a"), "/");
/// ```
pub fn dirname(path: &str) -> String {
    match path.trim_end_matches('/').rfind('/') {
        Some(0) | None => "/".to_owned(),
        Some(at) => path.get(..at).unwrap_or("/").to_owned(),
    }
}

/// The last component of a path.
///
/// ```
/// # use toolnexus::core::fs::basename;
/// assert_eq!(basename("/a/b.txt"), "b.txt");
/// assert_eq!(basename("c"), "c");
/// ```
pub fn basename(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    trimmed.rsplit('/').next().unwrap_or(trimmed)
}

/// `path` relative to `root` (both normalized absolute); `None` when it is not under `root`.
///
/// ```
/// # use toolnexus::core::fs::relative;
/// assert_eq!(relative("/a", "/a/b/c.txt").as_deref(), Some("b/c.txt"));
/// assert_eq!(relative("/", "/x").as_deref(), Some("x"));
/// assert_eq!(relative("/a", "/ab"), None);
/// ```
pub fn relative(root: &str, path: &str) -> Option<String> {
    if root == "/" {
        return path.strip_prefix('/').map(str::to_owned);
    }
    if path == root {
        return Some(String::new());
    }
    let rest = path.strip_prefix(root)?.strip_prefix('/')?;
    Some(rest.to_owned())
}
