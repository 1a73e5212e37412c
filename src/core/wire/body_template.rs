//! A request body's JSON text with holes for the transcript and the tool list: everything else
//! in it (model, settings, request parameters) is written once, and each turn's body is the
//! pieces and the holes' texts put together.

use crate::core::json::value::{Map, Value};

use super::ToolList;
use crate::core::json;
use crate::core::message::{self, Message};

/// One piece of a body: text as it is, or a hole.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Messages,
    Tools,
}

/// A body of a dialect's shape ([`Dialect::body`](super::Dialect::body)) as text and holes.
///
/// ```
/// # use toolnexus::core::wire::{BodyTemplate, openai::OpenAi, Dialect, ToolList};
/// # use toolnexus::core::message::Message;
/// # use toolnexus::json;
/// let tools = ToolList::new(json!([{"type": "function"}]));
/// let template = BodyTemplate::new(&OpenAi.body("m", "", tools.has_tools(), false));
/// let messages = [Message::strings(&[("role", "user"), ("content", "hi")])];
/// assert_eq!(
///     template.fill("", &messages, &tools),
///     r#"{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function"}],"tool_choice":"auto"}"#,
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BodyTemplate {
    pieces: Vec<Piece>,
    text_len: usize,
}

impl BodyTemplate {
    /// The template of `body`: its `messages` and `tools` keys holding `null` are the holes.
    pub fn new(body: &Map<String, Value>) -> BodyTemplate {
        let mut pieces = Vec::new();
        let mut text = vec![b'{'];
        for (i, (key, value)) in body.iter().enumerate() {
            if i > 0 {
                text.push(b',');
            }
            json::text::write_str(&mut text, key);
            text.push(b':');
            let hole = match (key.as_str(), value) {
                ("messages", Value::Null) => Piece::Messages,
                ("tools", Value::Null) => Piece::Tools,
                _ => {
                    json::text::write_value(&mut text, value);
                    continue;
                }
            };
            pieces.push(Piece::Text(into_string(std::mem::take(&mut text))));
            pieces.push(hole);
        }
        text.push(b'}');
        pieces.push(Piece::Text(into_string(text)));
        let text_len = pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.len(),
                _ => 0,
            })
            .sum();
        BodyTemplate { pieces, text_len }
    }

    /// The body's text: `prefix` (the items of an array, or empty) and `messages` in the
    /// `messages` hole, the tool list's text in the `tools` hole.
    pub fn fill(&self, prefix: &str, messages: &[Message], tools: &ToolList) -> String {
        let texts: usize = messages.iter().map(|m| m.text().len() + 1).sum();
        let mut out =
            Vec::with_capacity(self.text_len + tools.text().len() + prefix.len() + texts + 2);
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.extend_from_slice(text.as_bytes()),
                Piece::Tools => out.extend_from_slice(tools.text().as_bytes()),
                Piece::Messages => {
                    out.push(b'[');
                    out.extend_from_slice(prefix.as_bytes());
                    if !prefix.is_empty() && !messages.is_empty() {
                        out.push(b',');
                    }
                    message::write_joined(&mut out, messages);
                    out.push(b']');
                }
            }
        }
        into_string(out)
    }
}

/// The buffer as text: it only ever holds whole UTF-8 strings and ASCII.
fn into_string(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_default()
}
