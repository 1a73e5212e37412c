//! Single-turn translation (SPEC §11): an OpenAI Chat Completions request in, one provider
//! call, OpenAI shapes out. Nothing here runs a tool or keeps state; the call itself is
//! [`Client::translate`](crate::core::client::run::Client::translate). This module is the pure
//! part: reading and checking the request, the bodies, and reading the reply back.

pub mod helpers;

use crate::core::json::value::{Map, Value};

use crate::core::jsfmt::{string_of, stringify};
use crate::core::wire::Usage;
use helpers::{
    content_text, finish_reason_for, has_system_message, openai_tool_choice_to_anthropic,
};

crate::record! {
    /// One tool call the model asked for, in OpenAI shape (SPEC §11).
    pub struct TranslatedToolCall as "struct TranslatedToolCall" {
        /// The call id; the caller's `tool` message answers it as its `tool_call_id`.
        pub id: String = "id",
        /// The function's name.
        pub name: String = "name",
        /// The arguments as JSON text (OpenAI's wire form), to hand on as they are.
        pub arguments: String = "arguments",
    }
}

crate::record! {
    /// What `client.translate` resolves to (SPEC §11): one provider call, in OpenAI shape.
    pub struct TranslateResult as "struct TranslateResult" {
        /// The assistant's text (`""` when it only called tools).
        pub text: String = "text",
        /// Every tool call, in the provider's order; none is dropped.
        pub tool_calls: Vec<TranslatedToolCall> = "toolCalls",
        /// `"tool_calls"` whenever the turn called a tool; an OpenAI-style endpoint's own
        /// `finish_reason` is passed on as it is.
        pub finish_reason: String = "finishReason" as "FinishReason | (string & {})",
        /// This call's token usage.
        pub usage: Usage = "usage",
        /// The configured model.
        pub model: String = "model",
        /// The provider's response as it came, for what this result does not carry.
        pub raw: Option<Value> = "raw" as "OpenAIResponse | AnthropicResponse",
    }
}

/// A translate request's JSON parts (the glue holds the toolkit and the signal).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TranslateRequest {
    /// The OpenAI `messages`, as given (checked by [`TranslateRequest::read`]).
    pub messages: Vec<Value>,
    /// The OpenAI `tools`, as given.
    pub tools: Vec<Value>,
    /// The OpenAI `tool_choice`, as given.
    pub tool_choice: Option<Value>,
    /// Overrides the system prompt.
    pub system: Option<String>,
    /// Overrides the provider's default `max_tokens` when positive.
    pub max_tokens: Option<u64>,
}

/// `translate: ...` as a bad request's message.
fn bad(message: impl std::fmt::Display) -> String {
    format!("translate: {message}")
}

/// `translate: {what}, got {what the value is}`: every refusal of a value's type shares this
/// one formatting site.
fn got(what: &str, value: &Value) -> String {
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(items) if items.is_empty() => "an empty array",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    bad(format_args!("{what}, got {kind}"))
}

impl TranslateRequest {
    /// Reads a request's fields (`null` for an absent one) and checks it: `messages` a
    /// non-empty array of message objects, every tool call's arguments a JSON object (or its
    /// text), every `tool` message answering a call an earlier assistant message made. The
    /// error names what is wrong (the glue's `invalid_request`).
    ///
    /// ```
    /// # use toolnexus::core::translate::TranslateRequest;
    /// use toolnexus::json;
    /// let null = json!(null);
    /// let read = |m| TranslateRequest::read(m, null.clone(), null.clone(), null.clone(), null.clone());
    /// assert!(read(json!([{"role": "user", "content": "hi"}])).is_ok());
    /// assert_eq!(read(json!([])).unwrap_err(), "translate: messages must be a non-empty array of OpenAI messages, got an empty array");
    /// ```
    pub fn read(
        messages: Value,
        tools: Value,
        tool_choice: Value,
        system: Value,
        max_tokens: Value,
    ) -> Result<TranslateRequest, String> {
        let messages = match messages {
            Value::Array(items) if !items.is_empty() => items,
            Value::Null => {
                return Err(bad(
                    "messages is required (a non-empty array of OpenAI messages)",
                ))
            }
            other => {
                return Err(got(
                    "messages must be a non-empty array of OpenAI messages",
                    &other,
                ))
            }
        };
        check_messages(&messages)?;
        let tools = match tools {
            Value::Null => Vec::new(),
            Value::Array(items) => items,
            other => return Err(got("tools must be an array of OpenAI tools", &other)),
        };
        let system = match system {
            Value::Null => None,
            Value::String(s) => Some(s),
            other => return Err(got("system must be a string", &other)),
        };
        let max_tokens = match &max_tokens {
            Value::Null => None,
            Value::Number(n) if n.as_u64().is_some() => n.as_u64().filter(|n| *n > 0),
            other => return Err(got("maxTokens must be a positive integer", other)),
        };
        Ok(TranslateRequest {
            messages,
            tools,
            tool_choice: Some(tool_choice).filter(|c| !c.is_null()),
            system,
            max_tokens,
        })
    }

    /// The OpenAI `messages` to send, taken out of the request (no copy of the transcript): as
    /// given, after a first system message of `system` when it is non-empty and they carry none.
    pub fn take_openai_messages(&mut self, system: &str) -> Vec<Value> {
        let given = Value::Array(std::mem::take(&mut self.messages));
        let lead = (!system.is_empty() && !has_system_message(&given))
            .then(|| crate::json_value!({"role": "system", "content": system}));
        match given {
            Value::Array(items) => lead.into_iter().chain(items).collect(),
            _ => lead.into_iter().collect(),
        }
    }

    /// The OpenAI body: `{model, messages, tools?, tool_choice?, max_tokens?}`, `messages`
    /// and `tools` the placeholders the call fills.
    pub fn openai_body(&self, model: &str, has_tools: bool) -> Map {
        let mut body = Map::new();
        body.insert("model".into(), Value::String(model.into()));
        body.insert("messages".into(), Value::Null);
        if has_tools {
            body.insert("tools".into(), Value::Null);
        }
        if let Some(choice) = &self.tool_choice {
            body.insert("tool_choice".into(), choice.clone());
        }
        if let Some(n) = self.max_tokens {
            body.insert("max_tokens".into(), crate::json_value!(n));
        }
        body
    }

    /// The Anthropic body: `{model, max_tokens, messages, system?, tools?, tool_choice?}`
    /// (`max_tokens` 4096 unless given; `system` only when non-empty; `tool_choice` mapped,
    /// left out for `"auto"`), `messages` and `tools` the placeholders the call fills.
    pub fn anthropic_body(&self, model: &str, system: &str, has_tools: bool) -> Map {
        let mut body = Map::new();
        body.insert("model".into(), Value::String(model.into()));
        body.insert(
            "max_tokens".into(),
            crate::json_value!(self.max_tokens.unwrap_or(4096)),
        );
        body.insert("messages".into(), Value::Null);
        if !system.is_empty() {
            body.insert("system".into(), Value::String(system.into()));
        }
        if has_tools {
            body.insert("tools".into(), Value::Null);
        }
        let choice = self.tool_choice.as_ref().unwrap_or(&Value::Null);
        if let Some(choice) = openai_tool_choice_to_anthropic(choice) {
            body.insert("tool_choice".into(), choice);
        }
        body
    }
}

/// Checks every message (see [`TranslateRequest::read`]).
fn check_messages(messages: &[Value]) -> Result<(), String> {
    let mut calls: Vec<String> = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        if !message.is_object() {
            return Err(got(
                &format!("messages[{i}] must be a message object"),
                message,
            ));
        }
        let role = message.get("role").and_then(Value::as_str);
        let content = message.get("content").and_then(Value::as_array);
        for (j, block) in content.map_or(&[][..], Vec::as_slice).iter().enumerate() {
            if let Some(Err(why)) = helpers::openai_media_part(block) {
                return Err(bad(format!("messages[{i}].content[{j}]: {why}")));
            }
        }
        if let Some(list) = message.get("tool_calls").and_then(Value::as_array) {
            for (j, call) in list.iter().enumerate() {
                let at = || format!("messages[{i}].tool_calls[{j}]");
                let Some(function) = call.get("function").filter(|f| f.is_object()) else {
                    return Err(bad(format!("{} has no function {{name, arguments}}", at())));
                };
                check_arguments(function.get("arguments"), &at)?;
                match call.get("id") {
                    None | Some(Value::Null) => {}
                    Some(id) => calls.push(string_of(id)),
                }
            }
        }
        if role == Some("tool") {
            let id = match message.get("tool_call_id") {
                None | Some(Value::Null) => None,
                Some(id) => Some(string_of(id)).filter(|id| !id.is_empty()),
            };
            let Some(id) = id else {
                return Err(bad(format!(
                    "messages[{i}] (role \"tool\") has no tool_call_id"
                )));
            };
            if !calls.contains(&id) {
                return Err(bad(format!(
                    "messages[{i}] (role \"tool\") answers tool call {}, which no earlier assistant message made",
                    stringify(&Value::String(id))
                )));
            }
        }
    }
    Ok(())
}

/// A call's `arguments`: absent, an object, or the JSON text of an object (blank text reads as
/// `{}`).
fn check_arguments(arguments: Option<&Value>, at: &dyn Fn() -> String) -> Result<(), String> {
    let text = match arguments {
        None | Some(Value::Null) | Some(Value::Object(_)) => return Ok(()),
        Some(Value::String(text)) if crate::core::jsfmt::trim(text).is_empty() => return Ok(()),
        Some(Value::String(text)) => text,
        Some(other) => {
            let what = format!(
                "{}.function.arguments must be a JSON object or its text",
                at()
            );
            return Err(got(&what, other));
        }
    };
    match crate::core::json::parse::from_str(text) {
        Ok(Value::Object(_)) => Ok(()),
        Ok(other) => Err(got(
            &format!("{}.function.arguments must be a JSON object", at()),
            &other,
        )),
        Err(why) => Err(bad(format_args!(
            "{}.function.arguments is not JSON: {why}",
            at()
        ))),
    }
}

/// The string at `key` of `value`, `String(...)` of anything else there, `""` when absent or
/// `null`.
fn string_at(value: Option<&Value>, key: &str) -> String {
    match value.and_then(|v| v.get(key)) {
        None | Some(Value::Null) => String::new(),
        Some(other) => string_of(other),
    }
}

/// An Anthropic response in OpenAI shape: its text blocks joined, its `tool_use` blocks as
/// calls (the input written as JSON text), the finish reason mapped from `stop_reason`.
///
/// ```
/// # use toolnexus::core::translate::anthropic_result;
/// # use toolnexus::core::wire::Usage;
/// use toolnexus::json;
/// let raw = json!({"content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"n": 1}}], "stop_reason": "tool_use"});
/// let r = anthropic_result(raw, Usage::default(), "m");
/// assert_eq!((r.finish_reason.as_str(), r.tool_calls[0].arguments.as_str()), ("tool_calls", r#"{"n":1}"#));
/// ```
pub fn anthropic_result(raw: Value, usage: Usage, model: &str) -> TranslateResult {
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    let none = Vec::new();
    for block in raw
        .get("content")
        .and_then(Value::as_array)
        .unwrap_or(&none)
    {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => text.push_str(&string_at(Some(block), "text")),
            Some("tool_use") => {
                let input = match block.get("input") {
                    None | Some(Value::Null) => "{}".to_owned(),
                    Some(input) => stringify(input),
                };
                tool_calls.push(TranslatedToolCall {
                    id: string_at(Some(block), "id"),
                    name: string_at(Some(block), "name"),
                    arguments: input,
                });
            }
            _ => {}
        }
    }
    let stop = raw.get("stop_reason").and_then(Value::as_str);
    TranslateResult {
        text,
        finish_reason: finish_reason_for(!tool_calls.is_empty(), stop).to_owned(),
        tool_calls,
        usage,
        model: model.to_owned(),
        raw: Some(raw),
    }
}

/// An OpenAI response as it is: `choices[0]`'s text and tool calls (arguments as JSON text,
/// byte for byte when they were text), its `finish_reason` (else mapped from the calls).
///
/// ```
/// # use toolnexus::core::translate::openai_result;
/// # use toolnexus::core::wire::Usage;
/// use toolnexus::json;
/// let raw = json!({"choices": [{"message": {"content": "hi"}, "finish_reason": "length"}]});
/// let r = openai_result(raw, Usage::default(), "m");
/// assert_eq!((r.text.as_str(), r.finish_reason.as_str()), ("hi", "length"));
/// ```
pub fn openai_result(raw: Value, usage: Usage, model: &str) -> TranslateResult {
    let choice = raw
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first());
    let message = choice.and_then(|c| c.get("message"));
    let none = Vec::new();
    let mut tool_calls = Vec::new();
    let listed = message.and_then(|m| m.get("tool_calls"));
    for call in listed.and_then(Value::as_array).unwrap_or(&none) {
        let function = call.get("function");
        let arguments = function.and_then(|f| f.get("arguments"));
        tool_calls.push(TranslatedToolCall {
            id: string_at(Some(call), "id"),
            name: string_at(function, "name"),
            arguments: helpers::args_string(arguments.unwrap_or(&Value::Null)),
        });
    }
    let text = content_text(
        message
            .and_then(|m| m.get("content"))
            .unwrap_or(&Value::Null),
    );
    let finish_reason = match choice.and_then(|c| c.get("finish_reason")) {
        Some(Value::String(reason)) => reason.clone(),
        _ => finish_reason_for(!tool_calls.is_empty(), None).to_owned(),
    };
    TranslateResult {
        text,
        tool_calls,
        finish_reason,
        usage,
        model: model.to_owned(),
        raw: Some(raw),
    }
}
