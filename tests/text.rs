//! `core::text` does what the standard library's string functions it stands in for do, for any
//! input: substring search, `split_once`, `replace`, `join`, and lossy UTF-8 decoding.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use toolnexus::core::text::{find, from_utf8_lossy, replace, split_once, JoinWith};

/// Short strings over a small alphabet (so needles are often found), multi-byte characters
/// included.
const TEXT: &str = "[ab${}é🦀]{0,12}";
const NEEDLE: &str = "[ab${}é🦀]{0,3}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn find_finds_what_str_find_finds(hay in TEXT, needle in NEEDLE) {
        prop_assert_eq!(find(&hay, &needle), hay.find(needle.as_str()));
    }

    #[test]
    fn split_once_splits_where_str_does(hay in TEXT, needle in NEEDLE) {
        prop_assert_eq!(split_once(&hay, &needle), hay.split_once(needle.as_str()));
    }

    #[test]
    fn replace_replaces_as_str_replace(hay in TEXT, needle in NEEDLE, with in "[xé]{0,2}") {
        // An empty needle is the one documented difference: nothing to replace.
        let expected = if needle.is_empty() { hay.clone() } else { hay.replace(needle.as_str(), &with) };
        prop_assert_eq!(replace(&hay, &needle, &with), expected);
    }

    #[test]
    fn join_with_joins_as_join(items in proptest::collection::vec(TEXT, 0..5), sep in "[,; é]{0,2}") {
        prop_assert_eq!(items.join_with(&sep), items.join(&sep));
        let borrowed: Vec<&str> = items.iter().map(String::as_str).collect();
        prop_assert_eq!(borrowed.join_with(&sep), borrowed.join(&sep));
    }

    #[test]
    fn lossy_decoding_matches_std(bytes in proptest::collection::vec(any::<u8>(), 0..24)) {
        prop_assert_eq!(from_utf8_lossy(&bytes), String::from_utf8_lossy(&bytes).into_owned());
    }

    #[test]
    fn lossy_decoding_of_mostly_valid_text_matches_std(text in TEXT, cut in 0usize..40, junk in any::<u8>()) {
        // Valid text with one byte changed: sequences cut short, stray continuation bytes.
        let mut bytes = text.into_bytes();
        let at = cut % bytes.len().max(1);
        if let Some(byte) = bytes.get_mut(at) {
            *byte = junk;
        }
        prop_assert_eq!(from_utf8_lossy(&bytes), String::from_utf8_lossy(&bytes).into_owned());
    }
}

#[test]
fn edges() {
    assert_eq!(find("", ""), Some(0));
    assert_eq!(find("", "a"), None);
    assert_eq!(split_once("a://", "://"), Some(("a", "")));
    assert_eq!(replace("abc", "", "x"), "abc");
    assert_eq!(from_utf8_lossy(b""), "");
    assert_eq!(from_utf8_lossy(b"\xE2\x82"), "\u{FFFD}");
    assert_eq!(from_utf8_lossy(b"\xC0\x80"), "\u{FFFD}\u{FFFD}");
}
