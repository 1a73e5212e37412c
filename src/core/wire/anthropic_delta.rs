//! The fast path of the Anthropic stream assembler: a `content_block_delta` event (most of a
//! stream) read with [`json_scan`](crate::core::json::scan), without a `Value`. It
//! takes a `text_delta` or an `input_json_delta` and gives `None` for every other event and
//! shape (odd types, a repeated key it reads, text the reader does not vouch for), which the
//! slow path then reads; `tests/stream_chunk_fast.rs` checks the two agree.
//!
//! ```
//! # use toolnexus::core::wire::anthropic_delta::{read, Piece};
//! let d = read(r#"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}}"#).unwrap();
//! assert_eq!((d.index, d.piece), (1, Piece::Text("Hi".into())));
//! assert!(read(r#"{"type":"message_stop"}"#).is_none());
//! ```

use crate::core::json::scan::{first_time as first, Reader};

/// A content block's delta.
#[derive(Debug, PartialEq, Eq)]
pub struct Delta {
    /// The block's `index` (0 when absent or `null`).
    pub index: u64,
    /// What the delta adds.
    pub piece: Piece,
}

/// What a delta adds to its block.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    /// `text_delta`: text.
    Text(String),
    /// `input_json_delta`: a piece of a tool call's input JSON.
    Json(String),
}

/// The delta in `data`, or `None` to leave the event to the slow path.
pub fn read(data: &str) -> Option<Delta> {
    let mut reader = Reader::new(data);
    let (mut kind, mut index, mut piece) = (None, None, None);
    let mut seen = 0u8;
    reader.object(|r, key| match key {
        "type" => {
            first(&mut seen, 1)?;
            kind = Some(r.string()?);
            Some(())
        }
        "index" => {
            first(&mut seen, 2)?;
            index = Some(if r.null()? { 0 } else { r.u64()? });
            Some(())
        }
        "delta" => {
            first(&mut seen, 4)?;
            piece = Some(read_piece(r)?);
            Some(())
        }
        _ => r.skip(),
    })?;
    reader.finish()?;
    if kind.as_deref() != Some("content_block_delta") {
        return None;
    }
    Some(Delta {
        index: index.unwrap_or(0),
        piece: piece?,
    })
}

/// `{type: "text_delta", text}` or `{type: "input_json_delta", partial_json}`.
fn read_piece(r: &mut Reader<'_>) -> Option<Piece> {
    let (mut kind, mut text, mut json) = (None, None, None);
    let mut seen = 0u8;
    r.object(|r, key| match key {
        "type" => {
            first(&mut seen, 1)?;
            kind = Some(r.string()?);
            Some(())
        }
        "text" => {
            first(&mut seen, 2)?;
            text = Some(r.string()?.into_owned());
            Some(())
        }
        "partial_json" => {
            first(&mut seen, 4)?;
            json = Some(r.string()?.into_owned());
            Some(())
        }
        _ => r.skip(),
    })?;
    match kind?.as_ref() {
        "text_delta" => text.map(Piece::Text),
        "input_json_delta" => json.map(Piece::Json),
        _ => None,
    }
}
