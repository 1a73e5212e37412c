//! The SSE decoder, one rule at a time (WHATWG event-stream grammar as the decoder documents
//! it): line ends, CR/LF split across chunks, comments, fields, the one leading space, data
//! joining, dispatch, the BOM, the end of the stream and invalid UTF-8.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use toolnexus::core::wire::sse::{SseDecoder, SseEvent};

fn ev(event: &str, data: &str) -> SseEvent {
    SseEvent {
        event: event.into(),
        data: data.into(),
    }
}

/// Feeds `chunks` in order, then finishes.
fn decode(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut d = SseDecoder::default();
    let mut out: Vec<SseEvent> = chunks.iter().flat_map(|c| d.feed(c)).collect();
    out.extend(d.finish());
    out
}

fn decode_str(text: &str) -> Vec<SseEvent> {
    decode(&[text.as_bytes()])
}

#[test]
fn lf_crlf_and_cr_line_ends_are_all_line_ends() {
    for eol in ["\n", "\r\n", "\r"] {
        let text = format!("event: a{eol}data: 1{eol}data: 2{eol}{eol}data: 3{eol}{eol}");
        assert_eq!(
            decode_str(&text),
            vec![ev("a", "1\n2"), ev("", "3")],
            "{eol:?}"
        );
    }
}

#[test]
fn mixed_line_ends_in_one_stream() {
    let text = "data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r";
    assert_eq!(decode_str(text), vec![ev("", "a\nb\nc"), ev("", "d")]);
}

#[test]
fn a_cr_ending_one_chunk_and_an_lf_starting_the_next_are_one_line_end() {
    let events = decode(&[b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"]);
    assert_eq!(events, vec![ev("", "a\nb")]);
}

#[test]
fn cr_cr_lf_is_a_line_end_then_a_blank_line() {
    let mut d = SseDecoder::default();
    assert_eq!(d.feed(b"data: x\r\r\n"), vec![ev("", "x")]);
    assert!(d.finish().is_empty());
}

#[test]
fn events_are_returned_by_the_feed_that_completes_them() {
    let mut d = SseDecoder::default();
    assert!(d.feed(b"data: he").is_empty());
    assert!(d.feed(b"llo\n").is_empty(), "no blank line yet");
    assert_eq!(d.feed(b"\ndata: next"), vec![ev("", "hello")]);
    assert_eq!(d.finish(), vec![ev("", "next")]);
}

#[test]
fn comments_are_ignored_wherever_they_are() {
    let text = ": keep-alive\ndata: a\n:\n: data: not data\ndata: b\n\n:last";
    assert_eq!(decode_str(text), vec![ev("", "a\nb")]);
}

#[test]
fn only_one_space_after_the_colon_is_dropped() {
    assert_eq!(decode_str("data:x\n\n"), vec![ev("", "x")]);
    assert_eq!(decode_str("data: x\n\n"), vec![ev("", "x")]);
    assert_eq!(decode_str("data:  x \n\n"), vec![ev("", " x ")]);
    assert_eq!(decode_str("data:\tx\n\n"), vec![ev("", "\tx")]);
}

#[test]
fn a_value_keeps_every_later_colon() {
    assert_eq!(
        decode_str("data: {\"a\":\"b:c\"}\n\n"),
        vec![ev("", "{\"a\":\"b:c\"}")]
    );
}

#[test]
fn a_field_without_a_colon_has_an_empty_value() {
    assert_eq!(decode_str("data\n\n"), vec![ev("", "")]);
    assert_eq!(decode_str("data\ndata\n\n"), vec![ev("", "\n")]);
    assert_eq!(decode_str("event\ndata: x\n\n"), vec![ev("", "x")]);
}

#[test]
fn empty_data_is_still_an_event_but_no_data_is_none() {
    assert_eq!(decode_str("data:\n\n"), vec![ev("", "")]);
    assert!(decode_str("event: ping\n\n").is_empty());
    assert!(decode_str("\n\n\n\n").is_empty());
}

#[test]
fn the_event_name_is_reset_after_each_dispatch_even_without_data() {
    let text = "event: a\n\ndata: 1\n\nevent: b\nevent: c\ndata: 2\n\ndata: 3\n\n";
    assert_eq!(
        decode_str(text),
        vec![ev("", "1"), ev("c", "2"), ev("", "3")]
    );
}

#[test]
fn id_retry_and_unknown_fields_are_ignored() {
    let text = "id: 7\nretry: 3000\nfoo: bar\nDATA: loud\nData: x\ndata: kept\n\n";
    assert_eq!(decode_str(text), vec![ev("", "kept")]);
}

#[test]
fn a_bom_is_dropped_only_at_the_start_of_the_stream() {
    assert_eq!(decode_str("\u{feff}data: a\n\n"), vec![ev("", "a")]);
    // Split inside the BOM itself.
    let bom = "\u{feff}data: a\n\n".as_bytes();
    assert_eq!(
        decode(&[&bom[..1], &bom[1..2], &bom[2..]]),
        vec![ev("", "a")]
    );
    // A second BOM, or one later in the stream, makes an unknown field name.
    assert!(decode_str("\u{feff}\u{feff}data: a\n\n").is_empty());
    assert_eq!(
        decode_str("data: a\n\n\u{feff}data: b\n\n"),
        vec![ev("", "a")]
    );
    // Only the very first line is affected.
    assert_eq!(decode_str("\n\u{feff}data: b\n\n"), Vec::<SseEvent>::new());
}

#[test]
fn a_missing_final_newline_still_reads_the_last_line_and_dispatches() {
    assert_eq!(decode_str("data: [DONE]"), vec![ev("", "[DONE]")]);
    assert_eq!(decode_str("data: a\ndata: b"), vec![ev("", "a\nb")]);
    assert_eq!(decode_str("event: e\ndata: a\n"), vec![ev("e", "a")]);
    assert_eq!(decode_str("data: a\r"), vec![ev("", "a")]);
    assert!(decode_str(": only a comment").is_empty());
    assert!(decode_str("").is_empty());
}

#[test]
fn finish_is_idempotent() {
    let mut d = SseDecoder::default();
    d.feed(b"data: a");
    assert_eq!(d.finish(), vec![ev("", "a")]);
    assert!(d.finish().is_empty());
}

#[test]
fn unicode_split_across_chunks_is_intact() {
    let text = "event: ü\ndata: 😀 and 中\n\n".as_bytes();
    for cut in 0..=text.len() {
        assert_eq!(
            decode(&[&text[..cut], &text[cut..]]),
            vec![ev("ü", "😀 and 中")],
            "cut at {cut}"
        );
    }
    let one_by_one: Vec<&[u8]> = text.chunks(1).collect();
    assert_eq!(decode(&one_by_one), vec![ev("ü", "😀 and 中")]);
}

#[test]
fn invalid_utf8_becomes_replacement_characters_without_losing_the_line() {
    assert_eq!(
        decode(&[b"data: a\xff", b"b\n\n"]),
        vec![ev("", "a\u{fffd}b")]
    );
}

#[test]
fn done_is_plain_data_to_the_decoder() {
    assert_eq!(
        decode_str("data: {\"x\":1}\n\ndata: [DONE]\n\n"),
        vec![ev("", "{\"x\":1}"), ev("", "[DONE]")]
    );
}
