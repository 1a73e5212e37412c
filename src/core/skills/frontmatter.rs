//! The `---` fenced frontmatter of a `SKILL.md`, split off exactly as the reference's pattern
//! `^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$` does, then read as YAML.

use super::yaml::top_level_scalars;

/// A `SKILL.md` split into its frontmatter values and its body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frontmatter {
    /// Top-level scalar values, as trimmed strings.
    pub data: Vec<(String, String)>,
    /// Everything after the closing fence (the whole text when there is no frontmatter).
    pub content: String,
    /// Fences were found but the YAML between them is not valid.
    pub malformed: bool,
}

impl Frontmatter {
    /// The value of `key`, if the frontmatter has it.
    ///
    /// ```
    /// # use toolnexus::core::skills::frontmatter::parse;
    /// assert_eq!(parse("---\nname: a\n---\nbody").get("name"), Some("a"));
    /// ```
    pub fn get(&self, key: &str) -> Option<&str> {
        self.data
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Splits `text` at the fences: the opening `---` line must start the text; the closing one is
/// the first later line starting with `---`.
fn split(text: &str) -> Option<(&str, &str)> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let bytes = rest.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let (yaml_end, fence) = match bytes.get(at) {
            Some(b'\r') if rest.get(at + 1..).is_some_and(|r| r.starts_with("\n---")) => {
                (at, at + 5)
            }
            Some(b'\n') if rest.get(at + 1..).is_some_and(|r| r.starts_with("---")) => (at, at + 4),
            _ => {
                at += 1;
                continue;
            }
        };
        let mut body = rest.get(fence..)?;
        body = body.strip_prefix('\r').unwrap_or(body);
        body = body.strip_prefix('\n').unwrap_or(body);
        return Some((rest.get(..yaml_end)?, body));
    }
    None
}

/// Parses a `SKILL.md`. Never fails: bad YAML marks it `malformed` with no data.
///
/// ```
/// # use toolnexus::core::skills::frontmatter::parse;
/// let f = parse("---\nname: pdf\ndescription: |\n  Line one\n  Line two\n---\n\n# Body\n");
/// assert_eq!(f.get("description"), Some("Line one\nLine two"));
/// assert_eq!(f.content, "\n# Body\n");
/// assert!(parse("---\nname: [x\n---\n").malformed);
/// assert_eq!(parse("no fences").content, "no fences");
/// ```
pub fn parse(text: &str) -> Frontmatter {
    let Some((yaml, content)) = split(text) else {
        return Frontmatter {
            content: text.to_owned(),
            ..Frontmatter::default()
        };
    };
    match top_level_scalars(yaml) {
        Ok(data) => Frontmatter {
            data,
            content: content.to_owned(),
            malformed: false,
        },
        Err(_) => Frontmatter {
            data: Vec::new(),
            content: content.to_owned(),
            malformed: true,
        },
    }
}
