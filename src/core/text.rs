//! Substring search and replacement without `core::str::pattern`'s searcher.
//!
//! `str::find`, `contains`, `replace` and `split_once` with a `&str` pattern go through the
//! standard library's two-way searcher, whose slicing can panic with a message naming the
//! offending character; that message alone brings Rust's Unicode printability tables and
//! `char`'s `Debug` into the wasm module (about 6 KB raw). The strings searched here are short
//! (URLs, header values, error messages), so a plain scan does the same work in a few bytes of
//! code. Searching by `char` (`find('/')`) does not use the searcher and stays as it is.

/// The byte index of the first occurrence of `needle` in `haystack`; an empty needle is found
/// at 0, as `str::find` finds it.
///
/// ```
/// use toolnexus::core::text::find;
/// assert_eq!(find("a${B}", "${"), Some(1));
/// assert_eq!(find("abc", "x"), None);
/// assert_eq!(find("é${", "${"), Some(2));
/// ```
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    let (hay, pin) = (haystack.as_bytes(), needle.as_bytes());
    if pin.is_empty() {
        return Some(0);
    }
    // A match of valid UTF-8 starts on a character boundary, so the index slices safely.
    hay.windows(pin.len()).position(|window| window == pin)
}

/// `haystack` before and after the first `needle`, as `str::split_once` with a `&str` pattern.
///
/// ```
/// use toolnexus::core::text::split_once;
/// assert_eq!(split_once("http://h/p", "://"), Some(("http", "h/p")));
/// assert_eq!(split_once("h/p", "://"), None);
/// ```
pub fn split_once<'a>(haystack: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let at = find(haystack, needle)?;
    Some((haystack.get(..at)?, haystack.get(at + needle.len()..)?))
}

/// Every occurrence of `needle` in `text` replaced with `with`, left to right without overlaps
/// (as `str::replace`); an empty needle leaves `text` as it is.
///
/// ```
/// use toolnexus::core::text::replace;
/// assert_eq!(replace("k=sk-1 and sk-1", "sk-1", "[redacted]"), "k=[redacted] and [redacted]");
/// assert_eq!(replace("aaa", "aa", "b"), "ba");
/// ```
pub fn replace(text: &str, needle: &str, with: &str) -> String {
    if needle.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after)) = split_once(rest, needle) {
        out.push_str(before);
        out.push_str(with);
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `join` for slices of strings, in one small loop: the standard library's `[S]::join` is a
/// specialised copy that costs the wasm module about 1 KB per element type.
pub trait JoinWith {
    /// The items with `sep` between each two, as `[S]::join`.
    ///
    /// ```
    /// use toolnexus::core::text::JoinWith;
    /// assert_eq!(["a", "b", "c"].join_with(", "), "a, b, c");
    /// assert_eq!(Vec::<String>::new().join_with("\n"), "");
    /// ```
    fn join_with(&self, sep: &str) -> String;
}

impl<S: AsRef<str>> JoinWith for [S] {
    fn join_with(&self, sep: &str) -> String {
        let mut out = String::new();
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(item.as_ref());
        }
        out
    }
}

/// `bytes` as text, each invalid UTF-8 sequence replaced with U+FFFD, as
/// `String::from_utf8_lossy` replaces them (its chunk iterator costs the wasm module ~1 KB;
/// `str::from_utf8`, which the module has anyway, finds the same sequences).
///
/// ```
/// use toolnexus::core::text::from_utf8_lossy;
/// assert_eq!(from_utf8_lossy(b"ok \xF0\x9F\xA6\x80"), "ok 🦀");
/// assert_eq!(from_utf8_lossy(b"a\xFFb\xE2\x82"), "a\u{FFFD}b\u{FFFD}");
/// ```
pub fn from_utf8_lossy(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                out.push_str(text);
                return out;
            }
            Err(error) => {
                let (valid, after) = rest
                    .split_at_checked(error.valid_up_to())
                    .unwrap_or((rest, &[]));
                // The prefix is valid by the error's own account.
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{FFFD}');
                match error.error_len() {
                    Some(bad) => rest = after.get(bad..).unwrap_or_default(),
                    // A sequence cut short at the end: one replacement for all of it.
                    None => return out,
                }
            }
        }
    }
}
