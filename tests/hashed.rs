//! `core::hashed`: the metrics registry's table and a large JSON object's repeated-key check
//! find every key they were given, keep first-insertion order, and grow without losing any,
//! against `BTreeMap` and a plain list as references.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use std::collections::BTreeMap;
use toolnexus::core::hashed::{Hashed, KeyIndex};

/// Keys from a few hundred (so the table grows several times) that share prefixes and lengths.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..400u32).prop_map(|n| format!("tool_{n}")),
        "[a-c]{0,3}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn every_key_counts_where_a_btree_map_counts(keys in prop::collection::vec(key(), 0..600)) {
        let mut ours: Hashed<u64> = Hashed::default();
        let mut reference: BTreeMap<String, u64> = BTreeMap::new();
        let mut first_seen: Vec<String> = Vec::new();
        for key in &keys {
            *ours.get_or_default(key) += 1;
            let count = reference.entry(key.clone()).or_default();
            if *count == 0 {
                first_seen.push(key.clone());
            }
            *count += 1;
        }
        prop_assert_eq!(ours.len(), reference.len());
        prop_assert_eq!(ours.is_empty(), reference.is_empty());
        for (key, count) in &reference {
            prop_assert_eq!(ours.get(key), Some(count));
        }
        prop_assert_eq!(ours.get("never a key \u{0}"), None);
        let order: Vec<&String> = ours.iter().map(|(k, _)| k).collect();
        prop_assert_eq!(order, first_seen.iter().collect::<Vec<_>>());
    }

    #[test]
    fn an_index_finds_what_a_scan_finds(keys in prop::collection::vec(key(), 0..300)) {
        let mut index = KeyIndex::default();
        let key_at = |i: usize| keys.get(i).map(String::as_str);
        for (at, key) in keys.iter().enumerate() {
            let scan = keys.iter().take(at).position(|k| k == key);
            prop_assert_eq!(index.find(key, &key_at), scan);
            if scan.is_none() {
                index.add(key, at, &key_at);
            }
        }
    }
}

#[test]
fn ten_thousand_series_each_found() {
    let mut table: Hashed<u64> = Hashed::default();
    for n in 0..10_000u64 {
        *table.get_or_default(&format!("tool_{n}")) = n;
    }
    assert_eq!(table.len(), 10_000);
    assert!((0..10_000u64).all(|n| table.get(&format!("tool_{n}")) == Some(&n)));
}
