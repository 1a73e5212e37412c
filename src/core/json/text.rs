//! Compact JSON text of `Value`s, written straight into a byte buffer: exactly the
//! bytes `serde_json::to_string` writes, without serde's serializer layers. In the size-optimized
//! wasm build each of those layers is a real call per token; this is the path of every request
//! body's messages, every tool call's arguments and every run result's transcript.

use crate::core::json::value::{Map, Number, Value};

/// The JSON text of `value`.
///
/// ```
/// # use toolnexus::core::json::text::to_text;
/// # use toolnexus::json;
/// let value = json!({"role": "user", "content": "say \"hi\"\n", "n": [1, 2.5, null]});
/// assert_eq!(to_text(&value), serde_json::to_string(&value).unwrap());
/// ```
pub fn to_text(value: &Value) -> String {
    let mut out = Vec::with_capacity(128);
    write_value(&mut out, value);
    into_string(out)
}

/// The JSON text of `items` as an array.
///
/// ```
/// # use toolnexus::core::json::text::items_text;
/// # use toolnexus::json;
/// assert_eq!(items_text(&[json!(1), json!("a")]), r#"[1,"a"]"#);
/// ```
pub fn items_text(items: &[Value]) -> String {
    let mut out = Vec::with_capacity(128 * (items.len() + 1));
    write_items(&mut out, items);
    into_string(out)
}

/// Appends the JSON text of `items` as an array to `out`.
pub fn write_items(out: &mut Vec<u8>, items: &[Value]) {
    out.push(b'[');
    write_joined(out, items);
    out.push(b']');
}

/// Appends the JSON texts of `items`, comma-separated, without brackets.
pub fn write_joined(out: &mut Vec<u8>, items: &[Value]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_value(out, item);
    }
}

/// Appends the JSON text of `value` to `out`.
pub fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => write_items(out, items),
        Value::Object(map) => write_map(out, map),
    }
}

/// Appends the JSON text of the object `map` to `out`.
pub fn write_map(out: &mut Vec<u8>, map: &Map<String, Value>) {
    out.push(b'{');
    for (i, (key, item)) in map.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_str(out, key);
        out.push(b':');
        write_value(out, item);
    }
    out.push(b'}');
}

/// Appends a number as serde_json writes it: an integer's digits, a float's shortest
/// round-trip digits from zmij (`1.0`, `1e300`, `-2.5e-7`), the same formatter serde_json uses.
///
/// ```
/// # use toolnexus::core::json::text::to_text;
/// # use toolnexus::json;
/// for n in [json!(0), json!(u64::MAX), json!(i64::MIN), json!(1.0), json!(-2.5e-7), json!(1e300)] {
///     assert_eq!(to_text(&n), serde_json::to_string(&n).unwrap());
/// }
/// ```
pub fn write_number(out: &mut Vec<u8>, n: &Number) {
    if let Some(u) = n.as_u64() {
        write_u64(out, u);
    } else if let Some(i) = n.as_i64() {
        out.push(b'-');
        write_u64(out, i.unsigned_abs());
    } else if let Some(f) = n.as_f64().filter(|f| f.is_finite()) {
        out.extend_from_slice(zmij::Buffer::new().format_finite(f).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Appends the decimal digits of `n`.
pub fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(at..).unwrap_or_default());
}

/// Appends `s` as a JSON string: `"` and `\` escaped, control characters as `\b \t \n \f \r`
/// or `\u00XX`, everything else as it is (serde_json's escaping).
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    loop {
        let rest = bytes.get(start..).unwrap_or_default();
        let plain = plain_len(rest);
        out.extend_from_slice(rest.get(..plain).unwrap_or_default());
        let Some(&byte) = rest.get(plain) else { break };
        let short: &[u8] = match byte {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            b'\t' => b"\\t",
            b'\n' => b"\\n",
            0x0c => b"\\f",
            b'\r' => b"\\r",
            _ => b"",
        };
        if short.is_empty() {
            let hex = |nibble: u8| HEX.get(usize::from(nibble)).copied().unwrap_or(b'0');
            out.extend_from_slice(&[b'\\', b'u', b'0', b'0', hex(byte >> 4), hex(byte & 0xf)]);
        } else {
            out.extend_from_slice(short);
        }
        start += plain + 1;
    }
    out.push(b'"');
}

/// How many bytes from the start of `bytes` a JSON string holds as they are: up to the first
/// `"`, `\` or control byte (or all of them). Eight bytes at a time, then one by one.
///
/// ```
/// # use toolnexus::core::json::text::plain_len;
/// assert_eq!(plain_len(b"plain text, no stops"), 20);
/// assert_eq!(plain_len(b"0123456789 \"quoted\""), 11);
/// assert_eq!(plain_len(b"tab\there"), 3);
/// ```
pub fn plain_len(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A byte of `v` is zero (or, for `below`, under 0x20) iff its high bit is set here.
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let Ok(eight) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(eight);
        let below = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
        let stops =
            below | zero(x ^ (ONES * u64::from(b'"'))) | zero(x ^ (ONES * u64::from(b'\\')));
        if stops != 0 {
            // The lowest flagged byte is always a true stop (a false flag only ever sits above
            // a true one), and the bytes are little-endian: it is the first stop of the eight.
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = bytes.get(i..).unwrap_or_default();
    i + rest
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
        .unwrap_or(rest.len())
}

/// The buffer as text: it only ever holds whole UTF-8 strings and ASCII.
fn into_string(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| crate::core::text::from_utf8_lossy(e.as_bytes()))
}

/// Writes a JSON object field by field, in the order given, exactly as serde_json writes a
/// struct: `{"key":value,...}`. Keys are the caller's literal identifiers, written as they are.
///
/// ```
/// # use toolnexus::core::json::text::Object;
/// let mut out = Vec::new();
/// let mut object = Object::new(&mut out);
/// object.str("name", "say \"hi\"");
/// object.bool("isError", false);
/// object.f64("ms", 1.5);
/// object.end();
/// assert_eq!(String::from_utf8(out).unwrap(), r#"{"name":"say \"hi\"","isError":false,"ms":1.5}"#);
/// ```
pub struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Object<'a> {
    /// Opens an object in `out`.
    pub fn new(out: &'a mut Vec<u8>) -> Object<'a> {
        out.push(b'{');
        Object { out, first: true }
    }

    /// Writes `"key":` and gives the buffer for the value.
    pub fn key(&mut self, key: &str) -> &mut Vec<u8> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
        self.out
    }

    /// A string field.
    pub fn str(&mut self, key: &str, value: &str) {
        write_str(self.key(key), value);
    }

    /// A boolean field.
    pub fn bool(&mut self, key: &str, value: bool) {
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.key(key).extend_from_slice(text);
    }

    /// An integer field.
    pub fn u64(&mut self, key: &str, value: u64) {
        write_u64(self.key(key), value);
    }

    /// A float field (`null` when it is not finite, as serde_json writes one).
    pub fn f64(&mut self, key: &str, value: f64) {
        let out = self.key(key);
        match crate::core::json::value::Number::from_f64(value) {
            Some(n) => write_number(out, &n),
            None => out.extend_from_slice(b"null"),
        }
    }

    /// A JSON value field.
    pub fn value(&mut self, key: &str, value: &Value) {
        write_value(self.key(key), value);
    }

    /// An object field.
    pub fn map(&mut self, key: &str, value: &Map<String, Value>) {
        write_map(self.key(key), value);
    }

    /// A field whose value is JSON text already.
    pub fn raw(&mut self, key: &str, text: &str) {
        self.key(key).extend_from_slice(text.as_bytes());
    }

    /// Closes the object.
    pub fn end(self) {
        self.out.push(b'}');
    }
}

/// The text of a buffer that only whole JSON texts went into.
pub fn buffer_text(out: Vec<u8>) -> String {
    into_string(out)
}

/// Writes a value's JSON text where a `Display` is wanted: `format!("got {}", Json(&value))`.
///
/// ```
/// # use toolnexus::core::json::text::Json;
/// assert_eq!(format!("got {}", Json(&toolnexus::json!({"a": [1, "b"]}))), r#"got {"a":[1,"b"]}"#);
/// ```
pub struct Json<'a>(pub &'a Value);

impl std::fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&to_text(self.0))
    }
}
