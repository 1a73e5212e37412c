//! A model running in this process (`createInProcessClient`): a transport that answers every
//! request by calling the host's `generate`, so hooks, shaping and the loop behave exactly as
//! they do over HTTP. Messages are OpenAI-shaped.

use crate::core::value::{Map, Value};
use std::rc::Rc;

use crate::core::host::{Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
use crate::core::spec::json_type;

/// The host's model: gets `{messages, tools, model, body}`, returns `{content}` or
/// `{toolCalls: [{id?, name, arguments}]}` plus optional `usage`.
pub trait Generate {
    /// One model call. `Err` is the thrown value's message; it ends the run.
    fn generate(&self, request: Value) -> LocalBoxFuture<'static, Result<Value, String>>;
}

/// The in-process transport.
pub struct InProcessHttp {
    /// The host's model.
    pub generate: Rc<dyn Generate>,
}

/// The base URL an in-process client reports; it is never dialled.
pub const IN_PROCESS_BASE_URL: &str = "http://in-process.invalid/v1";

impl Http for InProcessHttp {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let generate = self.generate.clone();
        let body = crate::core::json_parse::from_str(request.body.as_deref().unwrap_or(""))
            .map_err(|e| HttpError::Refused(format!("the request body is not JSON: {e}")));
        Box::pin(async move {
            let body = body?;
            if body.get("stream") == Some(&Value::Bool(true)) {
                return Err(HttpError::Refused(
                    "createInProcessClient does not stream: `generate` returns a complete answer; use run() or ask()".into(),
                ));
            }
            let mut model_request = Map::new();
            let messages = body
                .get("messages")
                .cloned()
                .unwrap_or_else(|| crate::json_value!([]));
            model_request.insert("messages".into(), messages);
            if let Some(tools) = body.get("tools") {
                model_request.insert("tools".into(), tools.clone());
            }
            let model = body.get("model").cloned().unwrap_or(Value::Null);
            model_request.insert("model".into(), model);
            model_request.insert("body".into(), body);
            let model_request = Value::Object(model_request);
            let answer = generate
                .generate(model_request)
                .await
                .map_err(HttpError::Refused)?;
            let response = openai_response(&answer).map_err(HttpError::Refused)?;
            Ok(HttpResponse {
                status: 200,
                retry_after: None,
                body: crate::core::json_text::to_text(&response),
            })
        })
    }
}

/// Turns `generate`'s answer into the OpenAI response a server would have sent.
///
/// ```
/// # use toolnexus::core::client::in_process::openai_response;
/// let r = openai_response(&toolnexus::json!({"content": "hi"})).unwrap();
/// assert_eq!(r["choices"][0]["message"]["content"], "hi");
/// ```
pub fn openai_response(answer: &Value) -> Result<Value, String> {
    let Value::Object(answer) = answer else {
        return Err(format!(
            "generate must return {{content}} or {{toolCalls}}, got {}",
            json_type(answer)
        ));
    };
    let mut message = Map::new();
    message.insert("role".into(), crate::json_value!("assistant"));
    let mut finish_reason = "stop";
    let calls = match answer.get("toolCalls") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(calls)) => calls.clone(),
        Some(other) => {
            return Err(format!(
                "generate: toolCalls must be an array, got {}",
                json_type(other)
            ))
        }
    };
    if calls.is_empty() {
        let content = match answer.get("content") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(other) => {
                return Err(format!(
                    "generate: content must be a string, got {}",
                    json_type(other)
                ))
            }
        };
        message.insert("content".into(), Value::String(content));
    } else {
        let wire: Result<Vec<Value>, String> = calls
            .iter()
            .enumerate()
            .map(|(i, c)| wire_call(i, c))
            .collect();
        message.insert("tool_calls".into(), Value::Array(wire?));
        finish_reason = "tool_calls";
    }
    let usage = answer.get("usage");
    let count = |key: &str| {
        usage
            .and_then(|u| u.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(0)
    };
    let (prompt, completion) = (count("promptTokens"), count("completionTokens"));
    let total = usage
        .and_then(|u| u.get("totalTokens"))
        .and_then(Value::as_u64)
        .unwrap_or(prompt + completion);
    Ok(crate::json_value!({
        "choices": [{"index": 0, "message": Value::Object(message), "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": total},
    }))
}

fn wire_call(index: usize, call: &Value) -> Result<Value, String> {
    let Some(name) = call.get("name").and_then(Value::as_str) else {
        return Err(format!("generate: toolCalls[{index}] needs a string name"));
    };
    let id = call
        .get("id")
        .and_then(Value::as_str)
        .map_or_else(|| format!("call_{index}"), str::to_owned);
    let arguments = match call.get("arguments") {
        Some(Value::String(text)) => text.clone(),
        None | Some(Value::Null) => "{}".to_owned(),
        Some(other) => crate::core::json_text::to_text(other),
    };
    Ok(
        crate::json_value!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}),
    )
}
