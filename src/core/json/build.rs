//! [`json_value!`](crate::json_value): `toolnexus::json!`'s object and array syntax, each
//! interpolated expression borrowed and copied into the `Value` by [`AsJson`]. `json!` does
//! the same through serde's `Serialize` (`serde_json::to_value`), which keeps serde's whole
//! serializer in the wasm module; with this macro the core never serializes.

use crate::core::json::value::{Map, Value};

/// Data that copies itself into a JSON value: strings, numbers, booleans, `Value`s, `Map`s,
/// and `Option`s (`None` is `null`), slices and `Vec`s of them.
///
/// ```
/// use toolnexus::core::json::build::AsJson;
/// assert_eq!(Some("a").as_json(), toolnexus::json!("a"));
/// assert_eq!(vec![1, 2].as_json(), toolnexus::json!([1, 2]));
/// ```
pub trait AsJson {
    /// A JSON copy of this.
    fn as_json(&self) -> Value;
}

/// Appends an array item (what [`json_value!`](crate::json_value) calls for each).
pub fn push(items: &mut Vec<Value>, item: Value) {
    items.push(item);
}

/// `value` copied into a JSON value (what [`json_value!`](crate::json_value) calls).
pub fn to_value<T: AsJson + ?Sized>(value: &T) -> Value {
    value.as_json()
}

impl AsJson for str {
    fn as_json(&self) -> Value {
        Value::String(self.to_owned())
    }
}

impl AsJson for String {
    fn as_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl AsJson for Value {
    fn as_json(&self) -> Value {
        self.clone()
    }
}

impl AsJson for Map<String, Value> {
    fn as_json(&self) -> Value {
        Value::Object(self.clone())
    }
}

macro_rules! as_json_by_from {
    ($($t:ty),*) => {$(
        impl AsJson for $t {
            fn as_json(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}
as_json_by_from!(bool, u8, u16, u32, u64, usize, i8, i16, i32, i64, f64);

impl<T: AsJson> AsJson for Box<T> {
    fn as_json(&self) -> Value {
        (**self).as_json()
    }
}

impl<T: AsJson> AsJson for Option<T> {
    fn as_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, AsJson::as_json)
    }
}

impl<T: AsJson> AsJson for [T] {
    fn as_json(&self) -> Value {
        Value::Array(self.iter().map(AsJson::as_json).collect())
    }
}

impl<T: AsJson> AsJson for Vec<T> {
    fn as_json(&self) -> Value {
        self.as_slice().as_json()
    }
}

impl<T: AsJson + ?Sized> AsJson for &T {
    fn as_json(&self) -> Value {
        (**self).as_json()
    }
}

/// Builds a `Value` with `json!`'s syntax: `{"key": expr, ...}`, `[expr, ...]`,
/// `null`, nested at will; each other expression is borrowed and copied by [`AsJson`].
///
/// ```
/// use toolnexus::json_value;
/// let name = String::from("get_weather");
/// let args = toolnexus::json!({"city": "Oslo"});
/// let value = json_value!({"name": name, "args": args, "n": [1, 2.5, null], "ok": true});
/// assert_eq!(value, toolnexus::json!({"name": "get_weather", "args": {"city": "Oslo"}, "n": [1, 2.5, null], "ok": true}));
/// ```
#[macro_export]
macro_rules! json_value {
    (null) => {
        $crate::core::json::value::Value::Null
    };
    ({}) => {
        $crate::core::json::value::Value::Object($crate::core::json::value::Map::new())
    };
    ({ $($tt:tt)+ }) => {{
        let mut map = $crate::core::json::value::Map::new();
        $crate::json_value!(@entries map $($tt)+);
        $crate::core::json::value::Value::Object(map)
    }};
    ([]) => {
        $crate::core::json::value::Value::Array(::std::vec::Vec::new())
    };
    ([ $($tt:tt)+ ]) => {{
        let mut items = ::std::vec::Vec::new();
        $crate::json_value!(@items items [] $($tt)+);
        $crate::core::json::value::Value::Array(items)
    }};
    // An object's entries, `key: value` by `key: value`; a value's tokens run to a top-level comma.
    (@entries $map:ident) => {};
    (@entries $map:ident $key:literal : $($rest:tt)+) => {
        $crate::json_value!(@entry $map $key [] $($rest)+)
    };
    (@entry $map:ident $key:literal [$($value:tt)+] , $($rest:tt)*) => {
        $map.insert(::std::string::String::from($key), $crate::json_value!($($value)+));
        $crate::json_value!(@entries $map $($rest)*);
    };
    (@entry $map:ident $key:literal [$($value:tt)*] $next:tt $($rest:tt)*) => {
        $crate::json_value!(@entry $map $key [$($value)* $next] $($rest)*)
    };
    (@entry $map:ident $key:literal [$($value:tt)+]) => {
        $map.insert(::std::string::String::from($key), $crate::json_value!($($value)+));
    };
    // An array's items, each running to a top-level comma.
    (@items $items:ident []) => {};
    (@items $items:ident [$($item:tt)+]) => {
        $crate::core::json::build::push(&mut $items, $crate::json_value!($($item)+));
    };
    (@items $items:ident [$($item:tt)+] , $($rest:tt)*) => {
        $crate::core::json::build::push(&mut $items, $crate::json_value!($($item)+));
        $crate::json_value!(@items $items [] $($rest)*);
    };
    (@items $items:ident [$($item:tt)*] $next:tt $($rest:tt)*) => {
        $crate::json_value!(@items $items [$($item)* $next] $($rest)*)
    };
    ($($other:tt)+) => {
        $crate::core::json::build::to_value(&($($other)+))
    };
}

/// Off the wasm module (host code, tests, doc examples): `toolnexus::json!`, whatever it
/// interpolates, turned into the crate's [`Value`].
///
/// ```
/// use toolnexus::{core::json::value::Value, json};
/// #[derive(serde::Serialize)]
/// struct City { name: &'static str }
/// let value: Value = json!({"city": City { name: "Oslo" }, "days": [1, 2]});
/// assert_eq!(value["city"]["name"], "Oslo");
/// ```
#[cfg(not(target_arch = "wasm32"))]
#[macro_export]
macro_rules! json {
    ($($tt:tt)+) => {
        $crate::core::json::value::Value::from($crate::core::json::build::__serde_json::json!($($tt)+))
    };
}

#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub use serde_json as __serde_json;
