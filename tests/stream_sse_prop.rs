//! The SSE decoder is exact: random event sets (multi-line unicode data, event names, comments,
//! `retry:`/`id:`/unknown fields, LF/CRLF/CR line ends, an optional BOM, a missing final blank
//! line or newline) serialised to bytes decode to the events they describe, however the bytes
//! are cut: whole, one byte at a time, at every single split point, and in random chunks.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use toolnexus::core::wire::sse::{SseDecoder, SseEvent};

#[derive(Debug, Clone)]
enum Line {
    /// `data:` + (a space when `true`) + the value.
    Data(String, bool),
    /// `data` without a colon: an empty data line.
    DataBare,
    Event(String),
    Comment(String),
    Retry(u32),
    Id(String),
    Unknown(String, String),
    /// `U+FEFF` + `data: v`: an unknown field, unless it starts the stream (then the BOM goes).
    BomData(String),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Eol {
    Lf,
    CrLf,
    Cr,
}

#[derive(Debug, Clone, Copy)]
enum Tail {
    Complete,
    NoBlankLine,
    NoNewline,
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[^\r\n]{0,10}",
        "[a-z😀𝄞é中ß\u{10FFFF} :\u{feff}{}\"\\\\]{0,12}",
        Just("[DONE]".to_owned()),
        Just(" leading space".to_owned()),
        Just(String::new()),
    ]
}

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        4 => (value(), any::<bool>()).prop_map(|(v, s)| Line::Data(v, s)),
        1 => Just(Line::DataBare),
        2 => "[a-z_😀]{0,8}".prop_map(Line::Event),
        1 => value().prop_map(Line::Comment),
        1 => any::<u32>().prop_map(Line::Retry),
        1 => value().prop_map(Line::Id),
        1 => ("[a-z]{1,6}".prop_filter("not a known field", |f| f != "data" && f != "event"), value())
            .prop_map(|(f, v)| Line::Unknown(f, v)),
        1 => value().prop_map(Line::BomData),
    ]
}

fn eol() -> impl Strategy<Value = Eol> {
    prop_oneof![Just(Eol::Lf), Just(Eol::CrLf), Just(Eol::Cr)]
}

type Block = Vec<(Line, Eol)>;

fn stream() -> impl Strategy<Value = (bool, Vec<(Block, Eol)>, Tail)> {
    let block = (prop::collection::vec((line(), eol()), 1..5), eol());
    let tail = prop_oneof![
        Just(Tail::Complete),
        Just(Tail::NoBlankLine),
        Just(Tail::NoNewline)
    ];
    (any::<bool>(), prop::collection::vec(block, 0..6), tail)
}

fn text_of(line: &Line) -> String {
    match line {
        Line::Data(v, true) => format!("data: {v}"),
        Line::Data(v, false) => format!("data:{v}"),
        Line::DataBare => "data".into(),
        Line::Event(v) => format!("event: {v}"),
        Line::Comment(v) => format!(":{v}"),
        Line::Retry(n) => format!("retry: {n}"),
        Line::Id(v) => format!("id: {v}"),
        Line::Unknown(f, v) => format!("{f}: {v}"),
        Line::BomData(v) => format!("\u{feff}data: {v}"),
    }
}

fn eol_text(e: Eol) -> &'static str {
    match e {
        Eol::Lf => "\n",
        Eol::CrLf => "\r\n",
        Eol::Cr => "\r",
    }
}

/// The bytes, and the events they describe.
fn serialise(bom: bool, blocks: &[(Block, Eol)], tail: Tail) -> (Vec<u8>, Vec<SseEvent>) {
    let mut out = String::new();
    if bom {
        out.push('\u{feff}');
    }
    let mut expected = Vec::new();
    let mut previous = Eol::Lf;
    let mut first_line = !bom;
    for (i, (lines, blank)) in blocks.iter().enumerate() {
        let last = i + 1 == blocks.len();
        let (mut event, mut data) = (String::new(), None::<String>);
        for (j, (line, e)) in lines.iter().enumerate() {
            out.push_str(&text_of(line));
            let final_line = last && j + 1 == lines.len();
            if !(final_line && matches!(tail, Tail::NoNewline)) {
                out.push_str(eol_text(*e));
            }
            previous = *e;
            let mut add = |v: &str| match &mut data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(v);
                }
                None => data = Some(v.to_owned()),
            };
            match line {
                Line::Data(v, true) => add(v),
                Line::Data(v, false) => add(v.strip_prefix(' ').unwrap_or(v)),
                Line::DataBare => add(""),
                Line::Event(v) => event = v.clone(),
                Line::BomData(v) if first_line => add(v),
                _ => {}
            }
            first_line = false;
        }
        if !last || matches!(tail, Tail::Complete) {
            // A CR then an LF is one line end: a blank line after a CR must not be a lone LF.
            let blank = if previous == Eol::Cr && *blank == Eol::Lf {
                Eol::Cr
            } else {
                *blank
            };
            out.push_str(eol_text(blank));
            previous = blank;
        }
        if let Some(data) = data {
            expected.push(SseEvent { event, data });
        }
    }
    (out.into_bytes(), expected)
}

fn decode(bytes: &[u8], sizes: &[usize]) -> Vec<SseEvent> {
    decode_with(bytes, sizes, false)
}

/// As [`decode`], with an empty chunk fed after each one (a reader may give empty chunks).
fn decode_with_empty_feeds(bytes: &[u8], sizes: &[usize]) -> Vec<SseEvent> {
    decode_with(bytes, sizes, true)
}

fn decode_with(bytes: &[u8], sizes: &[usize], empty_feeds: bool) -> Vec<SseEvent> {
    let mut d = SseDecoder::default();
    let mut events = Vec::new();
    let (mut rest, mut i) = (bytes, 0);
    while !rest.is_empty() {
        let n = sizes[i % sizes.len()].clamp(1, rest.len());
        let (head, tail) = rest.split_at(n);
        events.extend(d.feed(head));
        if empty_feeds {
            events.extend(d.feed(&[]));
        }
        rest = tail;
        i += 1;
    }
    events.extend(d.finish());
    events
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_chunking_yields_the_events_the_bytes_describe(
        (bom, blocks, tail) in stream(),
        sizes in prop::collection::vec(1usize..9, 1..40),
    ) {
        let (bytes, expected) = serialise(bom, &blocks, tail);
        let whole = decode(&bytes, &[usize::MAX]);
        prop_assert_eq!(&whole, &expected, "whole: {:?}", String::from_utf8_lossy(&bytes));
        prop_assert_eq!(&decode(&bytes, &[1]), &expected, "one byte at a time");
        prop_assert_eq!(&decode(&bytes, &sizes), &expected, "chunks {:?}", sizes);
        prop_assert_eq!(&decode_with_empty_feeds(&bytes, &sizes), &expected, "chunks {:?} and empty ones", sizes);
        for cut in 0..=bytes.len() {
            let mut d = SseDecoder::default();
            let mut events = d.feed(&bytes[..cut]);
            events.extend(d.feed(&bytes[cut..]));
            events.extend(d.finish());
            prop_assert_eq!(&events, &expected, "split at byte {}", cut);
        }
    }
}

#[test]
fn a_fixed_input_survives_a_split_inside_each_character_and_each_crlf() {
    // Guards the property above against a generator that never produces such splits.
    let bytes = "data: 😀𝄞é\r\nevent: e\r\n\r\ndata: x".as_bytes();
    let expected = vec![
        SseEvent {
            event: "e".into(),
            data: "😀𝄞é".into(),
        },
        SseEvent {
            event: String::new(),
            data: "x".into(),
        },
    ];
    for cut in 0..=bytes.len() {
        let mut d = SseDecoder::default();
        let mut events = d.feed(&bytes[..cut]);
        events.extend(d.feed(&bytes[cut..]));
        events.extend(d.finish());
        assert_eq!(events, expected, "split at byte {cut}");
    }
}
