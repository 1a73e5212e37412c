//! [`Names`]: values by string key in a sorted `Vec`, found by binary search. For the few
//! keyed tables of the core (the toolkit's index of tool names, the in-memory conversation
//! store, the memory filesystem, the paths a directory walk has seen, YAML anchors, MCP
//! requests in flight): in the wasm module a `HashMap` brings its hasher, its random keys and a
//! hash table of its own (2 KiB gzip), a `BTreeMap` more; lookups here take log2(n)
//! comparisons and an insert moves the entries after it, which suits tables of up to some
//! thousands of names (a 500-tool toolkit; the metrics registry, whose series may be many
//! thousands with a lookup per event, uses [`Hashed`](crate::core::hashed::Hashed)).

use std::borrow::Borrow;

/// Values by string key, kept sorted by key.
///
/// ```
/// use toolnexus::core::names::Names;
/// let mut names: Names<i32> = Names::default();
/// assert_eq!(names.insert("b".into(), 2), None);
/// assert_eq!(names.insert("a".into(), 1), None);
/// assert_eq!(names.insert("b".into(), 3), Some(2));
/// assert_eq!(names.get("b"), Some(&3));
/// assert!(names.get("c").is_none());
/// ```
///
/// Keys are `String`s unless given: `Names<V, u32>` keeps ids (an id larger than every other,
/// as counters hand them out, goes to the end without moving anything).
#[derive(Debug, Clone)]
pub struct Names<V, K = String> {
    entries: Vec<(K, V)>,
}

impl<V, K> Default for Names<V, K> {
    fn default() -> Self {
        Names {
            entries: Vec::new(),
        }
    }
}

impl<V, K: Ord> Names<V, K> {
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value under `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        let at = self.find(key).ok()?;
        self.entries.get(at).map(|(_, v)| v)
    }

    /// The value under `key`, to change.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        let at = self.find(key).ok()?;
        self.entries.get_mut(at).map(|(_, v)| v)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Puts `value` under `key`; gives back the value it replaces.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        if self.entries.last().is_none_or(|(last, _)| *last < key) {
            self.entries.push((key, value));
            return None;
        }
        match self.find(&key) {
            Ok(at) => self
                .entries
                .get_mut(at)
                .map(|(_, old)| std::mem::replace(old, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    /// Takes the value under `key` out.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        let at = self.find(key).ok()?;
        Some(self.entries.remove(at).1)
    }

    /// Keeps only the entries `keep` says yes to.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &V) -> bool) {
        self.entries.retain(|(k, v)| keep(k, v));
    }

    /// How many entries there are.
    ///
    /// ```
    /// # use toolnexus::core::names::Names;
    /// let mut names: Names<i32> = Names::default();
    /// names.insert("a".into(), 1);
    /// assert_eq!((names.len(), names.is_empty()), (1, false));
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The entries, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}
