//! `Retry-After` is honoured only as ASCII digits within 0…2147483647 seconds (`0` included,
//! surrounding whitespace tolerated); every other form — fractional, signed, exponent, empty,
//! an HTTP-date, out of range — falls back to the backoff. Checked on the parser and on the
//! sleeps a run actually makes (virtual clock).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::resilience::*;
use toolnexus::core::client::call::retry_after_ms;
use toolnexus::core::client::config::Style;
use toolnexus::core::host::{HttpError, HttpResponse};

const HONOURED: [(&str, f64); 9] = [
    ("0", 0.0),
    ("1", 1000.0),
    ("3", 3000.0),
    (" 3 ", 3000.0),
    ("\t5", 5000.0),
    ("007", 7000.0),
    ("120", 120_000.0),
    ("2147483646", 2_147_483_646_000.0),
    ("2147483647", 2_147_483_647_000.0),
];

const IGNORED: [&str; 16] = [
    "1.5",
    "-1",
    "+1",
    "1e3",
    "",
    " ",
    "Wed, 21 Oct 2015 07:28:00 GMT",
    "Fri, 31 Dec 1999 23:59:59 GMT",
    "2147483648",
    "99999999999999999999999",
    "0x10",
    "1 2",
    "１",
    "3s",
    "NaN",
    "Infinity",
];

fn with_retry_after(code: u16, value: &str) -> Result<HttpResponse, HttpError> {
    Ok(HttpResponse {
        status: code,
        retry_after: Some(value.to_owned()),
        body: "slow down".into(),
    })
}

/// The sleeps of a run whose first reply is `code` with `Retry-After: value`, then a success.
fn sleeps_for(style: Style, code: u16, value: &str) -> (Vec<f64>, usize) {
    let clock = VirtualClock::new(0.0, 0.5);
    let mut rig = Rig::new(
        style,
        ScriptedHttp::replies(vec![with_retry_after(code, value), text_reply(style, "ok")]),
    );
    rig.clock = clock.clone();
    let outcome = rig.run("hi");
    if [429, 503].contains(&code) {
        assert_eq!(outcome.unwrap().text, "ok");
    }
    (clock.sleeps(), rig.http.count())
}

#[test]
fn the_parser_accepts_exactly_the_delay_seconds_form() {
    for (raw, ms) in HONOURED {
        assert_eq!(retry_after_ms(raw), Some(ms), "{raw:?}");
    }
    for raw in IGNORED {
        assert_eq!(retry_after_ms(raw), None, "{raw:?}");
    }
}

#[test]
fn an_honoured_retry_after_is_waited_exactly_instead_of_the_backoff() {
    for style in [Style::OpenAi, Style::Anthropic] {
        for code in [429, 503] {
            for (raw, ms) in HONOURED {
                assert_eq!(
                    sleeps_for(style, code, raw),
                    (vec![ms], 2),
                    "{code} Retry-After {raw:?}"
                );
            }
        }
    }
}

#[test]
fn zero_means_retry_now_not_no_opinion() {
    let (sleeps, count) = sleeps_for(Style::OpenAi, 429, "0");
    assert_eq!(
        (sleeps, count),
        (vec![0.0], 2),
        "0 ms, never the 550 ms backoff"
    );
}

#[test]
fn every_other_form_falls_back_to_the_backoff() {
    for code in [429, 503] {
        for raw in IGNORED {
            assert_eq!(
                sleeps_for(Style::OpenAi, code, raw),
                (vec![550.0], 2),
                "{code} Retry-After {raw:?}"
            );
        }
    }
}

#[test]
fn retry_after_applies_to_each_attempt_separately() {
    let clock = VirtualClock::new(0.0, 0.5);
    let replies = vec![
        with_retry_after(429, "2"),
        with_retry_after(429, "soon"),
        text_reply(Style::OpenAi, "ok"),
    ];
    let mut rig = Rig::new(Style::OpenAi, ScriptedHttp::replies(replies));
    rig.clock = clock.clone();
    assert_eq!(rig.run("hi").unwrap().text, "ok");
    assert_eq!(
        clock.sleeps(),
        [2000.0, 1050.0],
        "then the second attempt's backoff"
    );
}

#[test]
fn retry_after_never_makes_a_non_retryable_status_retryable() {
    let (sleeps, count) = sleeps_for(Style::OpenAi, 400, "1");
    assert_eq!((sleeps.len(), count), (0, 1));
}
