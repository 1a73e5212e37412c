//! Reading JSON text without building a [`Value`](crate::core::json::value::Value): walk objects
//! and arrays, decode strings, skip what is not needed, and copy a value out as its canonical
//! text (exactly what [`text::write_value`](super::text::write_value) writes for
//! [`parse::from_str`](super::parse::from_str)`(text)`), so a provider's message
//! can go into the next request as text.
//!
//! The reader is a fast path and refuses whatever it cannot vouch for: every method returns
//! `None` on invalid JSON, and also on valid JSON it does not take (a duplicate key in a copied
//! object, a fraction or exponent, a lone surrogate, nesting deeper than 100). A caller then
//! reads the text the slow way ([`json_parse`](super::parse)), which gives the precise error or the value, so the
//! reader changes no result, only how fast it comes.
//!
//! ```
//! # use toolnexus::core::json::scan::Reader;
//! let mut reader = Reader::new(r#"{ "a": [1, {"b": "x\u0041"}], "c": true }"#);
//! let mut copied = Vec::new();
//! reader.object(|r, key| if key == "a" { r.canonical(&mut copied) } else { r.skip() }).unwrap();
//! reader.finish().unwrap();
//! assert_eq!(String::from_utf8(copied).unwrap(), r#"[1,{"b":"xA"}]"#);
//! ```

use std::borrow::Cow;

use super::text;

/// How deep arrays and objects may nest before the reader gives up (serde_json's limit is 128).
const MAX_DEPTH: u32 = 100;

/// Integers of at most this many digits are copied as they are: they fit `i64` and `u64`.
const MAX_DIGITS: usize = 18;

/// What [`Reader::canonical_object_with`] offers each key to: `Some(true)` when it read the
/// value and appended its canonical text, `Some(false)` to have it copied.
pub type CopyField<'f, 'a> = dyn FnMut(&mut Reader<'a>, &str, &mut Vec<u8>) -> Option<bool> + 'f;

/// A cursor over JSON text. See the [module docs](self).
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    depth: u32,
    /// Where each key of the objects being copied sits in the output (for duplicates).
    keys: Vec<(usize, usize)>,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        Reader {
            text,
            pos: 0,
            depth: 0,
            keys: Vec::new(),
        }
    }

    /// The next byte that is not whitespace, not consumed.
    #[inline(always)]
    pub fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    /// Only whitespace is left.
    pub fn finish(mut self) -> Option<()> {
        self.peek().is_none().then_some(())
    }

    #[inline(always)]
    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        Some(b)
    }

    #[inline(always)]
    fn expect(&mut self, want: u8) -> Option<()> {
        (self.bump()? == want).then_some(())
    }

    #[inline(always)]
    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// Reads an object, calling `field` with each key; `field` must read the key's value.
    pub fn object(&mut self, mut field: impl FnMut(&mut Self, &str) -> Option<()>) -> Option<()> {
        self.object_with(&mut field)
    }

    /// [`object`](Self::object) behind one `dyn` (one copy of the loop in the binary).
    fn object_with(&mut self, field: &mut dyn FnMut(&mut Self, &str) -> Option<()>) -> Option<()> {
        self.expect(b'{')?;
        self.enter()?;
        if self.peek()? == b'}' {
            self.pos += 1;
        } else {
            loop {
                let key = self.string()?;
                self.expect(b':')?;
                field(self, &key)?;
                match self.bump()? {
                    b',' => {}
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// Reads an array, calling `item` with each index; `item` must read the element.
    pub fn array(&mut self, mut item: impl FnMut(&mut Self, usize) -> Option<()>) -> Option<()> {
        self.array_with(&mut item)
    }

    fn array_with(&mut self, item: &mut dyn FnMut(&mut Self, usize) -> Option<()>) -> Option<()> {
        self.expect(b'[')?;
        self.enter()?;
        if self.peek()? == b']' {
            self.pos += 1;
        } else {
            let mut index = 0;
            loop {
                item(self, index)?;
                index += 1;
                match self.bump()? {
                    b',' => {}
                    b']' => break,
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// Reads `null` when it comes next: `Some(true)`; `Some(false)` (nothing read) otherwise.
    pub fn null(&mut self) -> Option<bool> {
        if self.peek()? != b'n' {
            return Some(false);
        }
        self.literal("null").map(|()| true)
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        let rest = self.text.get(self.pos..)?;
        rest.starts_with(word).then(|| self.pos += word.len())
    }

    /// Reads a non-negative integer of at most 18 digits.
    pub fn u64(&mut self) -> Option<u64> {
        let digits = self.integer()?;
        if digits.starts_with('-') {
            return None;
        }
        digits.parse().ok()
    }

    /// Reads an integer token (`-?(0|[1-9][0-9]*)`, at most 18 digits, not `-0`), returned as
    /// its text; a fraction or exponent is refused.
    fn integer(&mut self) -> Option<&'a str> {
        self.peek()?;
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let negative = bytes.get(start) == Some(&b'-');
        let first = start + usize::from(negative);
        let mut end = first;
        while bytes.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        let digits = end - first;
        let leading_zero = bytes.get(first) == Some(&b'0');
        let bad = digits == 0
            || digits > MAX_DIGITS
            || (leading_zero && (digits > 1 || negative))
            || matches!(bytes.get(end), Some(b'.' | b'e' | b'E'));
        if bad {
            return None;
        }
        self.pos = end;
        self.text.get(start..end)
    }

    /// Reads a string, decoded; borrowed from the text when it has no escapes.
    pub fn string(&mut self) -> Option<Cow<'a, str>> {
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let mut i = start + text::plain_len(bytes.get(start..)?);
        if *bytes.get(i)? == b'"' {
            self.pos = i + 1;
            return self.text.get(start..i).map(Cow::Borrowed);
        }
        let mut out = String::with_capacity(i - start + 16);
        out.push_str(self.text.get(start..i)?);
        loop {
            match *bytes.get(i)? {
                b'"' => {
                    self.pos = i + 1;
                    return Some(Cow::Owned(out));
                }
                b'\\' => {
                    let (c, used) = unescape(bytes.get(i + 1..)?)?;
                    out.push(c);
                    i += 1 + used;
                }
                0x00..=0x1f => return None,
                _ => {
                    let run = i + text::plain_len(bytes.get(i..)?);
                    out.push_str(self.text.get(i..run)?);
                    i = run;
                }
            }
        }
    }

    /// Reads a string without keeping it.
    fn skip_string(&mut self) -> Option<()> {
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        let mut i = self.pos;
        loop {
            i += text::plain_len(bytes.get(i..)?);
            match *bytes.get(i)? {
                b'"' => {
                    self.pos = i + 1;
                    return Some(());
                }
                b'\\' => i += 1 + unescape(bytes.get(i + 1..)?)?.1,
                _ => return None,
            }
        }
    }

    /// Reads any number JSON allows whose value is surely finite (serde_json refuses one that
    /// overflows): its digits before the point plus its exponent stay under 300.
    fn skip_number(&mut self) -> Option<()> {
        self.peek()?;
        let bytes = self.text.as_bytes();
        let digits_from = |at: usize| {
            let n = bytes
                .get(at..)
                .unwrap_or_default()
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            (n, at + n)
        };
        let mut at = self.pos + usize::from(bytes.get(self.pos) == Some(&b'-'));
        let (whole, mut end) = digits_from(at);
        if whole == 0 || (whole > 1 && bytes.get(at) == Some(&b'0')) {
            return None;
        }
        if bytes.get(end) == Some(&b'.') {
            let (fraction, after) = digits_from(end + 1);
            if fraction == 0 {
                return None;
            }
            end = after;
        }
        let mut exponent: i64 = 0;
        if matches!(bytes.get(end), Some(b'e' | b'E')) {
            at = end + 1;
            let negative = bytes.get(at) == Some(&b'-');
            at += usize::from(matches!(bytes.get(at), Some(b'+' | b'-')));
            let (n, after) = digits_from(at);
            if n == 0 || n > 6 {
                return None;
            }
            let value: i64 = self.text.get(at..after)?.parse().ok()?;
            exponent = if negative { -value } else { value };
            end = after;
        }
        if whole as i64 + exponent >= 300 {
            return None;
        }
        self.pos = end;
        Some(())
    }

    /// Reads a value and forgets it. Unlike a copy, it may hold fractions, exponents and
    /// repeated keys (what serde_json reads, but for a number that overflows).
    pub fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'{' => self.object(|r, _| r.skip()),
            b'[' => self.array(|r, _| r.skip()),
            b'"' => self.skip_string(),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            _ => self.skip_number(),
        }
    }

    /// Reads a value, appending its canonical text to `out`.
    pub fn canonical(&mut self, out: &mut Vec<u8>) -> Option<()> {
        match self.peek()? {
            b'{' => self.canonical_object(out),
            b'[' => {
                out.push(b'[');
                self.array(|r, i| {
                    if i > 0 {
                        out.push(b',');
                    }
                    r.canonical(out)
                })?;
                out.push(b']');
                Some(())
            }
            b'"' => self.canonical_string(out).map(drop),
            b't' => self
                .literal("true")
                .map(|()| out.extend_from_slice(b"true")),
            b'f' => self
                .literal("false")
                .map(|()| out.extend_from_slice(b"false")),
            b'n' => self
                .literal("null")
                .map(|()| out.extend_from_slice(b"null")),
            _ => self
                .integer()
                .map(|digits| out.extend_from_slice(digits.as_bytes())),
        }
    }

    /// Reads a string, appending its canonical text to `out`; gives the string, decoded.
    pub fn canonical_string(&mut self, out: &mut Vec<u8>) -> Option<Cow<'a, str>> {
        let read = self.string()?;
        match &read {
            // No quote, backslash or control byte: the text is its own JSON.
            Cow::Borrowed(plain) => {
                out.push(b'"');
                out.extend_from_slice(plain.as_bytes());
                out.push(b'"');
            }
            Cow::Owned(decoded) => text::write_str(out, decoded),
        }
        Some(read)
    }

    /// Reads `null` when it comes next, appending it to `out`: `Some(true)`; `Some(false)`
    /// (nothing read) otherwise.
    pub fn canonical_null(&mut self, out: &mut Vec<u8>) -> Option<bool> {
        let null = self.null()?;
        if null {
            out.extend_from_slice(b"null");
        }
        Some(null)
    }

    fn canonical_object(&mut self, out: &mut Vec<u8>) -> Option<()> {
        self.canonical_object_with(out, &mut |_, _, _| Some(false))
    }

    /// Reads an object, appending its canonical text to `out` as [`canonical`](Self::canonical)
    /// does, with each key's value offered to `field` first: `field` gives `Some(true)` when
    /// it read the value and appended its canonical text itself, `Some(false)` (having read
    /// nothing) to have it copied. A key is offered once: an object that repeats one is
    /// refused before its second value is read.
    ///
    /// ```
    /// # use toolnexus::core::json::scan::Reader;
    /// let mut reader = Reader::new(r#"{"a": "x\u0041", "b": [1, 2]}"#);
    /// let (mut out, mut a) = (Vec::new(), String::new());
    /// reader.canonical_object_with(&mut out, &mut |r, key, out| match key {
    ///     "a" => { a = r.canonical_string(out)?.into_owned(); Some(true) }
    ///     _ => Some(false),
    /// }).unwrap();
    /// assert_eq!((a.as_str(), &out[..]), ("xA", &br#"{"a":"xA","b":[1,2]}"#[..]));
    /// ```
    pub fn canonical_object_with(
        &mut self,
        out: &mut Vec<u8>,
        field: &mut CopyField<'_, 'a>,
    ) -> Option<()> {
        // This object's keys sit in `keys` from `first` on; nested objects add theirs after
        // them and take them away again when they end.
        let first = self.keys.len();
        if first == 0 {
            // Room for the keys of a message with a tool call in it (seven), made at once
            // rather than grown on the way.
            self.keys.reserve(8);
        }
        out.push(b'{');
        let read = self.object(|r, key| {
            if r.keys.len() > first {
                out.push(b',');
            }
            let at = out.len();
            text::write_str(out, key);
            let written = out.get(at..)?;
            let mine = r.keys.get(first..)?;
            if mine
                .iter()
                .any(|&(from, to)| out.get(from..to) == Some(written))
            {
                return None;
            }
            r.keys.push((at, out.len()));
            out.push(b':');
            if field(r, key, out)? {
                Some(())
            } else {
                r.canonical(out)
            }
        });
        self.keys.truncate(first);
        read?;
        out.push(b'}');
        Some(())
    }
}

/// Marks key `bit` of an object as read in `seen` (one bit a key, up to eight keys); `None`
/// when it was read before. A fast reader that takes a field refuses an object repeating it,
/// since serde_json keeps the last of repeated keys.
///
/// ```
/// # use toolnexus::core::json::scan::first_time;
/// let mut seen = 0u8;
/// assert_eq!((first_time(&mut seen, 1), first_time(&mut seen, 2)), (Some(()), Some(())));
/// assert_eq!(first_time(&mut seen, 1), None);
/// ```
pub fn first_time(seen: &mut u8, bit: u8) -> Option<()> {
    if *seen & bit != 0 {
        return None;
    }
    *seen |= bit;
    Some(())
}

/// The character of the escape after a backslash, and how many bytes it used.
fn unescape(after: &[u8]) -> Option<(char, usize)> {
    let c = match *after.first()? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let high = hex4(after.get(1..5)?)?;
            if !(0xD800..0xE000).contains(&high) {
                return Some((char::from_u32(high)?, 5));
            }
            // A surrogate: only a high one followed by an escaped low one makes a character.
            let low = match after.get(5..7) {
                Some(b"\\u") => hex4(after.get(7..11)?)?,
                _ => return None,
            };
            if high >= 0xDC00 || !(0xDC00..0xE000).contains(&low) {
                return None;
            }
            let c = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
            return Some((char::from_u32(c)?, 11));
        }
        _ => return None,
    };
    Some((c, 1))
}

fn hex4(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &d| {
        let v = char::from(d).to_digit(16)?;
        Some(n * 16 + v)
    })
}
