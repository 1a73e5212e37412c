//! A run's user message: text, or content parts (SPEC §1B) in the caller's order (the order
//! means something to a model). Text stays text, so a run without parts sends exactly the
//! bytes it always has.

use crate::core::json::build::AsJson;
use crate::core::json::value::{Map, Value};
use crate::core::message::Message;
use crate::core::parts::ContentPart;

/// What `run(prompt)` sends as the user's turn.
///
/// ```
/// use toolnexus::core::client::prompt::Prompt;
/// use toolnexus::core::parts::ContentPart;
/// assert_eq!(Prompt::from("hi").message().text(), r#"{"role":"user","content":"hi"}"#);
/// let parts = Prompt::Parts(vec![ContentPart::text("look"), ContentPart::image_data("image/png", "AAAA")]);
/// assert_eq!(
///     parts.message().text(),
///     r#"{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","mimeType":"image/png","data":"AAAA"}]}"#,
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Prompt {
    /// A text message.
    Text(String),
    /// Parts, kept in the transcript as §1B parts and mapped onto the provider's blocks when
    /// a request is written ([`wire::parts`](crate::core::wire::parts)).
    Parts(Vec<ContentPart>),
}

impl Default for Prompt {
    fn default() -> Self {
        Prompt::Text(String::new())
    }
}

impl From<&str> for Prompt {
    fn from(text: &str) -> Self {
        Prompt::Text(text.to_owned())
    }
}

impl From<String> for Prompt {
    fn from(text: String) -> Self {
        Prompt::Text(text)
    }
}

impl Prompt {
    /// The user message of the transcript.
    pub fn message(&self) -> Message {
        match self {
            Prompt::Text(text) => Message::role_content("user", text),
            Prompt::Parts(parts) => {
                let mut map = Map::new();
                map.insert("role".into(), Value::String("user".into()));
                map.insert(
                    "content".into(),
                    Value::Array(parts.iter().map(AsJson::as_json).collect()),
                );
                Message::from_value(Value::Object(map))
            }
        }
    }
}
