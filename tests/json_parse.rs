//! `core::json::parse::from_str` reads every text as `serde_json::from_str::<Value>` does:
//! the same value (number forms and float bits included) or the same error message, for
//! generated values written every which way, numbers of every shape, broken texts, texts of
//! JSON's own characters, deep nesting, and every power of ten it works out.
#![allow(clippy::unwrap_used)]

use crate::fnv_collisions;
use crate::json_style;

use json_style::{any_value as value, broken, mutation_byte, style, written};
use proptest::prelude::*;
use toolnexus::core::json::parse::from_str;
use toolnexus::core::json::value::Value;

/// Both readers' outcomes, as text that tells every number form and float bit apart.
fn outcome(result: Result<Value, String>) -> Result<String, String> {
    result.map(|v| format!("{v:?} {}", serde_json::to_string(&v).unwrap()))
}

fn same(text: &str) -> Result<(), TestCaseError> {
    let ours = outcome(from_str(text).map_err(|e| e.to_string()));
    let theirs = outcome(serde_json::from_str::<Value>(text).map_err(|e| e.to_string()));
    prop_assert_eq!(ours, theirs, "text: {:?}", text);
    Ok(())
}

/// Number texts of every shape: signs, leading zeros, long digit runs, fractions and
/// exponents past every limit.
fn number_text() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(""), Just("-"), Just("+"), Just("--")],
        prop_oneof![
            "0",
            "[0-9]{1,3}",
            "[1-9][0-9]{15,25}",
            "0[0-9]{1,3}",
            Just(String::new())
        ],
        prop_oneof![
            Just(String::new()),
            Just(".".to_owned()),
            "\\.[0-9]{1,4}",
            "\\.[0-9]{18,30}"
        ],
        prop_oneof![
            Just(String::new()),
            "[eE][+-]?[0-9]{1,3}",
            "[eE][+-]?[0-9]{9,12}",
            "[eE][+-]?",
            Just("e+-1".to_owned()),
        ],
        prop_oneof![Just(""), Just(" "), Just("x"), Just(","), Just("]")],
    )
        .prop_map(|(sign, int, frac, exp, tail)| format!("{sign}{int}{frac}{exp}{tail}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn values_written_any_way_read_the_same(v in value(), style in style()) {
        same(&written(&v, &style))?;
        same(&serde_json::to_string(&v).unwrap())?;
    }

    #[test]
    fn broken_texts_fail_the_same(v in value(), style in style(), at in any::<prop::sample::Index>(), cut in any::<bool>(), byte in mutation_byte()) {
        if let Some(text) = broken(written(&v, &style), at, cut, byte) {
            same(&text)?;
        }
    }

    #[test]
    fn numbers_read_the_same(text in number_text(), wrap in any::<bool>()) {
        same(&text)?;
        if wrap {
            same(&format!("[{text}]"))?;
            same(&format!("{{\"n\":{text}}}"))?;
        }
    }

    #[test]
    fn texts_of_json_characters_read_the_same(text in "[\\[\\]{}\",:0-9.eE+\\- ntrufalsx\\\\/bu\n\t\r]{0,24}") {
        same(&text)?;
    }

    #[test]
    fn escapes_read_the_same(text in "\"([a\\\\\"]|\\\\u[0-9a-fA-FdDg]{0,4}|\\\\[\"\\\\/bfnrtux]){0,6}\"?") {
        same(&text)?;
    }
}

#[test]
fn nesting_stops_where_serde_json_stops() {
    for depth in [1, 126, 127, 128, 129, 300] {
        same(&format!("{}{}", "[".repeat(depth), "]".repeat(depth))).unwrap();
        same(&"{\"a\":".repeat(depth)).unwrap();
        same(&format!(
            "{}1{}",
            "{\"a\":".repeat(depth),
            "}".repeat(depth)
        ))
        .unwrap();
    }
}

#[test]
fn every_power_of_ten_and_the_extremes_read_the_same() {
    for k in 0..=330 {
        for text in [
            format!("1e{k}"),
            format!("1e-{k}"),
            format!("9.99e{k}"),
            format!("2.5e-{k}"),
        ] {
            same(&text).unwrap();
        }
    }
    for text in [
        "0",
        "-0",
        "-0.0",
        "0e0",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "5e-324",
        "2.4e-324",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1e2147483647",
        "1e2147483648",
        "0e99999999999",
        "1e-99999999999",
        "123456789012345678901234567890e-10",
        "0.000000000000000000000000000001",
    ] {
        same(text).unwrap();
    }
}

#[test]
fn errors_say_where_on_which_line() {
    let text = "{\n  \"a\": tru\n}";
    // The byte that broke `true` is the newline: the error is after it.
    assert_eq!(
        from_str(text).unwrap_err().to_string(),
        "expected ident at line 3 column 0"
    );
    assert_eq!(
        serde_json::from_str::<Value>(text).unwrap_err().to_string(),
        "expected ident at line 3 column 0"
    );
    assert_eq!(
        from_str("").unwrap_err().to_string(),
        "EOF while parsing a value at line 1 column 0"
    );
    assert_eq!(
        from_str("[1] x").unwrap_err().to_string(),
        "trailing characters at line 1 column 5"
    );
}

/// The least of 7 parses of `text`, in seconds.
fn least_parse_time(text: &str) -> f64 {
    (0..7)
        .map(|_| {
            let start = std::time::Instant::now();
            let value = from_str(text).unwrap();
            let elapsed = start.elapsed().as_secs_f64();
            assert_eq!(value.as_object().map(|o| o.len()), Some(8_000));
            elapsed
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn an_object_of_keys_crafted_to_collide_parses_as_fast_as_ordinary_keys() {
    let object = |keys: Vec<String>| {
        let entries: Vec<String> = keys.iter().map(|k| format!("\"{k}\":1")).collect();
        format!("{{{}}}", entries.join(","))
    };
    // 8,000 keys of 9 characters: 112 KB each.
    let crafted = object(fnv_collisions::colliding(8_000));
    let ordinary = object(fnv_collisions::ordinary(8_000));
    assert_eq!(crafted.len(), ordinary.len());
    let (crafted, ordinary) = (least_parse_time(&crafted), least_parse_time(&ordinary));
    assert!(
        crafted <= 5.0 * ordinary,
        "{crafted:.4} s for crafted keys, {ordinary:.4} s for ordinary ones"
    );
}
