//! A JSON object: its entries in the order they were first inserted, each key once. Objects
//! here are mostly small (a message, a tool call, a schema's properties), where a scan beats
//! hashing; past [`SCAN`] entries a map finds its keys through a seeded hash index
//! ([`KeyIndex`]) instead, so building, extending or reading a large object costs `n`, not
//! `n²`, whatever its keys.

use super::Value;
use crate::core::hashed::KeyIndex;
use std::fmt;

/// The most entries a map finds by a scan.
const SCAN: usize = 16;

// The index is boxed so that a value stays this small.
#[cfg(target_arch = "wasm32")]
const _: () = assert!(std::mem::size_of::<Value>() == 24);

/// A JSON object in insertion order (the API of serde_json's `Map<String, Value>` with
/// `preserve_order`, except that [`remove`](Map::remove) keeps the order of the rest).
///
/// ```
/// use toolnexus::core::json::value::{Map, Value};
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
#[derive(Default)]
pub struct Map<K = String, V = Value> {
    entries: Vec<(K, V)>,
    /// Every entry's position by its key, once there may be more than [`SCAN`] entries.
    index: Option<Box<KeyIndex>>,
}

impl Map<String, Value> {
    /// An empty object.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty object with room for `capacity` entries.
    pub fn with_capacity(capacity: usize) -> Map {
        Map {
            entries: Vec::with_capacity(capacity),
            index: (capacity > SCAN).then(|| Box::new(KeyIndex::with_capacity(capacity))),
        }
    }

    /// An object of `entries` in their order; of a repeated key, the first place and the last
    /// value stay (as inserting them one by one leaves them).
    pub fn from_entries(entries: Vec<(String, Value)>) -> Map {
        let mut map = Map::with_capacity(entries.len());
        map.extend(entries);
        map
    }

    /// Holds the entries from `from` on in the index; makes the index of them all once the
    /// map outgrows a scan.
    fn index_from(&mut self, mut from: usize) {
        if self.index.is_none() {
            if self.entries.len() <= SCAN {
                return;
            }
            from = 0;
        }
        let entries = &self.entries;
        let index = self.index.get_or_insert_default();
        let key_at = |i: usize| entries.get(i).map(|(k, _)| k.as_str());
        for (at, (key, _)) in entries.iter().enumerate().skip(from) {
            index.add(key, at, &key_at);
        }
    }

    /// Makes the index anew after entries moved (`n`, as moving them was).
    fn reindex(&mut self) {
        self.index = None;
        self.index_from(0);
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
        let entries = &self.entries;
        match &self.index {
            Some(index) => index.find(key, &|i| entries.get(i).map(|(k, _)| k.as_str())),
            None => entries.iter().position(|(k, _)| k == key),
        }
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
                self.index_from(self.entries.len() - 1);
                None
            }
        }
    }

    /// Takes `key` out; the other entries keep their order.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.position(key)?;
        let (_, value) = self.entries.remove(at);
        self.reindex();
        Some(value)
    }

    /// The same as [`remove`](Map::remove) (serde_json's name for the order-keeping removal).
    pub fn shift_remove(&mut self, key: &str) -> Option<Value> {
        self.remove(key)
    }

    /// Keeps the entries `keep` says yes to, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&String, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
        self.reindex();
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
    /// The entries in order; of a repeated key, the first place and the last value.
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

impl Clone for Map {
    /// The entries copied and their index made anew (one copy of the index's code).
    fn clone(&self) -> Map {
        let mut map = Map::new();
        map.entries.clone_from(&self.entries);
        map.index_from(0);
        map
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
