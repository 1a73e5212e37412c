//! A small hash index of the crate's own (FNV-1a, open addressing), for the two places where a
//! table may hold many thousands of keys: the metrics registry's series (a lookup per event)
//! and a parsed JSON object's repeated keys. A sorted `Vec` would move half its entries on
//! each new key and a scan is quadratic; std's `HashMap` and `BTreeMap` would bring their code
//! (and the former its random keys) into the wasm module for these alone.
//!
//! The index keeps only positions: the entries stay in the caller's `Vec`, in their order, and
//! the index asks for a position's key through a `dyn` function, so one copy of its code serves
//! every entry type.

/// Positions of entries by their string keys. Each slot is 0 (empty) or a position + 1; the
/// slots are a power of two in number, at least twice the positions held.
#[derive(Debug, Clone, Default)]
pub struct KeyIndex {
    slots: Vec<u32>,
    held: usize,
}

/// The key at a position of the caller's entries (`None` for a position it does not have).
pub type KeyAt<'a> = &'a dyn Fn(usize) -> Option<&'a str>;

/// FNV-1a over the key's bytes.
fn hash(key: &str) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    for byte in key.bytes() {
        h = (h ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    h as usize
}

impl KeyIndex {
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
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = hash(key) & mask;
        loop {
            let position = (*self.slots.get(at)? as usize).checked_sub(1)?;
            if key_at(position) == Some(key) {
                return Some(position);
            }
            at = (at + 1) & mask;
        }
    }

    /// Holds `position` for `key`, which it must not hold yet (look first with
    /// [`find`](KeyIndex::find)).
    pub fn add(&mut self, key: &str, position: usize, key_at: KeyAt<'_>) {
        if (self.held + 1) * 2 > self.slots.len() {
            self.grow(key_at);
        }
        self.place(hash(key), position);
        self.held += 1;
    }

    /// Puts `position` in the first empty slot from `hash`'s.
    fn place(&mut self, hash: usize, position: usize) {
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = hash & mask;
        while let Some(slot) = self.slots.get_mut(at) {
            if *slot == 0 {
                *slot = position as u32 + 1;
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// Doubles the slots (16 at first) and places every held position again.
    fn grow(&mut self, key_at: KeyAt<'_>) {
        let size = (self.slots.len() * 2).max(16);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for position in old
            .into_iter()
            .filter_map(|slot| (slot as usize).checked_sub(1))
        {
            if let Some(key) = key_at(position) {
                self.place(hash(key), position);
            }
        }
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
#[derive(Debug, Clone)]
pub struct Hashed<V> {
    entries: Vec<(String, V)>,
    index: KeyIndex,
}

impl<V> Default for Hashed<V> {
    fn default() -> Self {
        Hashed {
            entries: Vec::new(),
            index: KeyIndex::default(),
        }
    }
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
