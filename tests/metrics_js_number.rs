//! `js_number` writes a number exactly as JavaScript's `String(number)` does (the `_sum` of
//! every histogram and its `le` edges depend on it): a table produced by Node, special values,
//! and ties between two shortest candidates.
#![allow(clippy::unwrap_used)]

use toolnexus::core::metrics::js_number;

/// `(f64 bits, String(number))` from Node: hand-picked values, 30 random bit patterns, and 20
/// random sums of millisecond durations divided by 1000.
const JS_STRINGS: &[(u64, &str)] = &[
    (0x0000000000000000, "0"),
    (0x8000000000000000, "0"),
    (0x3ff0000000000000, "1"),
    (0xbff0000000000000, "-1"),
    (0x404e000000000000, "60"),
    (0x4059000000000000, "100"),
    (0x3fe0000000000000, "0.5"),
    (0x3fa999999999999a, "0.05"),
    (0x3fb999999999999a, "0.1"),
    (0x3fbeb851eb851eb8, "0.12"),
    (0x3fa47ae147ae147b, "0.04"),
    (0x3fd3333333333334, "0.30000000000000004"),
    (0x3fd5555555555555, "0.3333333333333333"),
    (0x3fe5555555555555, "0.6666666666666666"),
    (0x4011666666666666, "4.35"),
    (0x444b1ae4d6e2ef50, "1e+21"),
    (0x3e7ad7f29abcaf48, "1e-7"),
    (0x3eb0c6f7a0b5ed8d, "0.000001"),
    (0x3e808ffde1023e12, "1.234e-7"),
    (0x3eb4b3fd5942cd96, "0.000001234"),
    (0x419d6f34547df3b6, "123456789.123"),
    (0x0000000000000001, "5e-324"),
    (0x4340000000000000, "9007199254740992"),
    (0x4340000000000001, "9007199254740994"),
    (0x4415af1d78b58c40, "100000000000000000000"),
    (0x4454542ba12a337c, "1.5e+21"),
    (0x54b249ad2594c37d, "1e+100"),
    (0x7fefffffffffffff, "1.7976931348623157e+308"),
    (0xbff8000000000000, "-1.5"),
    (0xbe7ad7f29abcaf48, "-1e-7"),
    (0x3c36b082c2148b8e, "1.23e-18"),
    (0x441ac53a7e04bcda, "123456789012345680000"),
    (0x444b1ae4d6e2ef4f, "999999999999999900000"),
    (0x3fd3333333333334, "0.30000000000000004"),
    (0x01a56e1fc2f8f359, "1e-300"),
    (0x3e90c6f7a0b5ed8d, "2.5e-7"),
    (0x4028b0fcd324d5a2, "12.3456789"),
    (0x3f50624dd2f1a9fc, "0.001"),
    (0x4030800000000000, "16.5"),
    (0x1c0d57f10c894254, "1.4830122828920016e-173"),
    (0x43f04a6ece53d613, "18781959765316678000"),
    (0xe2b8410510668fa6, "-3.575532127436644e+167"),
    (0xd5f2e30a9e501b7d, "-1.0829258728928171e+106"),
    (0x535c8ea8a4e05948, "3.7230187291668613e+93"),
    (0x8f7b1bac9609eaf7, "-4.262874002980358e-234"),
    (0xcb3af636587957ba, "-2.5824242072052563e+54"),
    (0x6438f14dfe833301, "6.169062368256605e+174"),
    (0xd0af9825c659f77c, "-4.682717518917287e+80"),
    (0x302bd02b522a861b, "1.2009957333271821e-76"),
    (0xfd70522e931f790e, "-1.6677967842578716e+296"),
    (0xfba9a1630e23bac5, "-4.878446657335358e+287"),
    (0x29616ccb5e0010f0, "2.318589285015657e-109"),
    (0xd37bf421a1818b7f, "-1.4577297053362402e+94"),
    (0x7a5b1baa844c07a2, "2.4603368763737895e+281"),
    (0x552e421879d836c9, "2.1178316544328792e+102"),
    (0xa92e8eaf3493d9a4, "-2.5412503051231247e-110"),
    (0x5fe48bdeead11f23, "8.60880578948587e+153"),
    (0x618d3e487ffb5776, "8.222691106237041e+161"),
    (0x5cd158ba16a76b0d, "1.29107691235244e+139"),
    (0x07727df42b81c598, "8.54570675525937e-273"),
    (0x16e635e91fb5a507, "2.3213088696070116e-198"),
    (0x38c4ac26c846fc8a, "3.1104470921459883e-35"),
    (0x8ade8c37577c5b91, "-2.5430944865444634e-256"),
    (0xa7e5b8ad611588cc, "-1.722738704669676e-116"),
    (0x83785723e5c9c12b, "-6.097780315332402e-292"),
    (0xdab33022a4b9cade, "-8.312822724526027e+128"),
    (0x41b96ab112ea4c55, "426422546.91522723"),
    (0x4b0e14fa2fee1740, "3.601597095685222e+53"),
    (0x7402f3fb0a0a578f, "6.784931974924426e+250"),
    (0x406c074bc6a7ef9e, "224.228"),
    (0x405aa03126e978d5, "106.503"),
    (0x40773f0624dd2f1b, "371.939"),
    (0x4065b73b645a1cac, "173.726"),
    (0x404751eb851eb852, "46.64"),
    (0x406543df3b645a1d, "170.121"),
    (0x4060f1b22d0e5604, "135.553"),
    (0x40732a51eb851eb8, "306.645"),
    (0x40706410624dd2f2, "262.254"),
    (0x4062dd78d4fdf3b6, "150.921"),
    (0x405b04dd2f1a9fbf, "108.07600000000001"),
    (0x40703cdd2f1a9fbe, "259.804"),
    (0x4048f147ae147ae1, "49.885"),
    (0x406b6f74bc6a7efa, "219.483"),
    (0x406eb276c8b43959, "245.57700000000003"),
    (0x40335e353f7ced91, "19.368"),
    (0x406b9bced916872b, "220.869"),
    (0x406a0ac8b4395811, "208.33700000000002"),
    (0x406e13ae147ae148, "240.615"),
    (0x4032316872b020c5, "18.193"),
];

#[test]
fn js_number_matches_javascript_string_of_number() {
    assert!(JS_STRINGS.len() >= 80);
    for (bits, js) in JS_STRINGS {
        let value = f64::from_bits(*bits);
        assert_eq!(js_number(value), *js, "{value:e} ({bits:#x})");
    }
}

#[test]
fn js_number_special_values() {
    assert_eq!(js_number(f64::NAN), "NaN");
    assert_eq!(js_number(f64::INFINITY), "Infinity");
    assert_eq!(js_number(f64::NEG_INFINITY), "-Infinity");
    assert_eq!(js_number(-0.0), "0");
    assert_eq!(js_number(0.1 + 0.2), "0.30000000000000004");
    assert_eq!(js_number(1e21), "1e+21");
    assert_eq!(
        js_number(999_999_999_999_999_900_000.0),
        "999999999999999900000"
    );
    assert_eq!(js_number(1e-7), "1e-7");
    assert_eq!(js_number(0.000_001), "0.000001");
    assert_eq!(js_number(123_456_789.123), "123456789.123");
    assert_eq!(js_number(5e-324), "5e-324");
    assert_eq!(js_number(0.5), "0.5");
    for n in [0u32, 1, 7, 60, 100, 4096, 1_000_000] {
        assert_eq!(js_number(f64::from(n)), n.to_string());
    }
}

/// Values whose shortest round-trip form has two equally near 17-digit candidates: ECMAScript's
/// Number::toString picks the even last digit (Rust's `{}` picks the upper one, which is why the
/// digits come from `zmij`, as serde_json's do).
const JS_TIES: &[(u64, &str)] = &[
    (0x430c6bf526340002, "1000000000000000.2"),
    (0x3fbf364000000000, "0.12192153930664062"),
    (0x3f4fe80000000000, "0.0009737014770507812"),
    (0x3fe5461000000000, "0.6648025512695312"),
    (0xc313bbd7341d74d1, "-1388639381052724.2"),
];

#[test]
fn js_number_breaks_ties_like_javascript() {
    for (bits, js) in JS_TIES {
        let value = f64::from_bits(*bits);
        assert_eq!(js_number(value), *js, "{value:e} ({bits:#x})");
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod any_number {
    use proptest::prelude::*;
    use toolnexus::core::metrics::js_number;

    proptest! {
        /// Whatever the bits, the text reads back as the same number, in one of ECMAScript's
        /// three layouts, with no redundant zero.
        #[test]
        fn round_trips_in_a_javascript_layout(bits in any::<u64>()) {
            let value = f64::from_bits(bits);
            prop_assume!(value.is_finite() && value != 0.0);
            let text = js_number(value);
            prop_assert_eq!(text.parse::<f64>().unwrap(), value, "{}", text);
            let unsigned = text.trim_start_matches('-');
            let (mantissa, exponent) = unsigned.split_once('e').unwrap_or((unsigned, ""));
            if !exponent.is_empty() {
                prop_assert!(exponent.starts_with('+') || exponent.starts_with('-'), "{}", text);
                let e: i32 = exponent.parse().unwrap();
                prop_assert!(e >= 21 || e <= -7, "{}", text);
                prop_assert!(mantissa.len() == 1 || mantissa.as_bytes().get(1) == Some(&b'.'), "{}", text);
            }
            if mantissa.contains('.') {
                prop_assert!(!mantissa.ends_with('0'), "{}", text);
            }
            prop_assert!(!mantissa.starts_with("00"), "{}", text);
        }
    }
}
