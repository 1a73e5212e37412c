//! `core::sorting` orders exactly as the standard library's stable sort does, for any list and
//! any comparator that leaves ties: the same order, equal items kept in their original order.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use toolnexus::core::sorting::{sort, sort_by};

proptest! {
    #[test]
    fn matches_the_standard_stable_sort(keys in proptest::collection::vec(0u8..8, 0..300)) {
        // Each item remembers where it started, so a tie broken the wrong way shows.
        let items: Vec<(u8, usize)> = keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect();
        let mut ours = items.clone();
        sort_by(&mut ours, &|a, b| a.0.cmp(&b.0));
        let mut std_sorted = items;
        std_sorted.sort_by_key(|a| a.0);
        prop_assert_eq!(ours, std_sorted);
    }

    #[test]
    fn sorts_strings_naturally(mut words in proptest::collection::vec(".{0,6}", 0..100)) {
        let mut expected = words.clone();
        expected.sort();
        sort(&mut words);
        prop_assert_eq!(words, expected);
    }
}

#[test]
fn a_reversed_comparator_sorts_descending() {
    let mut numbers: Vec<u32> = (0..1000).collect();
    sort_by(&mut numbers, &|a, b| b.cmp(a));
    assert_eq!(numbers, (0..1000).rev().collect::<Vec<_>>());
}

#[test]
fn empty_and_single_lists_stay_as_they_are() {
    let mut empty: Vec<String> = Vec::new();
    sort(&mut empty);
    assert!(empty.is_empty());
    let mut one = vec!["only"];
    sort(&mut one);
    assert_eq!(one, ["only"]);
}
