//! One transcript entry, kept as the JSON text every request body copies, with its value
//! parsed only when something reads it (a hook, a resume, a Rust caller). A provider's reply
//! goes into the transcript as its canonical text ([`json_scan`](super::json::scan)), a prompt or
//! a tool result is written as text directly, and a turn's request body is the texts joined:
//! the common run never builds a `Value` for its transcript.

use crate::core::json::value::Value;
#[cfg(not(target_arch = "wasm32"))]
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::cell::OnceCell;
use std::fmt;
use std::rc::Rc;

use super::json;
use super::json::scan::Reader;

/// A transcript message: its JSON text (exactly `serde_json`'s text of its value) and, once
/// read, its value.
///
/// ```
/// # use toolnexus::core::message::Message;
/// # use toolnexus::json;
/// let m = Message::from_value(json!({"role": "user", "content": "hi"}));
/// assert_eq!(m.text(), r#"{"role":"user","content":"hi"}"#);
/// let same = Message::parse(r#"{ "role": "user", "content": "h\u0069" }"#).unwrap();
/// assert_eq!(same, m);
/// assert_eq!(same["content"], "hi");
/// ```
#[derive(Clone)]
pub struct Message {
    text: Rc<str>,
    value: OnceCell<Value>,
    /// Whether the text may hold content parts, found on the first ask and kept: a request
    /// asks of every message of the transcript, each turn.
    parts: OnceCell<bool>,
    /// Whether the value has a top-level `metadata` field, found on the first ask and kept.
    metadata: OnceCell<bool>,
}

impl Message {
    /// A message holding `value`.
    pub fn from_value(value: Value) -> Message {
        Message {
            text: json::text::to_text(&value).into(),
            value: OnceCell::from(value),
            parts: OnceCell::new(),
            metadata: OnceCell::new(),
        }
    }

    /// A message from any JSON text (read without a `Value` when [`json_scan`] takes it).
    ///
    /// [`json_scan`]: super::json::scan
    pub fn parse(text: &str) -> Result<Message, crate::core::json::parse::ParseError> {
        let mut reader = Reader::new(text);
        let mut out = Vec::with_capacity(text.len());
        if reader.canonical(&mut out).is_some() && reader.finish().is_some() {
            if let Ok(text) = String::from_utf8(out) {
                return Ok(Message::from_canonical(text));
            }
        }
        crate::core::json::parse::from_str(text).map(Message::from_value)
    }

    /// A message from text already in canonical form (what [`json::scan::Reader::canonical`]
    /// or [`json_text`] wrote): it is not checked.
    ///
    /// [`json::scan::Reader::canonical`]: super::json::scan::Reader::canonical
    pub(crate) fn from_canonical(text: String) -> Message {
        Message {
            text: text.into(),
            value: OnceCell::new(),
            parts: OnceCell::new(),
            metadata: OnceCell::new(),
        }
    }

    /// A message from canonical text that cannot hold content parts (its fields are strings,
    /// or a provider wrote it), so no request looks for them in it.
    pub(crate) fn without_parts(text: String) -> Message {
        let message = Message::from_canonical(text);
        let _ = message.parts.set(false);
        message
    }

    /// A message the library writes from known fields: no content parts, no `metadata`.
    fn written(text: String) -> Message {
        let message = Message::without_parts(text);
        let _ = message.metadata.set(false);
        message
    }

    /// An object of string fields, in order, written straight as text (what `json!` of the
    /// same pairs would write).
    ///
    /// ```
    /// # use toolnexus::core::message::Message;
    /// # use toolnexus::json;
    /// let m = Message::strings(&[("role", "user"), ("content", "say \"hi\"")]);
    /// assert_eq!(m, Message::from_value(json!({"role": "user", "content": "say \"hi\""})));
    /// ```
    pub fn strings(fields: &[(&str, &str)]) -> Message {
        let size: usize = fields.iter().map(|(k, v)| k.len() + v.len() + 6).sum();
        let mut out = Vec::with_capacity(size + 2);
        out.push(b'{');
        for (i, (key, value)) in fields.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json::text::write_str(&mut out, key);
            out.push(b':');
            json::text::write_str(&mut out, value);
        }
        out.push(b'}');
        Message::written(String::from_utf8(out).unwrap_or_default())
    }

    /// `{"role": role, "content": content}`, as [`strings`](Self::strings) writes it, with
    /// its keys written as the literal text they are.
    ///
    /// ```
    /// # use toolnexus::core::message::Message;
    /// let m = Message::role_content("user", "say \"hi\"");
    /// assert_eq!(m, Message::strings(&[("role", "user"), ("content", "say \"hi\"")]));
    /// ```
    pub fn role_content(role: &str, content: &str) -> Message {
        let mut out = Vec::with_capacity(role.len() + content.len() + 26);
        out.extend_from_slice(br#"{"role":"#);
        json::text::write_str(&mut out, role);
        out.extend_from_slice(br#","content":"#);
        json::text::write_str(&mut out, content);
        out.push(b'}');
        Message::written(String::from_utf8(out).unwrap_or_default())
    }

    /// An OpenAI tool result, `{"role": "tool", "tool_call_id": id, "content": output}`, as
    /// [`strings`](Self::strings) writes it.
    ///
    /// ```
    /// # use toolnexus::core::message::Message;
    /// let m = Message::tool_result("call_1", "sunny\n");
    /// assert_eq!(m, Message::strings(&[("role", "tool"), ("tool_call_id", "call_1"), ("content", "sunny\n")]));
    /// ```
    pub fn tool_result(id: &str, output: &str) -> Message {
        let mut out = Vec::with_capacity(id.len() + output.len() + 48);
        out.extend_from_slice(br#"{"role":"tool","tool_call_id":"#);
        json::text::write_str(&mut out, id);
        out.extend_from_slice(br#","content":"#);
        json::text::write_str(&mut out, output);
        out.push(b'}');
        Message::written(String::from_utf8(out).unwrap_or_default())
    }

    /// Whether the message may hold content parts (SPEC §1B): its text has a `"mimeType"` or
    /// a `"parts"` key (a part of bytes or a URL has the one, a tool result's parts sit under
    /// the other). Read on the text once, then kept.
    ///
    /// ```
    /// # use toolnexus::core::message::Message;
    /// assert!(!Message::role_content("user", "a \"mimeType\" in words is no key").may_hold_parts());
    /// ```
    pub fn may_hold_parts(&self) -> bool {
        *self.parts.get_or_init(|| {
            // The crate's own search: `str::contains` would pull in the Two-Way searcher.
            let has = |key: &str| crate::core::text::find(&self.text, key).is_some();
            has("\"mimeType\"") || has("\"parts\"")
        })
    }

    /// Whether the message carries a top-level `metadata` field: the host's notes on it (a
    /// compaction summary records what it replaced there), kept in the transcript and in
    /// conversation stores but never sent to a provider. Looked for on the text once, read on
    /// the value only when the text has the key.
    ///
    /// ```
    /// # use toolnexus::core::message::Message;
    /// # use toolnexus::json;
    /// assert!(Message::from_value(json!({"role": "system", "content": "…", "metadata": {"compacted": {"messages": 12}}})).has_metadata());
    /// assert!(!Message::from_value(json!({"role": "user", "content": "metadata"})).has_metadata());
    /// ```
    pub fn has_metadata(&self) -> bool {
        *self.metadata.get_or_init(|| {
            crate::core::text::find(&self.text, "\"metadata\"").is_some()
                && self.value().get("metadata").is_some()
        })
    }

    /// The message as a provider receives it: without its `metadata` field (the message
    /// itself when it has none).
    ///
    /// ```
    /// # use toolnexus::core::message::Message;
    /// # use toolnexus::json;
    /// let noted = Message::from_value(json!({"role": "user", "content": "hi", "metadata": {"pinned": true}}));
    /// assert_eq!(noted.for_provider(), Message::role_content("user", "hi"));
    /// ```
    pub fn for_provider(&self) -> Message {
        if !self.has_metadata() {
            return self.clone();
        }
        let mut fields = self.value().as_object().cloned().unwrap_or_default();
        fields.remove("metadata");
        Message::from_value(Value::Object(fields))
    }

    /// The message's JSON text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The message's value, parsed on first read.
    pub fn value(&self) -> &Value {
        self.value
            .get_or_init(|| crate::core::json::parse::from_str(&self.text).unwrap_or(Value::Null))
    }

    /// The message's value, taken.
    pub fn into_value(self) -> Value {
        match self.value.into_inner() {
            Some(value) => value,
            None => crate::core::json::parse::from_str(&self.text).unwrap_or(Value::Null),
        }
    }

    /// The message's `role`, when it has a string one.
    pub fn role(&self) -> Option<&str> {
        self.value().get("role").and_then(Value::as_str)
    }
}

/// Values of many messages, for a hook or a store that takes them as data.
///
/// ```
/// # use toolnexus::core::message::{values, Message};
/// # use toolnexus::json;
/// assert_eq!(values(&[Message::from_value(json!(1))]), vec![json!(1)]);
/// ```
pub fn values(messages: &[Message]) -> Vec<Value> {
    messages.iter().map(|m| m.value().clone()).collect()
}

/// Messages holding `values`.
///
/// ```
/// # use toolnexus::core::message::{from_values, Message};
/// # use toolnexus::json;
/// assert_eq!(from_values(vec![json!(1)])[0].text(), "1");
/// ```
pub fn from_values(values: Vec<Value>) -> Vec<Message> {
    values.into_iter().map(Message::from_value).collect()
}

/// The messages as a provider receives them ([`Message::for_provider`]), or `None` when none
/// carries `metadata` (the common case: the transcript is sent as it is).
///
/// ```
/// # use toolnexus::core::message::{for_provider, Message};
/// # use toolnexus::json;
/// let plain = [Message::role_content("user", "hi")];
/// assert!(for_provider(&plain).is_none());
/// let noted = [Message::from_value(json!({"role": "user", "content": "hi", "metadata": {}}))];
/// assert_eq!(for_provider(&noted).unwrap(), plain);
/// ```
pub fn for_provider(messages: &[Message]) -> Option<Vec<Message>> {
    if !messages.iter().any(Message::has_metadata) {
        return None;
    }
    Some(messages.iter().map(Message::for_provider).collect())
}

/// Appends the messages' texts to `out`, comma-separated, without brackets.
pub fn write_joined(out: &mut Vec<u8>, messages: &[Message]) {
    for (i, message) in messages.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(message.text.as_bytes());
    }
}

/// The JSON text of the messages as an array.
///
/// ```
/// # use toolnexus::core::message::{items_text, Message};
/// # use toolnexus::json;
/// assert_eq!(items_text(&[Message::from_value(json!(1)), Message::from_value(json!("a"))]), r#"[1,"a"]"#);
/// ```
pub fn items_text(messages: &[Message]) -> String {
    let mut out = Vec::with_capacity(messages.iter().map(|m| m.text.len() + 1).sum::<usize>() + 2);
    out.push(b'[');
    write_joined(&mut out, messages);
    out.push(b']');
    String::from_utf8(out).unwrap_or_default()
}

impl PartialEq for Message {
    fn eq(&self, other: &Message) -> bool {
        self.text == other.text
    }
}

impl PartialEq<Value> for Message {
    fn eq(&self, other: &Value) -> bool {
        self.value() == other
    }
}

impl PartialEq<Message> for Value {
    fn eq(&self, other: &Message) -> bool {
        self == other.value()
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The message's JSON text.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<Value> for Message {
    fn from(value: Value) -> Message {
        Message::from_value(value)
    }
}

impl<I: crate::core::json::value::Index> std::ops::Index<I> for Message {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        &self.value()[index]
    }
}

// Only off wasm32 (tests, native callers): the wasm module writes JSON text by hand
// (`core::json::text`, the `record!` writers) and never links serde's serializer.
#[cfg(not(target_arch = "wasm32"))]
impl Serialize for Message {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(serializer)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl<'de> Deserialize<'de> for Message {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Message, D::Error> {
        Value::deserialize(deserializer).map(Message::from_value)
    }
}

/// A transcript entry as a record field: any JSON value, written as its text.
impl crate::core::json::record::Field for Message {
    fn read(value: Option<Value>, key: &str) -> Result<Self, String> {
        value
            .map(Message::from_value)
            .ok_or_else(|| format!("missing field `{key}`"))
    }
    fn check(_: &Value) -> Result<(), String> {
        Ok(())
    }
    fn write_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.text.as_bytes());
    }
    fn ts(out: &mut String) {
        out.push_str("Message");
    }
}

impl crate::core::json::build::AsJson for Message {
    fn as_json(&self) -> Value {
        self.value().clone()
    }
}
