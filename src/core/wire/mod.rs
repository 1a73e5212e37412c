//! Provider dialects: how a request body is built and a response is read, one file per style.
//! The loop speaks only [`Dialect`]; it never looks inside a provider's JSON itself.

pub mod anthropic;
mod body_template;
pub mod openai;
pub mod openai_chunk;
pub mod openai_read;
#[cfg(feature = "full")]
pub mod parts;
pub mod sse;
pub mod stream;

use std::cell::OnceCell;

use crate::core::json::value::{Map, Value};

use super::message::Message;
use super::spec::ToolSpec;
use super::types::ToolResult;
pub use body_template::BodyTemplate;

crate::record! {
    /// Token usage, summed over a run's model calls.
    ///
    /// ```
    /// # use toolnexus::core::wire::Usage;
    /// let mut u = Usage::default();
    /// u.add(&Usage { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    /// assert_eq!(u.total_tokens, 7);
    /// ```
    #[derive(Copy, Default, Eq)]
    pub struct Usage as "struct Usage" {
        /// Input tokens.
        pub prompt_tokens: u64 = "promptTokens",
        /// Output tokens.
        pub completion_tokens: u64 = "completionTokens",
        /// Their sum (or the provider's own total).
        pub total_tokens: u64 = "totalTokens",
    }
}

impl Usage {
    /// Adds another call's usage to this one.
    pub fn add(&mut self, other: &Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.total_tokens += other.total_tokens;
    }
}

/// One tool call the model asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The provider's call id (generated when the provider gave none).
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments, parsed; `Err` carries why they could not be (not JSON, not an object
    /// is left to the schema check).
    pub args: Result<Value, String>,
}

/// What one model call produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The assistant's text (text blocks joined); empty when it only called tools.
    pub text: String,
    /// Tool calls in the order the model made them.
    pub tool_calls: Vec<ToolCall>,
    /// This call's usage.
    pub usage: Usage,
    /// The assistant message to append to the transcript, in the dialect's own shape.
    pub assistant: Message,
}

/// Why a provider response could not be read. Messages name what was expected; they never
/// include request headers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// The body is not JSON.
    #[error("the response is not JSON: {0}")]
    NotJson(String),
    /// The body is JSON but lacks what the dialect requires.
    #[error("the response has no {0}")]
    Missing(&'static str),
    /// The provider returned an error object in a 200 response (or an error stream event).
    #[error("the provider returned an error: {0}")]
    Provider(String),
    /// A stream ended before its terminal event.
    #[error("the stream ended before {0}")]
    Truncated(&'static str),
}

/// A provider's wire format.
pub trait Dialect {
    /// The full endpoint URL for `base_url` (trailing `/` tolerated).
    fn endpoint(&self, base_url: &str) -> String;
    /// Headers that carry the key and the version, in order.
    fn auth_headers(&self, api_key: Option<&str>) -> Vec<(String, String)>;
    /// A short name of the format (`"openai"`, `"anthropic"`), which keys cached tool lists.
    fn name(&self) -> &'static str;
    /// The JSON text of the tool list in this dialect's schema.
    fn tools(&self, specs: &[&ToolSpec]) -> String;
    /// The transcript a run starts from: `history` (when non-empty) plus the `user` message;
    /// a dialect that keeps the system prompt in its messages adds it when history is empty.
    fn start(&self, system: &str, history: Vec<Message>, user: Message) -> Vec<Message>;
    /// The request body, keys in the reference order; without tools it omits `tools`. The
    /// `messages` and `tools` entries are `null` placeholders: the caller serializes its own
    /// transcript and tool list in their place (see [`body_json`]), so a turn copies neither.
    /// A client reuses the body it made for the same system prompt, tool list and `stream`
    /// ([`RequestCache`](crate::core::client::request_cache::RequestCache)): it must depend on
    /// nothing else.
    fn body(&self, model: &str, system: &str, has_tools: bool, stream: bool) -> Map<String, Value>;
    /// Reads a non-streaming response body.
    fn parse(&self, text: &str) -> Result<Reply, WireError>;
    /// Appends to `transcript` the entries that carry a turn's tool results, in call order.
    fn append_tool_results(&self, results: &[(String, ToolResult)], transcript: &mut Vec<Message>);
    /// The transcript entries that carry a turn's tool results, in call order.
    fn tool_results(&self, results: &[(String, ToolResult)]) -> Vec<Message> {
        let mut entries = Vec::new();
        self.append_tool_results(results, &mut entries);
        entries
    }
    /// A fresh folder for one streamed reply.
    fn assembler(&self) -> Box<dyn stream::Assembler>;
    /// The tool calls of an assistant message in the transcript (`None` when it has none).
    fn calls_of(&self, message: &Value) -> Option<Vec<ToolCall>>;
    /// The tool results recorded in `after` (the transcript entries that follow an assistant
    /// turn), as `(call id, result)` in order.
    fn results_in(&self, after: &[Message]) -> Vec<(String, ToolResult)>;
}

/// A provider tool list, kept as its JSON text (spliced into every request body and handed to
/// `toOpenAI()` & co. without serializing it again) and, for hooks, as data made on first use.
///
/// ```
/// # use toolnexus::core::wire::ToolList;
/// let list = ToolList::new(toolnexus::json!([{"name": "a"}]));
/// assert_eq!(list.text(), r#"[{"name":"a"}]"#);
/// let written = ToolList::from_text(r#"[{"name":"a"}]"#.into());
/// assert_eq!(written.value(), list.value());
/// assert!(written.has_tools() && !ToolList::from_text("[]".into()).has_tools());
/// ```
pub struct ToolList {
    text: String,
    value: OnceCell<Value>,
    has_tools: bool,
}

impl ToolList {
    /// Keeps `value` (a hook's list, of any shape: only a non-empty array is tools) and its
    /// JSON text.
    pub fn new(value: Value) -> Self {
        ToolList {
            text: crate::core::json::text::to_text(&value),
            has_tools: value.as_array().is_some_and(|a| !a.is_empty()),
            value: OnceCell::from(value),
        }
    }

    /// Keeps `text`, a JSON array an adapter wrote
    /// ([`openai_text`](crate::core::adapters::openai_text) & co.).
    pub fn from_text(text: String) -> Self {
        ToolList {
            has_tools: text != "[]",
            text,
            value: OnceCell::new(),
        }
    }

    /// The JSON text of the list.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The list as data, parsed from its text the first time.
    pub fn value(&self) -> &Value {
        self.value
            .get_or_init(|| crate::core::json::parse::from_str(&self.text).unwrap_or(Value::Null))
    }

    /// Whether the list is a non-empty array: a request carries `tools` only then.
    pub fn has_tools(&self) -> bool {
        self.has_tools
    }
}

/// The JSON text of `body` with its `messages` and `tools` placeholders filled; `prefix` is the
/// JSON text of messages that come first (an array's items without the brackets, or empty).
/// [`BodyTemplate`] does the same for many bodies of one shape.
///
/// ```
/// # use toolnexus::core::wire::{body_json, openai::OpenAi, Dialect, ToolList};
/// # use toolnexus::core::message::Message;
/// # use toolnexus::json;
/// let messages = [Message::from_value(json!({"role": "user", "content": "hi"}))];
/// let tools = ToolList::new(json!([]));
/// let body = OpenAi.body("m", "", tools.has_tools(), false);
/// assert_eq!(body_json(&body, "", &messages, &tools), r#"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#);
/// assert_eq!(body_json(&body, "1,2", &messages, &tools), r#"{"model":"m","messages":[1,2,{"role":"user","content":"hi"}]}"#);
/// assert_eq!(body_json(&body, "1,2", &[], &tools), r#"{"model":"m","messages":[1,2]}"#);
/// ```
pub fn body_json(
    body: &Map<String, Value>,
    prefix: &str,
    messages: &[Message],
    tools: &ToolList,
) -> String {
    BodyTemplate::new(body).fill(prefix, messages, tools)
}

/// `body` with its placeholders filled by copies, for a hook that rewrites the whole body.
pub fn body_value(
    mut body: Map<String, Value>,
    prefix: &str,
    messages: &[Message],
    tools: &Value,
) -> Value {
    let mut all: Vec<Value> = if prefix.is_empty() {
        Vec::new()
    } else {
        match crate::core::json::parse::from_str(&format!("[{prefix}]")) {
            Ok(Value::Array(items)) => items,
            _ => Vec::new(),
        }
    };
    all.extend(messages.iter().map(|m| m.value().clone()));
    let mut all = Some(all);
    for (key, value) in body.iter_mut() {
        match (key.as_str(), &*value) {
            ("messages", Value::Null) => *value = Value::Array(all.take().unwrap_or_default()),
            ("tools", Value::Null) => *value = tools.clone(),
            _ => {}
        }
    }
    Value::Object(body)
}
