//! `core::jsfmt::number` against Node's `String(n)`, over the corpus in
//! `tests/js_number_corpus.txt` (random magnitudes from 1e-30 to 1e30 and the layout edges).
#![allow(clippy::expect_used)]

use toolnexus::core::jsfmt::number;

#[test]
fn number_matches_string_of_a_js_number() {
    let corpus = include_str!("js_number_corpus.txt");
    let mut checked = 0;
    for line in corpus.lines().filter(|line| !line.starts_with('#')) {
        let (hex, want) = line.split_once(' ').expect("hex and text");
        let bytes: Vec<u8> = (0..8)
            .map(|i| u8::from_str_radix(&hex[i * 2..i * 2 + 2], 16).expect("hex"))
            .collect();
        let n = f64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        assert_eq!(number(n), want, "String({n:e})");
        checked += 1;
    }
    assert!(checked > 400, "the corpus was read ({checked} numbers)");
}
