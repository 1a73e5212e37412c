//! `StreamResponse::text`, which reads an error response's body for its message: a whole body
//! comes back as it is, chunks are joined, bytes that are not UTF-8 become U+FFFD, and reading
//! stops once the limit is reached.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use futures_executor::block_on;
use std::collections::VecDeque;
use toolnexus::core::host::{ByteStream, HttpError, HttpResponse, LocalBoxFuture, StreamResponse};

/// A body that arrives in these chunks, then ends.
struct Chunks(VecDeque<Vec<u8>>);

impl ByteStream for Chunks {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>> {
        let next = self.0.pop_front().map(Ok);
        Box::pin(async move { next })
    }
}

fn streamed(chunks: &[&[u8]]) -> StreamResponse {
    StreamResponse {
        status: 500,
        retry_after: None,
        body: Box::new(Chunks(chunks.iter().map(|c| c.to_vec()).collect())),
    }
}

#[test]
fn a_whole_body_comes_back_as_it_is() {
    let body = "{\"error\":{\"message\":\"überlastet — try later\"}}".to_owned();
    let response = StreamResponse::whole(HttpResponse {
        status: 503,
        retry_after: None,
        body: body.clone(),
    });
    assert_eq!(block_on(response.text(usize::MAX)), body);
}

#[test]
fn chunks_are_joined_even_when_a_character_is_split_between_them() {
    let text = "naïve café";
    let bytes = text.as_bytes();
    let split = text.find('ï').unwrap() + 1; // inside the two bytes of 'ï'
    let response = streamed(&[&bytes[..split], &bytes[split..]]);
    assert_eq!(block_on(response.text(usize::MAX)), text);
}

#[test]
fn bytes_that_are_not_utf8_become_replacement_characters() {
    let response = streamed(&[b"bad \xff", b" byte"]);
    assert_eq!(block_on(response.text(usize::MAX)), "bad \u{FFFD} byte");
}

#[test]
fn reading_stops_at_the_first_chunk_that_reaches_the_limit() {
    let response = streamed(&[b"abcd", b"efgh", b"never read"]);
    assert_eq!(block_on(response.text(6)), "abcdefgh");
}

#[test]
fn an_empty_body_is_an_empty_text() {
    assert_eq!(block_on(streamed(&[]).text(usize::MAX)), "");
}
