//! A small glob matcher for `glob` and `grep`'s `include`: `*` (within one path segment), `**`
//! (across segments; `**/` also matches no directory at all), `?`, `{a,b}` (nestable), character
//! classes `[abc]`, `[a-z]`, `[!x]` / `[^x]`, and `\` to escape. A pattern without `/` is
//! matched against the file's name only.
//!
//! ```
//! use toolnexus::core::builtins::glob::Glob;
//! let g = Glob::new("src/**/*.{rs,ts}");
//! assert!(g.matches("src/a.rs") && g.matches("src/x/y/b.ts") && !g.matches("src/c.md"));
//! assert!(Glob::new("*.md").matches("docs/readme.md")); // no slash: the name alone
//! ```

/// Most alternatives a `{…}` expansion may produce; beyond it the rest are dropped.
const MAX_ALTERNATIVES: usize = 256;

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Lit(char),
    Any,
    Star,
    Globstar,
    GlobstarSlash,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// A compiled glob.
#[derive(Debug, Clone)]
pub struct Glob {
    alternatives: Vec<Vec<Token>>,
    has_slash: bool,
}

impl Glob {
    /// Compiles `pattern`; it never fails (a malformed class is taken literally).
    pub fn new(pattern: &str) -> Self {
        let alternatives = expand_braces(pattern).iter().map(|p| tokenize(p)).collect();
        Glob {
            alternatives,
            has_slash: pattern.contains('/'),
        }
    }

    /// Whether a relative path matches (its name alone when the pattern has no `/`).
    pub fn matches(&self, path: &str) -> bool {
        let subject = if self.has_slash {
            path
        } else {
            path.rsplit('/').next().unwrap_or(path)
        };
        let text: Vec<char> = subject.chars().collect();
        self.alternatives.iter().any(|tokens| {
            let mut memo = vec![0u8; (tokens.len() + 1) * (text.len() + 1)];
            matches_at(tokens, &text, 0, 0, &mut memo)
        })
    }
}

fn matches_at(tokens: &[Token], text: &[char], p: usize, t: usize, memo: &mut [u8]) -> bool {
    let slot = p * (text.len() + 1) + t;
    match memo.get(slot) {
        Some(1) => return false,
        Some(2) => return true,
        _ => {}
    }
    let here = text.get(t).copied();
    let result = match tokens.get(p) {
        None => here.is_none(),
        Some(Token::Lit(c)) => here == Some(*c) && matches_at(tokens, text, p + 1, t + 1, memo),
        Some(Token::Any) => {
            here.is_some_and(|c| c != '/') && matches_at(tokens, text, p + 1, t + 1, memo)
        }
        Some(Token::Class { negated, ranges }) => {
            here.is_some_and(|c| {
                c != '/' && ranges.iter().any(|(lo, hi)| *lo <= c && c <= *hi) != *negated
            }) && matches_at(tokens, text, p + 1, t + 1, memo)
        }
        Some(Token::Star) => {
            matches_at(tokens, text, p + 1, t, memo)
                || (here.is_some_and(|c| c != '/') && matches_at(tokens, text, p, t + 1, memo))
        }
        Some(Token::Globstar) => {
            matches_at(tokens, text, p + 1, t, memo)
                || (here.is_some() && matches_at(tokens, text, p, t + 1, memo))
        }
        Some(Token::GlobstarSlash) => {
            matches_at(tokens, text, p + 1, t, memo)
                || (t..text.len()).any(|k| {
                    text.get(k) == Some(&'/') && matches_at(tokens, text, p + 1, k + 1, memo)
                })
        }
    };
    if let Some(cell) = memo.get_mut(slot) {
        *cell = if result { 2 } else { 1 };
    }
    result
}

fn tokenize(pattern: &str) -> Vec<Token> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '\\' => {
                if let Some(&next) = chars.get(i) {
                    tokens.push(Token::Lit(next));
                    i += 1;
                } else {
                    tokens.push(Token::Lit('\\'));
                }
            }
            '?' => tokens.push(Token::Any),
            '*' if chars.get(i) == Some(&'*') => {
                i += 1;
                if chars.get(i) == Some(&'/') {
                    i += 1;
                    tokens.push(Token::GlobstarSlash);
                } else {
                    tokens.push(Token::Globstar);
                }
            }
            '*' => tokens.push(Token::Star),
            '[' => match class(&chars, i) {
                Some((token, next)) => {
                    tokens.push(token);
                    i = next;
                }
                None => tokens.push(Token::Lit('[')),
            },
            other => tokens.push(Token::Lit(other)),
        }
    }
    tokens
}

/// Parses a class whose `[` is just before `start`; `None` when it never closes.
fn class(chars: &[char], start: usize) -> Option<(Token, usize)> {
    let mut i = start;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        if c == ']' && !first {
            return Some((Token::Class { negated, ranges }, i + 1));
        }
        first = false;
        let lo = if c == '\\' {
            i += 1;
            *chars.get(i)?
        } else {
            c
        };
        i += 1;
        match (chars.get(i), chars.get(i + 1)) {
            (Some('-'), Some(&hi)) if hi != ']' => {
                ranges.push((lo, hi));
                i += 2;
            }
            _ => ranges.push((lo, lo)),
        }
    }
}

/// Expands `{a,b}` alternations (nested ones too); an unclosed `{` is literal.
fn expand_braces(pattern: &str) -> Vec<String> {
    let Some((open, close)) = first_group(pattern) else {
        return vec![pattern.to_owned()];
    };
    let (Some(head), Some(body), Some(tail)) = (
        pattern.get(..open),
        pattern.get(open + 1..close),
        pattern.get(close + 1..),
    ) else {
        return vec![pattern.to_owned()];
    };
    let mut out = Vec::new();
    for part in split_top(body) {
        if out.len() >= MAX_ALTERNATIVES {
            break;
        }
        for expanded in expand_braces(&format!("{head}{part}{tail}")) {
            if out.len() >= MAX_ALTERNATIVES {
                return out;
            }
            out.push(expanded);
        }
    }
    out
}

/// Byte offsets of the first top-level `{` … `}` that holds a top-level comma.
fn first_group(pattern: &str) -> Option<(usize, usize)> {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes.get(i) {
            Some(b'\\') => i += 1,
            Some(b'{') => {
                if let Some(close) = matching_close(bytes, i) {
                    let inner = pattern.get(i + 1..close).unwrap_or_default();
                    if split_top(inner).len() > 1 {
                        return Some((i, close));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn matching_close(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Splits on commas that are not inside nested braces.
fn split_top(body: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut escaped) = (0usize, 0usize, false);
    for (i, c) in body.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(body.get(start..i).unwrap_or_default());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(body.get(start..).unwrap_or_default());
    parts
}
