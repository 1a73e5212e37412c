//! The crate's JSON value: what the parser reads, the wire formats build, tools take and give.
//!
//! Its API is serde_json's `Value` (the same variants, accessors, `get`, indexing, `Display`
//! as compact JSON), so code reads the same; what differs is underneath: an object is a
//! [`Map`] of entries in a `Vec`, found by a scan while it is small and through a boxed
//! [`KeyIndex`](crate::core::hashed::KeyIndex) past that, where serde_json keeps an `IndexMap`
//! with a hash table beside it in every object; a value is 24 bytes on wasm32 instead of 40.
//!
//! Off wasm32 the types convert to and from serde_json's and compare with them, so tests and
//! host code can use `toolnexus::json!`.

mod map;
mod number;
#[cfg(not(target_arch = "wasm32"))]
mod serde_json_bridge;

pub use map::{Iter, IterMut, Map};
pub use number::Number;

use std::fmt;

/// Any JSON value.
///
/// ```
/// use toolnexus::core::json::value::Value;
/// let value = toolnexus::json_value!({"city": "Oslo", "days": [1, 2]});
/// assert_eq!(value["city"].as_str(), Some("Oslo"));
/// assert_eq!(value.get("days").and_then(|d| d.get(1)), Some(&Value::from(2)));
/// assert!(value["missing"].is_null());
/// assert_eq!(value.to_string(), r#"{"city":"Oslo","days":[1,2]}"#);
/// ```
#[derive(Clone, PartialEq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Map),
}

/// The `null` a missing key or index reads as.
pub(crate) static NULL: Value = Value::Null;

impl Value {
    /// The value at `index`: an object's key (`&str`) or an array's position (`usize`).
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// The value at `index`, to change.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    /// The string, when this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, when this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, when this is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number as an `f64`, when this is a number.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    /// The number as an `i64`, when this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    /// The number as a `u64`, when this is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// The items, when this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The items, to change, when this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The entries, when this is an object.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The entries, to change, when this is an object.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether this is a boolean.
    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    /// Whether this is a number.
    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    /// Whether this is an integer that fits an `i64`.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// Whether this is a non-negative integer.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// Whether this is a number read or made as a float.
    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// Takes the value out, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

/// What a [`Value`] can be indexed by: `&str` (an object's key) or `usize` (an array's
/// position).
pub trait Index {
    /// The value at this index of `value`.
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value>;
    /// The value at this index of `value`, to change.
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for str {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_object()?.get(self)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_object_mut()?.get_mut(self)
    }
}

impl Index for String {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(value)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(value)
    }
}

impl Index for usize {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_array()?.get(*self)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        value.as_array_mut()?.get_mut(*self)
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        (**self).index_into(value)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(value)
    }
}

impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;
    /// The value at `index`, or `null` when there is none.
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

impl fmt::Display for Value {
    /// The compact JSON text (what serde_json's `to_string` writes).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::core::json::text::to_text(self))
    }
}

impl fmt::Debug for Value {
    /// serde_json's debug form: `String("a")`, `Number(1)`, `Array [..]`, `Object {..}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => fmt::Debug::fmt(n, f),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(items) => {
                f.write_str("Array ")?;
                f.debug_list().entries(items).finish()
            }
            Value::Object(map) => {
                f.write_str("Object ")?;
                fmt::Debug::fmt(map, f)
            }
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<f64> for Value {
    /// A number, or `null` when `f` is infinite or NaN.
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

macro_rules! value_from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(Number::from(n))
            }
        }
    )*};
}
value_from_integer!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

macro_rules! value_eq_number {
    ($($t:ty => $as:ident as $wide:ty),*) => {$(
        impl PartialEq<$t> for Value {
            fn eq(&self, other: &$t) -> bool {
                self.$as() == Some(*other as $wide)
            }
        }
    )*};
}
value_eq_number!(
    i8 => as_i64 as i64, i16 => as_i64 as i64, i32 => as_i64 as i64, i64 => as_i64 as i64,
    isize => as_i64 as i64, u8 => as_u64 as u64, u16 => as_u64 as u64, u32 => as_u64 as u64,
    u64 => as_u64 as u64, usize => as_u64 as u64, f64 => as_f64 as f64
);
