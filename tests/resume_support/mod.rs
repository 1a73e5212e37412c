//! Helpers for the durable-resume tests (`mod resume_support;` in each `resume_*.rs`): resume a
//! halted run through the core client, and read a transcript back in either dialect.
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::{core::json::value::Value, json};

use crate::common::agent::Rig;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::result::RunResult;
use toolnexus::core::client::run::{Resume, RunInput};
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::message::Message;
use toolnexus::core::types::Request;

pub const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

/// `{id, ok}` for `request`.
pub fn answer(request: &Request, ok: bool) -> Value {
    json!({"id": request.id, "ok": ok})
}

/// The input of a resume of `history` with `answer` to `pending`.
pub fn resume_input(
    rig: &Rig,
    history: Vec<Message>,
    pending: &Request,
    answer: Value,
) -> RunInput {
    RunInput {
        toolkit: rig.toolkit(),
        prompt: Default::default(),
        history,
        history_text: None,
        history_host: None,
        signal: None,
        events: None,
        resume: Some(Resume {
            pending: pending.clone(),
            answer,
        }),
    }
}

/// `runWithAnswer` in the core: resumes the halted `result` with `answer`.
pub fn resume(rig: &Rig, halted: &RunResult, answer: Value) -> Result<RunResult, RunError> {
    let pending = halted.pending.clone().unwrap();
    let input = resume_input(rig, halted.messages.clone(), &pending, answer);
    block_on(rig.client().run(input))
}

/// `askWithAnswer` in the core: resumes what `store` holds under `id`.
pub fn resume_through(
    rig: &Rig,
    store: &Rc<InMemoryStore>,
    id: &str,
    pending: &Request,
    answer: Value,
) -> Result<RunResult, RunError> {
    let input = resume_input(rig, Vec::new(), pending, answer);
    let store: Rc<dyn Store> = store.clone();
    block_on(rig.client().ask(store, id.to_owned(), input))
}

/// What the store holds under `id`.
pub fn stored(store: &InMemoryStore, id: &str) -> Option<Vec<Message>> {
    block_on(store.get(id)).unwrap()
}

/// The index of the last assistant message that calls tools.
pub fn calls_at(style: Style, messages: &[Message]) -> Option<usize> {
    messages
        .iter()
        .rposition(|m| !call_ids_of(style, m.value()).is_empty())
}

/// The ids of the tool calls of one assistant message.
pub fn call_ids_of(style: Style, message: &Value) -> Vec<String> {
    if message["role"] != "assistant" {
        return Vec::new();
    }
    let ids = |list: &Value, key: &str, filter: Option<&str>| -> Vec<String> {
        list.as_array()
            .into_iter()
            .flatten()
            .filter(|b| filter.is_none_or(|t| b["type"] == t))
            .map(|b| b[key].as_str().unwrap().to_owned())
            .collect()
    };
    match style {
        Style::OpenAi => ids(&message["tool_calls"], "id", None),
        Style::Anthropic => ids(&message["content"], "id", Some("tool_use")),
    }
}

/// One tool result of the transcript: `(call id, content, is_error)`; OpenAI has no error flag.
pub type Fed = (String, String, Option<bool>);

/// Every tool result in `messages`, in transcript order.
pub fn results_of(style: Style, messages: &[Message]) -> Vec<Fed> {
    let mut out = Vec::new();
    for m in messages {
        match style {
            Style::OpenAi if m["role"] == "tool" => out.push((
                m["tool_call_id"].as_str().unwrap().to_owned(),
                m["content"].as_str().unwrap().to_owned(),
                None,
            )),
            Style::Anthropic if m["role"] == "user" => {
                for b in m["content"].as_array().into_iter().flatten() {
                    if b["type"] == "tool_result" {
                        out.push((
                            b["tool_use_id"].as_str().unwrap().to_owned(),
                            b["content"].as_str().unwrap().to_owned(),
                            b["is_error"].as_bool(),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// User turns that are the user speaking (not Anthropic's tool-result carriers).
pub fn user_turns(style: Style, messages: &[Message]) -> usize {
    messages
        .iter()
        .filter(|m| m["role"] == "user")
        .filter(|m| match style {
            Style::OpenAi => true,
            Style::Anthropic => !m["content"]
                .as_array()
                .is_some_and(|b| b.iter().any(|b| b["type"] == "tool_result")),
        })
        .count()
}
