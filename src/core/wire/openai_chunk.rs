//! The fast path of the OpenAI stream assembler: one Chat Completions chunk read with
//! [`json_scan`](crate::core::json::scan), without a `Value`. It takes the chunks
//! providers stream (a text delta, a piece of a tool call, a finish reason) and gives `None`
//! for anything else (usage, an error, odd types, a repeated key it reads, text the reader does
//! not vouch for), which the slow path then reads; `tests/stream_chunk_fast.rs` checks the two
//! agree.
//!
//! ```
//! # use toolnexus::core::wire::openai_chunk::read;
//! let chunk = read(r#"{"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}"#).unwrap();
//! assert_eq!((chunk.content.as_deref(), chunk.finish), (Some("Hi"), false));
//! assert!(read(r#"{"choices":[],"usage":{"total_tokens":3}}"#).is_none());
//! ```

use crate::core::json::scan::{first_time as first, Reader};

/// What one chunk carries.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Chunk {
    /// `choices[0].delta.content`, when a string.
    pub content: Option<String>,
    /// `choices[0].finish_reason` is there and not `null`.
    pub finish: bool,
    /// `choices[0].delta.tool_calls`, in order.
    pub calls: Vec<CallPiece>,
}

/// A piece of a streamed tool call: each field when the chunk has it (as a string, for the
/// texts; a non-negative integer, for `index`).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CallPiece {
    pub index: Option<u64>,
    pub id: Option<String>,
    pub name: Option<String>,
    pub arguments: Option<String>,
}

/// A string, or `None` for `null`; anything else is refused (the outer `None`).
fn string_or_null(r: &mut Reader<'_>) -> Option<Option<String>> {
    if r.null()? {
        return Some(None);
    }
    Some(Some(r.string()?.into_owned()))
}

/// The chunk in `data`, or `None` to leave it to the slow path.
pub fn read(data: &str) -> Option<Chunk> {
    let mut reader = Reader::new(data);
    let mut chunk = Chunk::default();
    let mut seen = 0u8;
    reader.object(|r, key| match key {
        "choices" => {
            first(&mut seen, 1)?;
            r.array(|r, index| {
                if index > 0 {
                    return r.skip();
                }
                read_choice(r, &mut chunk)
            })
        }
        // A usage or an error chunk is rare: the slow path reads it.
        "usage" | "error" => r.null()?.then_some(()),
        _ => r.skip(),
    })?;
    reader.finish()?;
    Some(chunk)
}

fn read_choice(r: &mut Reader<'_>, chunk: &mut Chunk) -> Option<()> {
    let mut seen = 0u8;
    r.object(|r, key| match key {
        "delta" => {
            first(&mut seen, 1)?;
            if r.null()? {
                return Some(());
            }
            read_delta(r, chunk)
        }
        "finish_reason" => {
            first(&mut seen, 2)?;
            if !r.null()? {
                chunk.finish = true;
                r.skip()?;
            }
            Some(())
        }
        _ => r.skip(),
    })
}

fn read_delta(r: &mut Reader<'_>, chunk: &mut Chunk) -> Option<()> {
    let mut seen = 0u8;
    r.object(|r, key| match key {
        "content" => {
            first(&mut seen, 1)?;
            chunk.content = string_or_null(r)?;
            Some(())
        }
        "tool_calls" => {
            first(&mut seen, 2)?;
            if r.null()? {
                return Some(());
            }
            r.array(|r, _| {
                chunk.calls.push(read_call(r)?);
                Some(())
            })
        }
        _ => r.skip(),
    })
}

fn read_call(r: &mut Reader<'_>) -> Option<CallPiece> {
    let mut piece = CallPiece::default();
    let mut seen = 0u8;
    r.object(|r, key| match key {
        "index" => {
            first(&mut seen, 1)?;
            if !r.null()? {
                piece.index = Some(r.u64()?);
            }
            Some(())
        }
        "id" => {
            first(&mut seen, 2)?;
            piece.id = string_or_null(r)?;
            Some(())
        }
        "function" => {
            first(&mut seen, 4)?;
            if r.null()? {
                return Some(());
            }
            let mut inner = 0u8;
            r.object(|r, key| match key {
                "name" => {
                    first(&mut inner, 1)?;
                    piece.name = string_or_null(r)?;
                    Some(())
                }
                "arguments" => {
                    first(&mut inner, 2)?;
                    piece.arguments = string_or_null(r)?;
                    Some(())
                }
                _ => r.skip(),
            })
        }
        _ => r.skip(),
    })?;
    Some(piece)
}
