//! Contract records declared once. [`record!`](crate::record) turns one declaration into the
//! Rust struct, its JSON reader (serde's error texts, word for word), its JSON writer (exactly
//! serde_json's bytes for the same struct), and its TypeScript interface; off the wasm module
//! it also derives serde's `Serialize` and `Deserialize` from the same keys, so tests can hold
//! the hand reader and writer against serde's.
//!
//! A field's type says how it reads, writes and prints in TypeScript through [`Field`]; a
//! field may add `or default` (absent and `null` read as the type's default, as `??` does in
//! the reference) and `as "ts"` (its TypeScript type, when the Rust type is wider than the
//! contract's, such as an open string vocabulary).
//!
//! ```
//! toolnexus::record! {
//!     /// A greeting.
//!     pub struct Greeting as "struct Greeting" {
//!         /// Who is greeted.
//!         pub name: String = "name",
//!         /// How many times.
//!         pub times: Option<u64> = "timesOver",
//!     }
//! }
//! use toolnexus::core::json::record::Record;
//! let g = Greeting::from_json(toolnexus::json!({"name": "Ada"})).unwrap();
//! assert_eq!(g.to_json_text(), r#"{"name":"Ada"}"#);
//! assert_eq!(Greeting::from_json(toolnexus::json!({})).unwrap_err(), "missing field `name`");
//! assert!(Greeting::typescript().contains("timesOver?: number"));
//! ```

use crate::core::json::build::AsJson;
use crate::core::json::text::{
    buffer_text, write_map, write_number, write_str, write_u64, write_value,
};
use crate::core::json::value::{Map, Value};

/// Serde's wording for a value of the wrong type: `invalid type: integer `5`, expected a string`.
///
/// ```
/// use toolnexus::core::json::record::invalid_type;
/// assert_eq!(invalid_type(&toolnexus::json!(true), "a string"), "invalid type: boolean `true`, expected a string");
/// ```
pub fn invalid_type(value: &Value, expected: &str) -> String {
    let found = match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => format!("integer `{u}`"),
            (None, Some(i)) => format!("integer `{i}`"),
            _ => format!("floating point `{}`", float_text(n.as_f64().unwrap_or(0.0))),
        },
        Value::String(s) => format!("string {}", debug_str(s)),
        Value::Array(_) => "sequence".to_owned(),
        Value::Object(_) => "map".to_owned(),
    };
    format!("invalid type: {found}, expected {expected}")
}

/// A float as serde_json's messages write one (zmij's shortest digits: `1.5`, `100.0`, `1e21`).
fn float_text(f: f64) -> String {
    zmij::Buffer::new().format(f).to_owned()
}

/// A string quoted as serde's message quotes it (Rust's `{:?}`): `"`, `\\`, tab, CR, LF and
/// NUL escaped, other control characters as `\u{1b}`. Rust's own also escapes the rarer
/// non-printable code points (`\u{200b}`, a leading combining mark); they stay as they are here, which keeps Rust's
/// Unicode tables out of the wasm module (`tests/json_read.rs` pins both).
fn debug_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                // At most two hex digits: control characters are below U+00A0.
                let code = u32::from(c);
                out.push_str("\\u{");
                out.extend(
                    [code >> 4, code & 15]
                        .iter()
                        .skip(usize::from(code < 16))
                        .filter_map(|d| char::from_digit(*d, 16)),
                );
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A record declared with [`record!`](crate::record): read from and written as JSON, and
/// described in TypeScript.
pub trait Record: Sized {
    /// Reads the record from a JSON value, with serde's error texts.
    fn from_json(value: Value) -> Result<Self, String>;
    /// Appends the record's JSON text to `out`.
    fn write_json(&self, out: &mut Vec<u8>);
    /// Appends the record's TypeScript declaration (with its doc comments) to `out`.
    fn write_typescript(out: &mut String);

    /// The record's JSON text.
    fn to_json_text(&self) -> String {
        let mut out = Vec::with_capacity(128);
        self.write_json(&mut out);
        buffer_text(out)
    }

    /// The record as a JSON value (the fields [`to_json_text`](Record::to_json_text) writes).
    fn to_json_value(&self) -> Value
    where
        Self: AsJson,
    {
        self.as_json()
    }

    /// The record's TypeScript declaration.
    fn typescript() -> String {
        let mut out = String::new();
        Self::write_typescript(&mut out);
        out
    }
}

/// How one field's type reads, writes and prints in TypeScript.
pub trait Field: Sized + AsJson {
    /// Reads the field from its value (`None`: the key is absent).
    fn read(value: Option<Value>, key: &str) -> Result<Self, String>;
    /// Checks a present value's type without taking it (serde reports the first wrong type
    /// in the object's key order, before any missing field).
    fn check(value: &Value) -> Result<(), String>;
    /// Appends the field's JSON text (a present field: see [`Field::absent`]).
    fn write_value(&self, out: &mut Vec<u8>);
    /// Whether the field is left out when written (`None`).
    fn absent(&self) -> bool {
        false
    }
    /// Whether the key may be left out in TypeScript (`key?:`).
    const OPTIONAL: bool = false;
    /// The field's TypeScript type.
    fn ts(out: &mut String);
}

/// Writes `"key":value` into a record's object, unless the field is absent.
pub fn write_field<T: Field>(object: &mut crate::core::json::text::Object, key: &str, value: &T) {
    if !value.absent() {
        value.write_value(object.key(key));
    }
}

/// Puts `key: value` into a record's JSON value, unless the field is absent.
pub fn insert_field<T: Field>(map: &mut Map<String, Value>, key: &str, value: &T) {
    if !value.absent() {
        map.insert(key.into(), value.as_json());
    }
}

/// `serde(skip_serializing_if)`'s test for a field (off the wasm module).
pub fn absent<T: Field>(value: &T) -> bool {
    value.absent()
}

/// Reads a field that is its type's default when absent or `null` (`or default`).
pub fn read_or_default<T: Field + Default>(value: Option<Value>, key: &str) -> Result<T, String> {
    match value {
        None | Some(Value::Null) => Ok(T::default()),
        some => T::read(some, key),
    }
}

/// Checks a field that may also be `null` (`or default`).
pub fn check_or_default<T: Field>(value: &Value) -> Result<(), String> {
    match value {
        Value::Null => Ok(()),
        other => T::check(other),
    }
}

/// serde's `deserialize_with` for an `or default` field: `null` reads as the default.
#[cfg(not(target_arch = "wasm32"))]
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + serde::Deserialize<'de>,
{
    use serde::Deserialize;
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// The object a record reads, or serde's error for a value that is not one.
pub fn fields_of(value: Value, name: &str) -> Result<Map<String, Value>, String> {
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(invalid_type(&other, name)),
    }
}

/// serde's error for a required field that is absent.
fn missing(key: &str) -> String {
    format!("missing field `{key}`")
}

/// Writes the first paragraph of a doc comment (its lines up to the first blank one: the
/// examples stay in Rust) as a JSDoc block at `indent`; nothing for no lines.
pub fn write_doc(out: &mut String, indent: &str, lines: &[&str]) {
    let summary = lines
        .iter()
        .position(|line| line.trim().is_empty())
        .unwrap_or(lines.len());
    match lines.get(..summary).unwrap_or_default() {
        [] => {}
        [one] => {
            out.push_str(indent);
            out.push_str("/**");
            out.push_str(one);
            out.push_str(" */\n");
        }
        many => {
            out.push_str(indent);
            out.push_str("/**\n");
            for line in many {
                out.push_str(indent);
                out.push_str(" *");
                out.push_str(line);
                out.push('\n');
            }
            out.push_str(indent);
            out.push_str(" */\n");
        }
    }
}

/// Writes one interface member: its doc, `key`, `?` when optional, and its type.
pub fn write_member(
    out: &mut String,
    doc: &[&str],
    key: &str,
    optional: bool,
    ts: &dyn Fn(&mut String),
) {
    write_doc(out, "  ", doc);
    out.push_str("  ");
    out.push_str(key);
    if optional {
        out.push('?');
    }
    out.push_str(": ");
    ts(out);
    out.push('\n');
}

macro_rules! scalar_field {
    ($ty:ty, $variant:ident, $expected:literal, $ts:literal, |$out:ident, $value:ident| $write:expr) => {
        impl Field for $ty {
            fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
                match value {
                    Some(Value::$variant(v)) => Ok(v),
                    Some(other) => Err(invalid_type(&other, $expected)),
                    None => Err(missing(key)),
                }
            }
            fn check(value: &Value) -> Result<(), String> {
                match value {
                    Value::$variant(_) => Ok(()),
                    other => Err(invalid_type(other, $expected)),
                }
            }
            fn write_value(&self, $out: &mut Vec<u8>) {
                let $value = self;
                $write
            }
            fn ts(out: &mut String) {
                out.push_str($ts);
            }
        }
    };
}

scalar_field!(String, String, "a string", "string", |out, v| write_str(
    out, v
));
scalar_field!(bool, Bool, "a boolean", "boolean", |out, v| out
    .extend_from_slice(if *v { b"true" } else { b"false" }));
scalar_field!(Map<String, Value>, Object, "a map", "Record<string, unknown>", |out, v| write_map(out, v));

impl Field for Value {
    fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
        value.ok_or_else(|| missing(key))
    }
    fn check(_: &Value) -> Result<(), String> {
        Ok(())
    }
    fn write_value(&self, out: &mut Vec<u8>) {
        write_value(out, self);
    }
    fn ts(out: &mut String) {
        out.push_str("unknown");
    }
}

/// Unsigned integers read as serde reads them (`invalid value: integer `-1`, expected u32` is
/// serde's wording for a number out of range).
macro_rules! integer_field {
    ($($ty:ident),*) => {$(
        impl Field for $ty {
            fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
                let value = value.ok_or_else(|| missing(key))?;
                Self::check(&value)?;
                value.as_u64().and_then(|n| $ty::try_from(n).ok()).ok_or_else(|| invalid_type(&value, stringify!($ty)))
            }
            fn check(value: &Value) -> Result<(), String> {
                match value.as_u64() {
                    Some(n) if $ty::try_from(n).is_ok() => Ok(()),
                    Some(n) => Err(format!("invalid value: integer `{n}`, expected {}", stringify!($ty))),
                    None => match value.as_i64() {
                        Some(n) => Err(format!("invalid value: integer `{n}`, expected {}", stringify!($ty))),
                        None => Err(invalid_type(value, stringify!($ty))),
                    },
                }
            }
            fn write_value(&self, out: &mut Vec<u8>) {
                write_u64(out, *self as u64);
            }
            fn ts(out: &mut String) {
                out.push_str("number");
            }
        }
    )*};
}

integer_field!(u64, u32, usize);

impl Field for f64 {
    fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
        let value = value.ok_or_else(|| missing(key))?;
        Self::check(&value)?;
        Ok(value.as_f64().unwrap_or(0.0))
    }
    fn check(value: &Value) -> Result<(), String> {
        match value {
            Value::Number(_) => Ok(()),
            other => Err(invalid_type(other, "f64")),
        }
    }
    /// `null` when not finite, as serde_json writes one.
    fn write_value(&self, out: &mut Vec<u8>) {
        match crate::core::json::value::Number::from_f64(*self) {
            Some(n) => write_number(out, &n),
            None => out.extend_from_slice(b"null"),
        }
    }
    fn ts(out: &mut String) {
        out.push_str("number");
    }
}

impl<T: Field> Field for Option<T> {
    fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
        match value {
            None | Some(Value::Null) => Ok(None),
            some => T::read(some, key).map(Some),
        }
    }
    fn check(value: &Value) -> Result<(), String> {
        match value {
            Value::Null => Ok(()),
            other => T::check(other),
        }
    }
    fn write_value(&self, out: &mut Vec<u8>) {
        match self {
            Some(value) => value.write_value(out),
            None => out.extend_from_slice(b"null"),
        }
    }
    fn absent(&self) -> bool {
        self.is_none()
    }
    const OPTIONAL: bool = true;
    fn ts(out: &mut String) {
        T::ts(out);
    }
}

impl<T: Field> Field for Box<T> {
    fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
        T::read(value, key).map(Box::new)
    }
    fn check(value: &Value) -> Result<(), String> {
        T::check(value)
    }
    fn write_value(&self, out: &mut Vec<u8>) {
        (**self).write_value(out);
    }
    fn ts(out: &mut String) {
        T::ts(out);
    }
}

/// A list field: each item read as a field of its own type would be.
impl<T: Field> Field for Vec<T> {
    fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
        match value {
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|item| T::read(Some(item), key))
                .collect(),
            Some(other) => Err(invalid_type(&other, "a sequence")),
            None => Err(missing(key)),
        }
    }
    fn check(value: &Value) -> Result<(), String> {
        match value {
            Value::Array(items) => items.iter().try_for_each(T::check),
            other => Err(invalid_type(other, "a sequence")),
        }
    }
    fn write_value(&self, out: &mut Vec<u8>) {
        out.push(b'[');
        for (at, item) in self.iter().enumerate() {
            if at > 0 {
                out.push(b',');
            }
            item.write_value(out);
        }
        out.push(b']');
    }
    fn ts(out: &mut String) {
        T::ts(out);
        out.push_str("[]");
    }
}

/// serde's error for an unknown word of a [`word!`](crate::word) enum.
pub fn unknown_variant(text: &str, all: &[&str]) -> String {
    let quoted: Vec<String> = all.iter().map(|t| format!("`{t}`")).collect();
    let expected = match quoted.as_slice() {
        [one] => one.clone(),
        [first, second] => format!("{first} or {second}"),
        more => format!("one of {}", more.join(", ")),
    };
    format!("unknown variant `{text}`, expected {expected}")
}

/// Declares a string enum of the contract once (a run's `status`): the Rust enum, its text
/// both ways, its [`Field`] reading (serde's errors), writing and TypeScript union.
///
/// ```
/// toolnexus::word! {
///     /// A light.
///     pub enum Light as "enum Light" { /// Stop.
///         Red = "red", /// Go.
///         Green = "green" }
/// }
/// assert_eq!(Light::Green.as_str(), "green");
/// use toolnexus::core::json::record::Field;
/// assert_eq!(Light::read(Some(toolnexus::json!("blue")), "l").unwrap_err(), "unknown variant `blue`, expected `red` or `green`");
/// ```
#[macro_export]
macro_rules! word {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident as $serde_name:literal {
            $($(#[doc = $vdoc:literal])* $variant:ident = $text:literal),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize, serde::Deserialize))]
        pub enum $name {
            $($(#[doc = $vdoc])* #[cfg_attr(not(target_arch = "wasm32"), serde(rename = $text))] $variant,)*
        }

        impl $name {
            /// The word's JSON text.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        impl $crate::core::json::build::AsJson for $name {
            fn as_json(&self) -> $crate::core::json::value::Value {
                $crate::core::json::value::Value::String(self.as_str().into())
            }
        }

        impl $crate::core::json::record::Field for $name {
            fn read(value: Option<$crate::core::json::value::Value>, key: &str) -> Result<Self, String> {
                let value = value.ok_or_else(|| format!("missing field `{key}`"))?;
                <$name as $crate::core::json::record::Field>::check(&value)?;
                match value.as_str() {
                    $(Some($text) => Ok($name::$variant),)*
                    _ => Err(String::new()),
                }
            }
            fn check(value: &$crate::core::json::value::Value) -> Result<(), String> {
                match value {
                    $($crate::core::json::value::Value::String(text) if text == $text => Ok(()),)*
                    $crate::core::json::value::Value::String(text) => {
                        Err($crate::core::json::record::unknown_variant(text, &[$($text),*]))
                    }
                    other => Err($crate::core::json::record::invalid_type(other, $serde_name)),
                }
            }
            fn write_value(&self, out: &mut Vec<u8>) {
                $crate::core::json::text::write_str(out, self.as_str());
            }
            fn ts(out: &mut String) {
                out.push_str(concat!($("\"", $text, "\" | ",)*));
                out.truncate(out.len() - 3);
            }
        }
    };
}

/// Declares a contract record once: the struct, its JSON reader and writer ([`Record`]), its
/// TypeScript interface, and (off the wasm module) serde's derives with the same keys. See
/// the module docs for the field syntax; a record whose TypeScript the package ships is also
/// listed in `src/core/contract.rs`.
#[macro_export]
macro_rules! record {
    (
        $(#[doc = $doc:literal])*
        $(#[derive($($derive:ident),*)])?
        pub struct $name:ident as $serde_name:literal {
            $(
                $(#[doc = $fdoc:literal])*
                pub $field:ident : $ty:ty = $key:literal $(or $dflt:ident)? $(as $ts:literal)?
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq $($(, $derive)*)?)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize, serde::Deserialize))]
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                #[cfg_attr(not(target_arch = "wasm32"), serde(rename = $key, skip_serializing_if = "toolnexus::core::json::record::absent"))]
                $(#[cfg_attr(not(target_arch = "wasm32"), serde($dflt, deserialize_with = "toolnexus::core::json::record::null_as_default"))])?
                pub $field: $ty,
            )*
        }

        impl $name {
            /// Reads the record from a JSON value, with serde's error texts.
            pub fn from_json(value: $crate::core::json::value::Value) -> Result<Self, String> {
                <$name as $crate::core::json::record::Record>::from_json(value)
            }

            /// The record's JSON text.
            pub fn to_json_text(&self) -> String {
                <$name as $crate::core::json::record::Record>::to_json_text(self)
            }
        }

        impl $crate::core::json::record::Record for $name {
            fn from_json(value: $crate::core::json::value::Value) -> Result<Self, String> {
                let mut fields = $crate::core::json::record::fields_of(value, $serde_name)?;
                for (key, value) in &fields {
                    match key.as_str() {
                        $($key => $crate::record!(@check $ty, value $(, $dflt)?)?,)*
                        _ => {}
                    }
                }
                Ok($name {
                    $($field: $crate::record!(@read $ty, fields.remove($key), $key $(, $dflt)?)?,)*
                })
            }

            fn write_json(&self, out: &mut Vec<u8>) {
                let mut object = $crate::core::json::text::Object::new(out);
                $($crate::core::json::record::write_field(&mut object, $key, &self.$field);)*
                object.end();
            }

            fn write_typescript(out: &mut String) {
                $crate::core::json::record::write_doc(out, "", &[$($doc),*]);
                out.push_str(concat!("export interface ", stringify!($name), " {\n"));
                $(
                    $crate::core::json::record::write_member(
                        out,
                        &[$($fdoc),*],
                        $key,
                        <$ty as $crate::core::json::record::Field>::OPTIONAL $(|| { let _ = stringify!($dflt); true })?,
                        &|out: &mut String| $crate::record!(@ts $ty, out $(, $ts)?),
                    );
                )*
                out.push_str("}\n");
            }
        }

        impl $crate::core::json::build::AsJson for $name {
            fn as_json(&self) -> $crate::core::json::value::Value {
                let mut map = $crate::core::json::value::Map::new();
                $($crate::core::json::record::insert_field(&mut map, $key, &self.$field);)*
                $crate::core::json::value::Value::Object(map)
            }
        }

        impl $crate::core::json::record::Field for $name {
            fn read(value: Option<$crate::core::json::value::Value>, key: &str) -> Result<Self, String> {
                match value {
                    Some(value) => <$name as $crate::core::json::record::Record>::from_json(value),
                    None => Err(format!("missing field `{key}`")),
                }
            }
            /// A nested record is read whole where serde meets it, so its own errors come
            /// before the outer record's missing fields.
            fn check(value: &$crate::core::json::value::Value) -> Result<(), String> {
                <$name as $crate::core::json::record::Record>::from_json(value.clone()).map(drop)
            }
            fn write_value(&self, out: &mut Vec<u8>) {
                <$name as $crate::core::json::record::Record>::write_json(self, out);
            }
            fn ts(out: &mut String) {
                out.push_str(stringify!($name));
            }
        }
    };
    (@check $ty:ty, $value:ident) => { <$ty as $crate::core::json::record::Field>::check($value) };
    (@check $ty:ty, $value:ident, default) => { $crate::core::json::record::check_or_default::<$ty>($value) };
    (@read $ty:ty, $value:expr, $key:literal) => { <$ty as $crate::core::json::record::Field>::read($value, $key) };
    (@read $ty:ty, $value:expr, $key:literal, default) => { $crate::core::json::record::read_or_default::<$ty>($value, $key) };
    (@ts $ty:ty, $out:ident) => { <$ty as $crate::core::json::record::Field>::ts($out) };
    (@ts $ty:ty, $out:ident, $ts:literal) => { $out.push_str($ts) };
}

/// Declares a tagged union of the contract once (a stream event, a metric event): each
/// variant a record whose JSON carries the variant's word under `tag` first. From it come the
/// Rust enum, its [`Record`] reader (serde's errors for internally tagged enums) and writer,
/// its TypeScript union, and off the wasm module serde's derives.
///
/// ```
/// toolnexus::tagged! {
///     /// A shape.
///     pub enum Shape as "internally tagged enum Shape" by "kind" {
///         /// A circle.
///         Circle = "circle" {
///             /// Its radius.
///             radius: f64 = "radius",
///         },
///     }
/// }
/// use toolnexus::core::json::record::Record;
/// assert_eq!(Shape::Circle { radius: 2.0 }.to_json_text(), r#"{"kind":"circle","radius":2.0}"#);
/// assert!(Shape::typescript().contains(r#"| { kind: "circle"; radius: number }"#));
/// ```
#[macro_export]
macro_rules! tagged {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident as $serde_name:literal by $tag:literal {
            $(
                $(#[doc = $vdoc:literal])*
                $variant:ident = $word:literal {
                    $(
                        $(#[doc = $fdoc:literal])*
                        $field:ident : $ty:ty = $key:literal $(as $ts:literal)?
                    ),* $(,)?
                }
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(not(target_arch = "wasm32"), serde(tag = $tag))]
        pub enum $name {
            $(
                $(#[doc = $vdoc])*
                #[cfg_attr(not(target_arch = "wasm32"), serde(rename = $word))]
                $variant {
                    $(
                        $(#[doc = $fdoc])*
                        #[cfg_attr(not(target_arch = "wasm32"), serde(rename = $key, skip_serializing_if = "toolnexus::core::json::record::absent"))]
                        $field: $ty,
                    )*
                },
            )*
        }

        impl $name {
            /// Reads the union from a JSON value, with serde's error texts.
            pub fn from_json(value: $crate::core::json::value::Value) -> Result<Self, String> {
                <$name as $crate::core::json::record::Record>::from_json(value)
            }

            /// Its JSON text.
            pub fn to_json_text(&self) -> String {
                <$name as $crate::core::json::record::Record>::to_json_text(self)
            }
        }

        impl $crate::core::json::record::Record for $name {
            fn from_json(value: $crate::core::json::value::Value) -> Result<Self, String> {
                let mut fields = $crate::core::json::record::fields_of(value, $serde_name)?;
                let word = match fields.remove($tag) {
                    Some($crate::core::json::value::Value::String(word)) => word,
                    Some(other) => return Err($crate::core::json::record::invalid_type(&other, "variant identifier")),
                    None => return Err(concat!("missing field `", $tag, "`").to_owned()),
                };
                match word.as_str() {
                    $(
                        $word => {
                            for (key, value) in &fields {
                                match key.as_str() {
                                    $($key => <$ty as $crate::core::json::record::Field>::check(value)?,)*
                                    _ => {}
                                }
                            }
                            Ok($name::$variant {
                                $($field: <$ty as $crate::core::json::record::Field>::read(fields.remove($key), $key)?,)*
                            })
                        }
                    )*
                    other => Err($crate::core::json::record::unknown_variant(other, &[$($word),*])),
                }
            }

            fn write_json(&self, out: &mut Vec<u8>) {
                let mut object = $crate::core::json::text::Object::new(out);
                match self {
                    $(
                        $name::$variant { $($field),* } => {
                            object.str($tag, $word);
                            $($crate::core::json::record::write_field(&mut object, $key, $field);)*
                        }
                    )*
                }
                object.end();
            }

            fn write_typescript(out: &mut String) {
                $crate::core::json::record::write_doc(out, "", &[$($doc),*]);
                out.push_str(concat!("export type ", stringify!($name), " =\n"));
                $(
                    out.push_str(concat!("  | { ", $tag, ": \"", $word, "\""));
                    $(
                        out.push_str(concat!("; ", $key));
                        if <$ty as $crate::core::json::record::Field>::OPTIONAL {
                            out.push('?');
                        }
                        out.push_str(": ");
                        $crate::record!(@ts $ty, out $(, $ts)?);
                    )*
                    out.push_str(" }\n");
                )*
            }
        }

        impl $crate::core::json::build::AsJson for $name {
            fn as_json(&self) -> $crate::core::json::value::Value {
                let mut map = $crate::core::json::value::Map::new();
                match self {
                    $(
                        $name::$variant { $($field),* } => {
                            map.insert($tag.into(), $crate::core::json::value::Value::String($word.into()));
                            $($crate::core::json::record::insert_field(&mut map, $key, $field);)*
                        }
                    )*
                }
                $crate::core::json::value::Value::Object(map)
            }
        }
    };
}
