//! A JSON object: its entries in the order they were first inserted, each key once, looked
//! up by a scan. JSON objects here are small (a message, a tool call, a schema's properties),
//! where a scan beats hashing; the parser builds its objects through
//! [`Map::from_entries`], which finds a large object's repeated keys through a hash index, so
//! reading one costs `n`, not `n²`.

use super::Value;
use crate::core::hashed::KeyIndex;
use std::fmt;

/// A JSON object in insertion order (the API of serde_json's `Map<String, Value>` with
/// `preserve_order`, except that [`remove`](Map::remove) keeps the order of the rest).
///
/// ```
/// use toolnexus::core::value::{Map, Value};
/// let mut map = Map::new();
/// map.insert("b".to_owned(), Value::from(1));
/// map.insert("a".to_owned(), Value::from(2));
/// map.insert("b".to_owned(), Value::from(3));
/// assert_eq!(map.keys().collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(map.get("b"), Some(&Value::from(3)));
/// ```
///
/// Its type parameters exist only so code can spell it `Map<String, Value>` as it does
/// serde_json's; every method is for that one instance.
#[derive(Clone, Default)]
pub struct Map<K = String, V = Value> {
    entries: Vec<(K, V)>,
}

impl Map<String, Value> {
    /// An empty object.
    pub fn new() -> Map {
        Map {
            entries: Vec::new(),
        }
    }

    /// An empty object with room for `capacity` entries.
    pub fn with_capacity(capacity: usize) -> Map {
        Map {
            entries: Vec::with_capacity(capacity),
        }
    }

    /// An object of `entries` in their order; of a repeated key, the first place and the last
    /// value stay (as inserting them one by one would leave them).
    pub fn from_entries(entries: Vec<(String, Value)>) -> Map {
        if entries.len() <= 16 {
            let mut map = Map::with_capacity(entries.len());
            map.extend(entries);
            return map;
        }
        let mut entries = entries;
        let mut index = KeyIndex::default();
        let mut repeated = Vec::new();
        for at in 0..entries.len() {
            let first = {
                let key_at = |i: usize| entries.get(i).map(|(k, _)| k.as_str());
                let key = key_at(at).unwrap_or_default();
                let first = index.find(key, &key_at);
                if first.is_none() {
                    index.add(key, at, &key_at);
                }
                first
            };
            if let Some(first) = first {
                // The later value takes the first one's place; the later entry goes.
                let value = entries
                    .get_mut(at)
                    .map(|(_, v)| std::mem::take(v))
                    .unwrap_or_default();
                if let Some((_, slot)) = entries.get_mut(first) {
                    *slot = value;
                }
                repeated.push(at);
            }
        }
        if !repeated.is_empty() {
            let mut at = 0;
            let mut next = repeated.into_iter().peekable();
            entries.retain(|_| {
                let drop = next.next_if_eq(&at).is_some();
                at += 1;
                !drop
            });
        }
        Map { entries }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k == key)
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        let at = self.position(key)?;
        self.entries.get(at).map(|(_, v)| v)
    }

    /// The value of `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let at = self.position(key)?;
        self.entries.get_mut(at).map(|(_, v)| v)
    }

    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Sets `key` to `value`: a new key goes last, a known one keeps its place and gives back
    /// its old value.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.get_mut(&key) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// Takes `key` out; the other entries keep their order.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.position(key)?;
        Some(self.entries.remove(at).1)
    }

    /// The same as [`remove`](Map::remove) (serde_json's name for the order-keeping removal).
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        self.remove(key)
    }

    /// Keeps the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.entries.iter())
    }

    /// The entries in order, values to change.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.entries.iter_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> + '_ {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values in order.
    pub fn values(&self) -> impl Iterator<Item = &Value> + '_ {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The values in order, to change.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Value> + '_ {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

/// An iterator over a [`Map`]'s entries.
pub struct Iter<'a>(std::slice::Iter<'a, (String, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a String, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// An iterator over a [`Map`]'s entries, values to change.
pub struct IterMut<'a>(std::slice::IterMut<'a, (String, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a String, &'a mut Value);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a String, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl FromIterator<(String, Value)> for Map {
    /// The entries in order; of a repeated key, the first place and the last value (through
    /// [`Map::from_entries`], so a large collection costs `n`, not `n²`).
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Map {
        Map::from_entries(iter.into_iter().collect())
    }
}

impl Extend<(String, Value)> for Map {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        for (key, value) in iter {
            self.insert(key, value);
        }
    }
}

impl PartialEq for Map {
    /// Equal when both have the same keys with equal values, in whatever order.
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl std::ops::Index<&str> for Map {
    type Output = Value;
    /// The value of `key`, or `null` when it has none.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&super::NULL)
    }
}
