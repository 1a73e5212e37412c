//! JSON text to a [`Value`](crate::core::json::value::Value), with serde_json's own results: the
//! same values (its
//! integer, negative and float forms, the same float rounding, the last of repeated keys in
//! the first one's place) and the same errors, word for word (`expected value at line 1
//! column 1`). serde_json's parser is generic over serde's visitors and readers and carries a
//! 2.5 KB table of powers of ten; this one builds the `Value` directly and works the powers
//! out once, the first time a number needs one. `tests/json_parse.rs` checks it against
//! serde_json on generated, reformatted and broken texts.
//!
//! ```
//! use toolnexus::core::json::parse::from_str;
//! assert_eq!(from_str(r#"{"a": [1, -2, 2.5e1, null]}"#).unwrap(), toolnexus::json!({"a": [1, -2, 25.0, null]}));
//! assert_eq!(from_str("[1,]").unwrap_err().to_string(), "trailing comma at line 1 column 4");
//! ```

use crate::core::json::value::{Map, Number, Value};
use std::fmt;

/// Why a text is not JSON, and where: displayed as serde_json displays its error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong (`"expected value"`, `"trailing comma"`, ...).
    pub reason: &'static str,
    /// The line, from 1.
    pub line: usize,
    /// The byte column in that line.
    pub column: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.reason, self.line, self.column
        )
    }
}

impl std::error::Error for ParseError {}

const EOF_LIST: &str = "EOF while parsing a list";
const EOF_OBJECT: &str = "EOF while parsing an object";
const EOF_STRING: &str = "EOF while parsing a string";
const EOF_VALUE: &str = "EOF while parsing a value";
const EXPECTED_COLON: &str = "expected `:`";
const EXPECTED_LIST_END: &str = "expected `,` or `]`";
const EXPECTED_OBJECT_END: &str = "expected `,` or `}`";
const EXPECTED_IDENT: &str = "expected ident";
const EXPECTED_VALUE: &str = "expected value";
const INVALID_ESCAPE: &str = "invalid escape";
const INVALID_NUMBER: &str = "invalid number";
const INVALID_UNICODE: &str = "invalid unicode code point";
const OUT_OF_RANGE: &str = "number out of range";
const CONTROL_CHARACTER: &str = "control character (\\u0000-\\u001F) found while parsing a string";
const KEY_NOT_STRING: &str = "key must be a string";
const LONE_SURROGATE: &str = "lone leading surrogate in hex escape";
const TRAILING_COMMA: &str = "trailing comma";
const TRAILING_CHARACTERS: &str = "trailing characters";
const HEX_ESCAPE_END: &str = "unexpected end of hex escape";
const TOO_DEEP: &str = "recursion limit exceeded";

/// Parses `text` as one JSON value (surrounding whitespace allowed).
///
/// ```
/// use toolnexus::core::json::parse::from_str;
/// assert_eq!(from_str(" 18446744073709551616 ").unwrap(), toolnexus::json!(18446744073709551616.0));
/// assert_eq!(from_str("{\"a\" 1}").unwrap_err().to_string(), "expected `:` at line 1 column 6");
/// ```
pub fn from_str(text: &str) -> Result<Value, ParseError> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
        depth: 128,
        scratch: Vec::new(),
    };
    let value = parser.value()?;
    match parser.skip_space() {
        Some(_) => Err(parser.peek_error(TRAILING_CHARACTERS)),
        None => Ok(value),
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Nesting left before "recursion limit exceeded" (serde_json's 128).
    depth: u8,
    /// A string being unescaped.
    scratch: Vec<u8>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// The next byte, or 0 at the end (serde_json's `peek_or_null`).
    fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn error_at(&self, reason: &'static str, at: usize) -> ParseError {
        let before = self.bytes.get(..at).unwrap_or(self.bytes);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let lines = before
            .iter()
            .take(line_start)
            .filter(|&&b| b == b'\n')
            .count();
        ParseError {
            reason,
            line: 1 + lines,
            column: at - line_start,
        }
    }

    /// An error about the byte just read (serde_json's `error`).
    fn error(&self, reason: &'static str) -> ParseError {
        self.error_at(reason, self.at)
    }

    /// An error about the byte ahead (serde_json's `peek_error`).
    fn peek_error(&self, reason: &'static str) -> ParseError {
        self.error_at(reason, (self.at + 1).min(self.bytes.len()))
    }

    fn skip_space(&mut self) -> Option<u8> {
        while let Some(byte) = self.peek() {
            if !matches!(byte, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(byte);
            }
            self.at += 1;
        }
        None
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        let Some(byte) = self.skip_space() else {
            return Err(self.peek_error(EOF_VALUE));
        };
        match byte {
            b'n' => self.ident(b"null", Value::Null),
            b't' => self.ident(b"true", Value::Bool(true)),
            b'f' => self.ident(b"false", Value::Bool(false)),
            b'-' => {
                self.at += 1;
                self.number(false)
            }
            b'0'..=b'9' => self.number(true),
            b'"' => {
                self.at += 1;
                self.string().map(Value::String)
            }
            b'[' => self.nested(Self::array),
            b'{' => self.nested(Self::object),
            _ => Err(self.peek_error(EXPECTED_VALUE)),
        }
    }

    fn ident(&mut self, word: &[u8], value: Value) -> Result<Value, ParseError> {
        self.at += 1;
        for &expected in word.get(1..).unwrap_or_default() {
            match self.next() {
                None => return Err(self.error(EOF_VALUE)),
                Some(byte) if byte != expected => return Err(self.error(EXPECTED_IDENT)),
                Some(_) => {}
            }
        }
        Ok(value)
    }

    fn nested(
        &mut self,
        body: fn(&mut Self) -> Result<Value, ParseError>,
    ) -> Result<Value, ParseError> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(self.peek_error(TOO_DEEP));
        }
        self.at += 1;
        let value = body(self);
        self.depth += 1;
        value
    }

    fn array(&mut self) -> Result<Value, ParseError> {
        let mut items = Vec::new();
        loop {
            let Some(byte) = self.skip_space() else {
                return Err(self.peek_error(EOF_LIST));
            };
            if byte == b']' {
                self.at += 1;
                return Ok(Value::Array(items));
            }
            if !items.is_empty() {
                if byte != b',' {
                    return Err(self.peek_error(EXPECTED_LIST_END));
                }
                self.at += 1;
                match self.skip_space() {
                    Some(b']') => return Err(self.peek_error(TRAILING_COMMA)),
                    Some(_) => {}
                    None => return Err(self.peek_error(EOF_VALUE)),
                }
            }
            items.push(self.value()?);
        }
    }

    fn object(&mut self) -> Result<Value, ParseError> {
        // Collected, then made a map at once: a repeated key found through a hash index, not a
        // scan per key.
        let mut entries = Vec::new();
        let mut first = true;
        loop {
            let Some(byte) = self.skip_space() else {
                return Err(self.peek_error(EOF_OBJECT));
            };
            if byte == b'}' {
                self.at += 1;
                return Ok(Value::Object(Map::from_entries(entries)));
            }
            if first {
                if byte != b'"' {
                    return Err(self.peek_error(KEY_NOT_STRING));
                }
            } else if byte == b',' {
                self.at += 1;
                match self.skip_space() {
                    Some(b'"') => {}
                    Some(b'}') => return Err(self.peek_error(TRAILING_COMMA)),
                    Some(_) => return Err(self.peek_error(KEY_NOT_STRING)),
                    None => return Err(self.peek_error(EOF_VALUE)),
                }
            } else {
                return Err(self.peek_error(EXPECTED_OBJECT_END));
            }
            first = false;
            self.at += 1;
            let key = self.string()?;
            match self.skip_space() {
                Some(b':') => self.at += 1,
                Some(_) => return Err(self.peek_error(EXPECTED_COLON)),
                None => return Err(self.peek_error(EOF_OBJECT)),
            }
            let value = self.value()?;
            entries.push((key, value));
        }
    }
}

/// Whether `n * 10 + digit` overflows `limit` (serde_json's test).
fn overflows(n: u64, digit: u64, limit: u64) -> bool {
    n >= limit / 10 && (n > limit / 10 || digit > limit % 10)
}

impl Parser<'_> {
    /// A number after its sign: an integer while it fits, else a float, as serde_json reads it.
    fn number(&mut self, positive: bool) -> Result<Value, ParseError> {
        let Some(first) = self.next() else {
            return Err(self.error(EOF_VALUE));
        };
        let mut significand = match first {
            b'0' => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(INVALID_NUMBER));
                }
                0
            }
            b'1'..=b'9' => u64::from(first - b'0'),
            _ => return Err(self.error(INVALID_NUMBER)),
        };
        if first != b'0' {
            while let c @ b'0'..=b'9' = self.peek_or_null() {
                let digit = u64::from(c - b'0');
                if overflows(significand, digit, u64::MAX) {
                    return self.long_integer(positive, significand).map(float);
                }
                self.at += 1;
                significand = significand * 10 + digit;
            }
        }
        match self.peek_or_null() {
            b'.' => self.decimal(positive, significand, 0).map(float),
            b'e' | b'E' => self.exponent(positive, significand, 0).map(float),
            _ if positive => Ok(Value::Number(significand.into())),
            _ => {
                let negative = (significand as i64).wrapping_neg();
                // `-0` and what does not fit an i64 are floats.
                if negative >= 0 {
                    Ok(float(-(significand as f64)))
                } else {
                    Ok(Value::Number(negative.into()))
                }
            }
        }
    }

    /// An integer with more digits than a u64 holds: the rest only scale it.
    fn long_integer(&mut self, positive: bool, significand: u64) -> Result<f64, ParseError> {
        let mut exponent = 0i32;
        loop {
            match self.peek_or_null() {
                b'0'..=b'9' => {
                    self.at += 1;
                    exponent = exponent.saturating_add(1);
                }
                b'.' => return self.decimal(positive, significand, exponent),
                b'e' | b'E' => return self.exponent(positive, significand, exponent),
                _ => return self.scaled(positive, significand, exponent),
            }
        }
    }

    fn decimal(
        &mut self,
        positive: bool,
        mut significand: u64,
        before: i32,
    ) -> Result<f64, ParseError> {
        self.at += 1;
        let mut after = 0i32;
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            let digit = u64::from(c - b'0');
            if overflows(significand, digit, u64::MAX) {
                // Digits past what a u64 holds are dropped.
                while self.peek_or_null().is_ascii_digit() {
                    self.at += 1;
                }
                return match self.peek_or_null() {
                    b'e' | b'E' => self.exponent(positive, significand, before + after),
                    _ => self.scaled(positive, significand, before + after),
                };
            }
            self.at += 1;
            significand = significand * 10 + digit;
            after -= 1;
        }
        if after == 0 {
            return Err(match self.peek() {
                Some(_) => self.peek_error(INVALID_NUMBER),
                None => self.peek_error(EOF_VALUE),
            });
        }
        match self.peek_or_null() {
            b'e' | b'E' => self.exponent(positive, significand, before + after),
            _ => self.scaled(positive, significand, before + after),
        }
    }

    fn exponent(
        &mut self,
        positive: bool,
        significand: u64,
        start: i32,
    ) -> Result<f64, ParseError> {
        self.at += 1;
        let positive_exponent = match self.peek_or_null() {
            b'+' => {
                self.at += 1;
                true
            }
            b'-' => {
                self.at += 1;
                false
            }
            _ => true,
        };
        let mut exponent = match self.next() {
            None => return Err(self.error(EOF_VALUE)),
            Some(c @ b'0'..=b'9') => i32::from(c - b'0'),
            Some(_) => return Err(self.error(INVALID_NUMBER)),
        };
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            self.at += 1;
            let digit = i32::from(c - b'0');
            if overflows(exponent as u64, digit as u64, i32::MAX as u64) {
                if significand != 0 && positive_exponent {
                    return Err(self.error(OUT_OF_RANGE));
                }
                while self.peek_or_null().is_ascii_digit() {
                    self.at += 1;
                }
                return Ok(if positive { 0.0 } else { -0.0 });
            }
            exponent = exponent * 10 + digit;
        }
        let exponent = if positive_exponent {
            start.saturating_add(exponent)
        } else {
            start.saturating_sub(exponent)
        };
        self.scaled(positive, significand, exponent)
    }

    /// `significand × 10^exponent` as serde_json works it out: one multiplication or division
    /// by a power of ten (rounded as serde_json's are), dividing by 1e308 first while the
    /// power is out of the table.
    fn scaled(
        &self,
        positive: bool,
        significand: u64,
        mut exponent: i32,
    ) -> Result<f64, ParseError> {
        let mut f = significand as f64;
        loop {
            match power_of_ten(exponent.unsigned_abs()) {
                Some(power) => {
                    if exponent >= 0 {
                        f *= power;
                        if f.is_infinite() {
                            return Err(self.error(OUT_OF_RANGE));
                        }
                    } else {
                        f /= power;
                    }
                    break;
                }
                None => {
                    if f == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return Err(self.error(OUT_OF_RANGE));
                    }
                    f /= 1e308;
                    exponent += 308;
                }
            }
        }
        Ok(if positive { f } else { -f })
    }
}

/// A float as a JSON value (serde_json's `Value::from(f64)`: never infinite here).
fn float(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

thread_local! {
    /// 10^0 ..= 10^308, each the nearest f64, worked out on first use.
    static POWERS_OF_TEN: Vec<f64> = powers_of_ten(308);
}

/// 10^k, the nearest f64 (as the literal `1e{k}` is), for k up to 308.
fn power_of_ten(k: u32) -> Option<f64> {
    POWERS_OF_TEN.with(|powers| powers.get(k as usize).copied())
}

/// 10^0 ..= 10^last, each rounded to the nearest f64: the exact powers are kept in 32-bit
/// limbs, each one ten times the one before.
fn powers_of_ten(last: u32) -> Vec<f64> {
    let mut limbs: Vec<u32> = vec![1];
    let mut powers = Vec::with_capacity(last as usize + 1);
    for _ in 0..=last {
        powers.push(nearest_f64(&limbs));
        let mut carry = 0u64;
        for limb in &mut limbs {
            let product = u64::from(*limb) * 10 + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            limbs.push(carry as u32);
        }
    }
    powers
}

/// The integer in `limbs` (least significant first) rounded to the nearest f64, ties to even.
fn nearest_f64(limbs: &[u32]) -> f64 {
    let top = limbs.last().copied().unwrap_or(1);
    let bits = 32 * (limbs.len() as u32 - 1) + (32 - top.leading_zeros());
    if bits <= 64 {
        // At most 64 bits: u64 to f64 rounds to nearest, ties to even.
        let value = limbs
            .iter()
            .rev()
            .fold(0u64, |n, &l| (n << 32) | u64::from(l));
        return value as f64;
    }
    // The top 64 bits, and whether anything below them is set.
    let shift = bits - 64;
    let bit = |i: u32| -> u64 {
        limbs
            .get((i / 32) as usize)
            .map_or(0, |&l| u64::from((l >> (i % 32)) & 1))
    };
    let top64 = (0..64).rev().fold(0u64, |n, i| (n << 1) | bit(shift + i));
    let sticky = (0..shift).any(|i| bit(i) == 1);
    let mut mantissa = top64 >> 11;
    let rest = top64 & 0x7ff;
    let mut exponent = bits - 1;
    if rest > 0x400 || (rest == 0x400 && (sticky || mantissa & 1 == 1)) {
        mantissa += 1;
        if mantissa == 1 << 53 {
            mantissa >>= 1;
            exponent += 1;
        }
    }
    f64::from_bits((u64::from(exponent + 1023) << 52) | (mantissa & ((1 << 52) - 1)))
}

impl Parser<'_> {
    /// A string's contents after its opening quote, unescaped.
    fn string(&mut self) -> Result<String, ParseError> {
        self.scratch.clear();
        let mut start = self.at;
        loop {
            let rest = self.bytes.get(self.at..).unwrap_or_default();
            self.at += rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(rest.len());
            let Some(byte) = self.peek() else {
                return Err(self.error(EOF_STRING));
            };
            let plain = self.bytes.get(start..self.at).unwrap_or_default();
            self.at += 1;
            match byte {
                b'"' => {
                    self.scratch.extend_from_slice(plain);
                    let bytes = std::mem::take(&mut self.scratch);
                    // Always UTF-8: the input is a `str`, cut only at ASCII bytes, and escapes
                    // were checked as they were decoded; serde_json's reason if it ever were not.
                    return String::from_utf8(bytes).map_err(|_| self.error(INVALID_UNICODE));
                }
                b'\\' => {
                    self.scratch.extend_from_slice(plain);
                    self.escape()?;
                    start = self.at;
                }
                _ => return Err(self.error(CONTROL_CHARACTER)),
            }
        }
    }

    /// One escape after its backslash.
    fn escape(&mut self) -> Result<(), ParseError> {
        let Some(byte) = self.next() else {
            return Err(self.error(EOF_STRING));
        };
        let plain = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.error(INVALID_ESCAPE)),
        };
        self.scratch.push(plain);
        Ok(())
    }

    /// A `\u` escape after its `u`, and the second half of a surrogate pair.
    fn unicode_escape(&mut self) -> Result<(), ParseError> {
        let first = self.hex4()?;
        if (0xDC00..=0xDFFF).contains(&first) {
            return Err(self.error(LONE_SURROGATE));
        }
        let code = if (0xD800..=0xDBFF).contains(&first) {
            for expected in [b'\\', b'u'] {
                let Some(byte) = self.next() else {
                    return Err(self.error(EOF_STRING));
                };
                if byte != expected {
                    return Err(self.error(HEX_ESCAPE_END));
                }
            }
            let second = self.hex4()?;
            if !(0xDC00..=0xDFFF).contains(&second) {
                return Err(self.error(LONE_SURROGATE));
            }
            0x1_0000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00)
        } else {
            u32::from(first)
        };
        let c = char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        let mut utf8 = [0u8; 4];
        self.scratch
            .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
        Ok(())
    }

    /// Four hex digits.
    fn hex4(&mut self) -> Result<u16, ParseError> {
        let Some(digits) = self.bytes.get(self.at..self.at + 4) else {
            self.at = self.bytes.len();
            return Err(self.error(EOF_STRING));
        };
        self.at += 4;
        let mut code = 0u16;
        for &digit in digits {
            let value = match digit {
                b'0'..=b'9' => digit - b'0',
                b'a'..=b'f' => digit - b'a' + 10,
                b'A'..=b'F' => digit - b'A' + 10,
                _ => return Err(self.error(INVALID_ESCAPE)),
            };
            code = code << 4 | u16::from(value);
        }
        Ok(code)
    }
}
