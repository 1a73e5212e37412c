//! Validation of tool-call arguments against a tool's `inputSchema`.
//!
//! Supports the JSON Schema subset tool definitions use (`type`, `properties`,
//! `required`, `additionalProperties`, `enum`, `const`, `items`, size and
//! numeric bounds, `anyOf`, `oneOf`). Other keywords are ignored, and whatever
//! cannot be understood is treated as "no constraint".

use crate::core::text::JoinWith;
use std::cmp::Ordering;
use std::fmt;

use crate::core::jsfmt::json_number;
use crate::core::json::value::{Map, Number, Value};

/// Deepest schema nesting that is checked; anything below is accepted.
const MAX_DEPTH: usize = 64;

/// Maximum number of schema checks per [`validate`] call, which bounds the
/// work done for pathological `anyOf`/`oneOf` nesting; beyond it checking stops.
const MAX_STEPS: usize = 1_000_000;

/// The type names `type` may use.
const TYPE_NAMES: [&str; 7] = [
    "object", "array", "string", "number", "integer", "boolean", "null",
];

/// A size's `minLength`/`maxLength` (or `minItems`/`maxItems`) keywords, when present.
type Bounds<'s> = (Option<&'s Value>, Option<&'s Value>);

/// The verb and the unit a size bound's message uses.
type Size = (&'static str, &'static str);
const STRING_SIZE: Size = ("be", "character");
const ARRAY_SIZE: Size = ("have", "item");

type Bound = (&'static str, &'static str, fn(Ordering) -> bool);

/// Numeric bound keywords with the operator shown in messages and the test
/// that `value.cmp(limit)` must pass.
const BOUNDS: [Bound; 4] = [
    ("minimum", ">=", Ordering::is_ge),
    ("exclusiveMinimum", ">", Ordering::is_gt),
    ("maximum", "<=", Ordering::is_le),
    ("exclusiveMaximum", "<", Ordering::is_lt),
];

/// One problem found in the arguments.
///
/// `path` is a JSON-pointer-like location such as `city`, `items[2].name`,
/// or empty for the root.
///
/// ```
/// use toolnexus::core::schema::SchemaIssue;
///
/// let issue = SchemaIssue { path: "city".into(), message: "expected string, got number".into() };
/// assert_eq!(issue.to_string(), "city: expected string, got number");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaIssue {
    /// Location of the offending value; empty for the root.
    pub path: String,
    /// What is wrong there, e.g. `expected string, got number`.
    pub message: String,
}

impl fmt::Display for SchemaIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Validates `value` against `schema` and returns every issue found, in
/// document order; the result is empty when `value` is valid.
///
/// ```
/// use toolnexus::json;
/// use toolnexus::core::schema::validate;
///
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
/// assert!(validate(&json!({"city": "Oslo"}), &schema).is_empty());
/// let issues = validate(&json!({"city": 7}), &schema);
/// assert_eq!(issues[0].to_string(), "city: expected string, got number");
/// ```
pub fn validate(value: &Value, schema: &Value) -> Vec<SchemaIssue> {
    let mut walker = Walker::default();
    walker.check(
        value,
        schema,
        At {
            path: Path::Root,
            depth: 0,
        },
    );
    walker.issues
}

/// Joins issues into one line for the model, separated by `"; "`.
///
/// ```
/// use toolnexus::json;
/// use toolnexus::core::schema::{describe, validate};
///
/// let schema = json!({"required": ["a", "b"]});
/// let issues = validate(&json!({}), &schema);
/// assert_eq!(
///     describe(&issues),
///     r#"required property "a" is missing; required property "b" is missing"#
/// );
/// ```
pub fn describe(issues: &[SchemaIssue]) -> String {
    let parts: Vec<String> = issues.iter().map(ToString::to_string).collect();
    parts.join_with("; ")
}

/// A value's location, written out only when an issue names it: the root, a key of an object
/// at `parent`, or an index of an array at `parent`.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// `address.city`, `city`, `items[2]`, or `address["a key"]` for non-identifier keys.
    fn write(&self, out: &mut String) {
        let plain_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        match *self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.write(out);
                if key.is_empty() || !key.chars().all(plain_char) {
                    out.push('[');
                    out.push_str(&quote(key));
                    out.push(']');
                } else {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                }
            }
            Path::Index(parent, i) => {
                parent.write(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
}

/// Where a check happens: the value's path and the schema nesting depth.
#[derive(Clone, Copy)]
struct At<'a> {
    path: Path<'a>,
    depth: usize,
}

/// The keywords of one schema object that are checked, found in one pass over its entries
/// (a schema object has a few keys; looking each keyword up would hash it every time).
#[derive(Default)]
struct Keywords<'s> {
    types: Option<&'s Value>,
    one_of_values: Option<&'s Value>,
    constant: Option<&'s Value>,
    min_length: Option<&'s Value>,
    max_length: Option<&'s Value>,
    min_items: Option<&'s Value>,
    max_items: Option<&'s Value>,
    /// `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, as in [`BOUNDS`].
    bounds: [Option<&'s Value>; 4],
    items: Option<&'s Value>,
    required: Option<&'s Value>,
    properties: Option<&'s Value>,
    pattern_properties: bool,
    additional: Option<&'s Value>,
    any_of: Option<&'s Value>,
    one_of: Option<&'s Value>,
}

impl<'s> Keywords<'s> {
    fn of(schema: &'s Map<String, Value>) -> Self {
        let mut kw = Keywords::default();
        for (key, value) in schema {
            let slot = match key.as_str() {
                "type" => &mut kw.types,
                "enum" => &mut kw.one_of_values,
                "const" => &mut kw.constant,
                "minLength" => &mut kw.min_length,
                "maxLength" => &mut kw.max_length,
                "minItems" => &mut kw.min_items,
                "maxItems" => &mut kw.max_items,
                "minimum" => &mut kw.bounds[0],
                "exclusiveMinimum" => &mut kw.bounds[1],
                "maximum" => &mut kw.bounds[2],
                "exclusiveMaximum" => &mut kw.bounds[3],
                "items" => &mut kw.items,
                "required" => &mut kw.required,
                "properties" => &mut kw.properties,
                "additionalProperties" => &mut kw.additional,
                "anyOf" => &mut kw.any_of,
                "oneOf" => &mut kw.one_of,
                "patternProperties" => {
                    kw.pattern_properties = true;
                    continue;
                }
                _ => continue,
            };
            *slot = Some(value);
        }
        kw
    }
}

/// Walks a value and its schema, collecting issues.
#[derive(Default)]
struct Walker {
    issues: Vec<SchemaIssue>,
    steps: usize,
}

impl Walker {
    fn push(&mut self, path: Path<'_>, message: impl Into<String>) {
        let mut written = String::new();
        path.write(&mut written);
        let message = message.into();
        self.issues.push(SchemaIssue {
            path: written,
            message,
        });
    }

    fn check(&mut self, value: &Value, schema: &Value, at: At<'_>) {
        let Some(schema) = schema.as_object() else {
            return;
        };
        if at.depth >= MAX_DEPTH || self.steps >= MAX_STEPS {
            return;
        }
        self.steps += 1;
        let kw = Keywords::of(schema);
        if let Some(types) = kw.types.and_then(declared_types) {
            if !types.names().iter().any(|t| type_matches(value, t)) {
                return self.push(at.path, type_message(types.names(), value));
            }
        }
        self.check_enum_const(value, &kw, at.path);
        match value {
            Value::String(s) => {
                let bounds = (kw.min_length, kw.max_length);
                // Code points, counted as the bytes that start one: `chars().count()` is a
                // vectorised count that costs the wasm module about 0.8 KB for the same answer.
                let length = s.bytes().filter(|b| b & 0xC0 != 0x80).count();
                self.check_size(bounds, at.path, length, STRING_SIZE);
            }
            Value::Number(n) => self.check_number(n, &kw, at.path),
            Value::Array(items) => self.check_array(items, &kw, at),
            Value::Object(map) => self.check_object(map, &kw, at),
            Value::Bool(_) | Value::Null => {}
        }
        self.check_combinators(value, &kw, at);
    }

    fn check_enum_const(&mut self, value: &Value, kw: &Keywords<'_>, path: Path<'_>) {
        if let Some(Value::Array(options)) = kw.one_of_values {
            if !options.is_empty() && !options.iter().any(|o| json_eq(o, value)) {
                let list: Vec<String> = options
                    .iter()
                    .map(crate::core::json::text::to_text)
                    .collect();
                self.push(path, format!("must be one of {}", list.join_with(", ")));
            }
        }
        if let Some(expected) = kw.constant {
            if !json_eq(expected, value) {
                self.push(
                    path,
                    format!(
                        "must be equal to {}",
                        crate::core::json::text::Json(expected)
                    ),
                );
            }
        }
    }

    /// Length bounds: `must be at least 3 characters`, `must have at most 2 items`.
    fn check_size(&mut self, bounds: Bounds<'_>, path: Path<'_>, len: usize, size: Size) {
        let (verb, noun) = size;
        let (min, max) = bounds;
        let len = u64::try_from(len).unwrap_or(u64::MAX);
        if let Some(min) = min.and_then(count_keyword).filter(|&min| len < min) {
            self.push(path, format!("must {verb} at least {}", plural(min, noun)));
        }
        if let Some(max) = max.and_then(count_keyword).filter(|&max| len > max) {
            self.push(path, format!("must {verb} at most {}", plural(max, noun)));
        }
    }

    fn check_number(&mut self, n: &Number, kw: &Keywords<'_>, path: Path<'_>) {
        for ((_, op, passes), limit) in BOUNDS.into_iter().zip(kw.bounds) {
            let Some(Value::Number(limit)) = limit else {
                continue;
            };
            if compare(n, limit).is_some_and(|ord| !passes(ord)) {
                self.push(path, format!("must be {op} {}", json_number(limit)));
            }
        }
    }

    fn check_array(&mut self, items: &[Value], kw: &Keywords<'_>, at: At<'_>) {
        self.check_size(
            (kw.min_items, kw.max_items),
            at.path,
            items.len(),
            ARRAY_SIZE,
        );
        if let Some(item_schema) = kw.items.filter(|s| s.is_object()) {
            for (i, item) in items.iter().enumerate() {
                let path = Path::Index(&at.path, i);
                self.check(item, item_schema, at.child(path));
            }
        }
    }

    fn check_object(&mut self, map: &Map<String, Value>, kw: &Keywords<'_>, at: At<'_>) {
        if let Some(Value::Array(required)) = kw.required {
            for name in required.iter().filter_map(Value::as_str) {
                if !map.contains_key(name) {
                    let message = format!("required property {} is missing", quote(name));
                    self.push(at.path, message);
                }
            }
        }
        let properties = kw.properties.and_then(Value::as_object);
        // Keys matching `patternProperties` are not "additional", but patterns
        // are not evaluated, so extra keys cannot be judged when there are any.
        let additional = if kw.pattern_properties {
            None
        } else {
            kw.additional
        };
        for (key, child) in map {
            let path = Path::Key(&at.path, key);
            match (properties.and_then(|p| p.get(key)), additional) {
                (Some(sub), _) | (None, Some(sub @ Value::Object(_))) => {
                    self.check(child, sub, at.child(path));
                }
                (None, Some(Value::Bool(false))) => self.push(path, "unexpected property"),
                (None, _) => {}
            }
        }
    }

    fn check_combinators(&mut self, value: &Value, kw: &Keywords<'_>, at: At<'_>) {
        if let Some(Value::Array(branches)) = kw.any_of {
            if !branches.is_empty() && self.count_matches(value, branches, at, 1) == 0 {
                self.push(at.path, no_match_message(value, branches));
            }
        }
        if let Some(Value::Array(branches)) = kw.one_of {
            match self.count_matches(value, branches, at, 2) {
                _ if branches.is_empty() => {}
                0 => self.push(at.path, no_match_message(value, branches)),
                1 => {}
                _ => self.push(at.path, "must match exactly one of the allowed schemas"),
            }
        }
    }

    /// Counts the branches `value` satisfies, stopping once `limit` is reached.
    fn count_matches(
        &mut self,
        value: &Value,
        branches: &[Value],
        at: At<'_>,
        limit: usize,
    ) -> usize {
        let saved = std::mem::take(&mut self.issues);
        let mut matches = 0;
        for branch in branches {
            self.issues.clear();
            self.check(value, branch, at.child(at.path));
            matches += usize::from(self.issues.is_empty());
            if matches >= limit {
                break;
            }
        }
        self.issues = saved;
        matches
    }
}

impl<'a> At<'a> {
    fn child(self, path: Path<'a>) -> At<'a> {
        let depth = self.depth + 1;
        At { path, depth }
    }
}

/// The known type names a `type` keyword lists, in order and without repeats.
#[derive(Default)]
struct TypeList {
    names: [&'static str; TYPE_NAMES.len()],
    len: usize,
}

impl TypeList {
    fn names(&self) -> &[&'static str] {
        self.names.get(..self.len).unwrap_or_default()
    }

    fn add(&mut self, name: &str) {
        let Some(known) = TYPE_NAMES.iter().find(|&&t| t == name) else {
            return;
        };
        if !self.names().contains(known) {
            if let Some(slot) = self.names.get_mut(self.len) {
                *slot = known;
                self.len += 1;
            }
        }
    }
}

/// The known type names listed by `type`, or `None` when there is no usable one.
fn declared_types(types: &Value) -> Option<TypeList> {
    let mut known = TypeList::default();
    match types {
        Value::String(name) => known.add(name),
        Value::Array(list) => {
            for name in list.iter().filter_map(Value::as_str) {
                known.add(name);
            }
        }
        _ => {}
    }
    (known.len > 0).then_some(known)
}

fn type_matches(value: &Value, name: &str) -> bool {
    let integral = |f: f64| f.is_finite() && f.fract() == 0.0;
    let is_integer = |n: &Number| n.as_i128().is_some() || n.as_f64().is_some_and(integral);
    name == type_name(value) || (name == "integer" && value.as_number().is_some_and(is_integer))
}

/// A JSON value's type as JSON Schema names it: `object`, `array`, `string`, `number`,
/// `boolean`, `null`.
///
/// ```
/// assert_eq!(toolnexus::core::schema::type_name(&toolnexus::json!([1])), "array");
/// ```
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "boolean",
        Value::Null => "null",
    }
}

/// `expected string or null, got number`.
fn type_message(types: &[&str], value: &Value) -> String {
    let expected = match types.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join_with(", ")),
        _ => types.join_with(""),
    };
    format!("expected {expected}, got {}", type_name(value))
}

const NO_MATCH: &str = "does not match any of the allowed schemas";

/// When every branch declares a `type` and none fits, name the types;
/// otherwise use the generic message.
fn no_match_message(value: &Value, branches: &[Value]) -> String {
    let mut types = TypeList::default();
    for branch in branches {
        let found = branch
            .as_object()
            .and_then(|b| b.get("type"))
            .and_then(declared_types);
        let Some(found) = found else {
            return NO_MATCH.to_owned();
        };
        for name in found.names() {
            types.add(name);
        }
    }
    if types.names().iter().any(|t| type_matches(value, t)) {
        return NO_MATCH.to_owned();
    }
    type_message(types.names(), value)
}

/// A non-negative integer keyword such as `minLength` (`3`, or `3.0`).
fn count_keyword(value: &Value) -> Option<u64> {
    let n = value.as_number()?;
    let from_float = |f: f64| (f >= 0.0 && f.fract() == 0.0).then_some(f as u64);
    n.as_u64().or_else(|| n.as_f64().and_then(from_float))
}

fn plural(n: u64, word: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {word}{s}")
}

/// Compares numbers exactly when both are integers, as floats otherwise.
fn compare(a: &Number, b: &Number) -> Option<Ordering> {
    match (a.as_i128(), b.as_i128()) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        _ => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// JSON equality: numbers compare by value (`1 == 1.0`), objects ignore key order.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn quote(s: &str) -> String {
    crate::core::json::text::to_text(&Value::String(s.to_owned()))
}
