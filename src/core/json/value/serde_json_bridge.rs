//! Off the wasm module: [`Value`] read and written by serde (for the `Serialize` and
//! `Deserialize` the crate's types derive there), and converted to and compared with
//! serde_json's values, so host code and tests can build values with `toolnexus::json!`.

use super::{Map, Number, Value};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

// serde's traits go through serde_json's values: these impls serve tests and host callers only.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_json::Value::from(self.clone()).serialize(serializer)
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serde_json::Map::from(self.clone()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        serde_json::Value::deserialize(deserializer).map(Value::from)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
        serde_json::Map::deserialize(deserializer).map(Map::from)
    }
}

impl From<serde_json::Number> for Number {
    fn from(n: serde_json::Number) -> Number {
        if let Some(u) = n.as_u64() {
            Number::from(u)
        } else if let Some(i) = n.as_i64() {
            Number::from(i)
        } else {
            n.as_f64()
                .and_then(Number::from_f64)
                .unwrap_or(Number::from(0u64))
        }
    }
}

impl From<Number> for serde_json::Number {
    fn from(n: Number) -> serde_json::Number {
        if let Some(u) = n.as_u64() {
            serde_json::Number::from(u)
        } else if let Some(i) = n.as_i64() {
            serde_json::Number::from(i)
        } else {
            n.as_f64()
                .and_then(serde_json::Number::from_f64)
                .unwrap_or(serde_json::Number::from(0u64))
        }
    }
}

impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(n.into()),
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::from).collect())
            }
            serde_json::Value::Object(map) => Value::Object(map.into()),
        }
    }
}

impl From<serde_json::Map<String, serde_json::Value>> for Map {
    fn from(map: serde_json::Map<String, serde_json::Value>) -> Map {
        map.into_iter().map(|(k, v)| (k, Value::from(v))).collect()
    }
}

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> serde_json::Value {
        match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(b),
            Value::Number(n) => serde_json::Value::Number(n.into()),
            Value::String(s) => serde_json::Value::String(s),
            Value::Array(items) => {
                serde_json::Value::Array(items.into_iter().map(Into::into).collect())
            }
            Value::Object(map) => serde_json::Value::Object(map.into()),
        }
    }
}

impl From<Map> for serde_json::Map<String, serde_json::Value> {
    fn from(map: Map) -> serde_json::Map<String, serde_json::Value> {
        map.into_iter().map(|(k, v)| (k, v.into())).collect()
    }
}

impl PartialEq<serde_json::Value> for Value {
    fn eq(&self, other: &serde_json::Value) -> bool {
        match (self, other) {
            (Value::Null, serde_json::Value::Null) => true,
            (Value::Bool(a), serde_json::Value::Bool(b)) => a == b,
            (Value::Number(a), serde_json::Value::Number(b)) => *a == Number::from(b.clone()),
            (Value::String(a), serde_json::Value::String(b)) => a == b,
            (Value::Array(a), serde_json::Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a == b)
            }
            (Value::Object(a), serde_json::Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq<Value> for serde_json::Value {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

impl PartialEq<serde_json::Map<String, serde_json::Value>> for Map {
    fn eq(&self, other: &serde_json::Map<String, serde_json::Value>) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|theirs| v == theirs))
    }
}

impl PartialEq<Map> for serde_json::Map<String, serde_json::Value> {
    fn eq(&self, other: &Map) -> bool {
        other == self
    }
}
