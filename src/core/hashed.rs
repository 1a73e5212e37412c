//! The hash index of the tables that may hold many thousands of keys: the metrics registry's
//! series (a lookup per event) and a large JSON object's keys ([`Map`](crate::core::json::value::Map)
//! past a few entries). It is hashbrown's `HashTable` of positions under SipHash-1-3, keyed by
//! 128 bits each module instance draws from getrandom (`crypto.getRandomValues` in wasm, the OS
//! elsewhere): keys that collide cannot be made in advance, as they were for the unseeded FNV-1a
//! this replaced (8,000 of them took a parse ~100x the time of ordinary keys).
//!
//! The index keeps only positions: the entries stay in the caller's `Vec`, in their order, and
//! the index asks for a position's key through a `dyn` function, so one copy of its code serves
//! every entry type.

use hashbrown::HashTable;
use siphasher::sip::SipHasher13;
use std::hash::Hasher;
use std::sync::OnceLock;

/// The key at a position of the caller's entries (`None` for a position it does not have).
pub type KeyAt<'a> = &'a dyn Fn(usize) -> Option<&'a str>;

/// A keyed string hash: SipHash-1-3 (std's `HashMap` hash) under this 128-bit key.
#[derive(Debug, Clone, Copy)]
pub struct KeyHash(pub [u64; 2]);

impl KeyHash {
    /// This module instance's, its key drawn on first use. A runtime without a random source
    /// (in wasm, one without `crypto.getRandomValues`: Node before 19) gets a fixed key: its
    /// tables work as they did unseeded, without the protection (a hash has no error to give),
    /// while its random ids fail loudly (`js::host::random_id`).
    pub fn instance() -> &'static KeyHash {
        static SEED: OnceLock<KeyHash> = OnceLock::new();
        SEED.get_or_init(|| {
            let word = || getrandom::u64().unwrap_or_default();
            KeyHash([word(), word()])
        })
    }

    /// The hash of `key`.
    pub fn hash(&self, key: &str) -> u64 {
        let [k0, k1] = self.0;
        let mut hasher = SipHasher13::new_with_keys(k0, k1);
        hasher.write(key.as_bytes());
        hasher.finish()
    }
}

fn hash(key: &str) -> u64 {
    KeyHash::instance().hash(key)
}

/// Positions of entries by their string keys, hashed under [`KeyHash::instance`].
#[derive(Debug, Clone, Default)]
pub struct KeyIndex(HashTable<u32>);

impl KeyIndex {
    /// An empty index with room for `capacity` positions.
    pub fn with_capacity(capacity: usize) -> KeyIndex {
        KeyIndex(HashTable::with_capacity(capacity))
    }

    /// The position held for `key`.
    ///
    /// ```
    /// use toolnexus::core::hashed::KeyIndex;
    /// let keys = ["a", "b"];
    /// let key_at = |i: usize| keys.get(i).copied();
    /// let mut index = KeyIndex::default();
    /// index.add("a", 0, &key_at);
    /// index.add("b", 1, &key_at);
    /// assert_eq!(index.find("b", &key_at), Some(1));
    /// assert_eq!(index.find("c", &key_at), None);
    /// ```
    pub fn find(&self, key: &str, key_at: KeyAt<'_>) -> Option<usize> {
        let found = self
            .0
            .find(hash(key), |&at| key_at(at as usize) == Some(key));
        found.map(|&at| at as usize)
    }

    /// Holds `position` for `key`, which it must not hold yet (look first with
    /// [`find`](KeyIndex::find)).
    pub fn add(&mut self, key: &str, position: usize, key_at: KeyAt<'_>) {
        let rehash = |&at: &u32| hash(key_at(at as usize).unwrap_or_default());
        self.0.insert_unique(hash(key), position as u32, rehash);
    }
}

/// Values by string key, in insertion order, each key once, found through a [`KeyIndex`].
///
/// ```
/// use toolnexus::core::hashed::Hashed;
/// let mut counts: Hashed<u64> = Hashed::default();
/// *counts.get_or_default("b") += 1;
/// *counts.get_or_default("a") += 1;
/// *counts.get_or_default("b") += 1;
/// assert_eq!(counts.get("b"), Some(&2));
/// let all: Vec<(&str, u64)> = counts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
/// assert_eq!(all, [("b", 2), ("a", 1)]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Hashed<V> {
    entries: Vec<(String, V)>,
    index: KeyIndex,
}

impl<V> Hashed<V> {
    /// The number of keys.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &str) -> Option<usize> {
        let entries = &self.entries;
        self.index
            .find(key, &|i| entries.get(i).map(|(k, _)| k.as_str()))
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&V> {
        let at = self.position(key)?;
        self.entries.get(at).map(|(_, v)| v)
    }

    /// The value of `key`, made with `V::default()` (the key copied) when it is new.
    pub fn get_or_default(&mut self, key: &str) -> &mut V
    where
        V: Default,
    {
        let at = match self.position(key) {
            Some(at) => at,
            None => {
                let at = self.entries.len();
                self.entries.push((key.to_owned(), V::default()));
                let entries = &self.entries;
                self.index
                    .add(key, at, &|i| entries.get(i).map(|(k, _)| k.as_str()));
                at
            }
        };
        // `at` is an entry's: found through the index, or the one just pushed.
        #[allow(clippy::indexing_slicing)]
        &mut self.entries[at].1
    }

    /// The keys and values in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> + '_ {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}
