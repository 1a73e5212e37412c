//! `core::hashed`: the metrics registry's table and a large JSON object's repeated-key check
//! find every key they were given, keep first-insertion order, and grow without losing any,
//! against `BTreeMap` and a plain list as references.
//!
//! Its hash is keyed per instance: keys crafted to collide under the unseeded FNV-1a it had
//! cost no more key comparisons than ordinary ones, and two instances hash a key differently.
#![allow(clippy::unwrap_used)]

use crate::fnv_collisions;

use proptest::prelude::*;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::process::Command;
use toolnexus::core::hashed::{Hashed, KeyHash, KeyIndex};

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

/// The key comparisons an index makes to take `keys` in as a parsed object's do (a look for
/// each key, then its position held): each time the index asks for a position's key.
fn comparisons(keys: &[String]) -> usize {
    let asked = Cell::new(0);
    let key_at = |i: usize| {
        asked.set(asked.get() + 1);
        keys.get(i).map(String::as_str)
    };
    let mut index = KeyIndex::default();
    for (at, key) in keys.iter().enumerate() {
        assert_eq!(index.find(key, &key_at), None);
        index.add(key, at, &key_at);
    }
    assert!(keys
        .iter()
        .enumerate()
        .all(|(at, k)| index.find(k, &key_at) == Some(at)));
    asked.get()
}

#[test]
fn keys_crafted_to_collide_cost_no_more_than_ordinary_ones() {
    let colliding = fnv_collisions::colliding(8_000);
    // They do collide under the old hash: every one in the same first slot of 16,384.
    assert!(colliding
        .iter()
        .all(|k| fnv_collisions::fnv1a(0x811c_9dc5, k.as_bytes()) & fnv_collisions::MASK == 0));
    let crafted = comparisons(&colliding);
    let ordinary = comparisons(&fnv_collisions::ordinary(8_000));
    // About 4 per key for both (the look, the resizes, the final finds); the unseeded FNV-1a
    // made 32,004,000 against 18,930.
    assert!(
        crafted <= 5 * ordinary,
        "{crafted} comparisons for crafted keys, {ordinary} for ordinary ones"
    );
}

#[test]
fn two_keys_hash_a_key_differently() {
    let keys = ["", "a", "city", "key_00001", "000000abc"];
    let one = KeyHash([0x0123_4567_89ab_cdef, 1]);
    let other = KeyHash([0x0123_4567_89ab_cdef, 2]);
    for key in keys {
        assert_eq!(one.hash(key), one.hash(key));
        assert_ne!(one.hash(key), other.hash(key), "{key:?}");
    }
    // The instance's key is drawn, not the fixed one a runtime without randomness falls to.
    let instance = KeyHash::instance();
    let fixed = KeyHash([0, 0]);
    assert!(keys.iter().all(|k| instance.hash(k) != fixed.hash(k)));
}

/// Prints this process's hash of a key when `TOOLNEXUS_PRINT_HASH` is set (the next test runs
/// this binary twice for it); passes doing nothing otherwise.
#[test]
fn print_the_instance_hash_when_asked() {
    if std::env::var_os("TOOLNEXUS_PRINT_HASH").is_some() {
        println!("instance hash: {}", KeyHash::instance().hash("city"));
    }
}

#[test]
fn two_instances_hash_a_key_differently() {
    let instance_hash = || {
        let out = Command::new(std::env::current_exe().unwrap())
            // A filter, not `--exact`: the test's full name carries its module's path.
            .args(["print_the_instance_hash_when_asked", "--nocapture"])
            .env("TOOLNEXUS_PRINT_HASH", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let hash = text.lines().find_map(|l| l.strip_prefix("instance hash: "));
        assert!(hash.is_some(), "no hash in {text:?}");
        hash.unwrap().to_owned()
    };
    let (one, other) = (instance_hash(), instance_hash());
    assert_ne!(one, other);
    assert_ne!(one, KeyHash::instance().hash("city").to_string());
}
