//! How the loop relays: every relay call of a turn rides one `kind: "tool_call"` request, and
//! the answer's `data.results` (or the single-call shorthand) fills each call's result.

use crate::core::json::value::{Map, Value};
use crate::core::text::JoinWith;

use crate::core::types::{Answer, Request, ToolResult};
use crate::core::wire::ToolCall;

/// The one request for a turn's relay calls, in call order.
///
/// ```
/// # use toolnexus::core::{client::relay::relay_request, wire::ToolCall};
/// let call = ToolCall { id: "c1".into(), name: "lookup".into(), args: Ok(toolnexus::json!({"q": "x"})) };
/// let r = relay_request(&[&call]);
/// assert_eq!(r.kind, "tool_call");
/// assert_eq!(r.data.unwrap()["calls"][0]["arguments"], r#"{"q":"x"}"#);
/// ```
pub fn relay_request(calls: &[&ToolCall]) -> Request {
    let entries: Vec<Value> = calls
        .iter()
        .map(|c| {
            let input = c.args.clone().unwrap_or_else(|_| Value::Object(Map::new()));
            crate::json_value!({"id": c.id, "name": c.name, "input": input, "arguments": crate::core::json::text::to_text(&input)})
        })
        .collect();
    let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
    let first = calls.first().map_or("none", |c| c.id.as_str());
    let mut data = Map::new();
    data.insert("calls".into(), Value::Array(entries));
    Request {
        id: format!("relay-{first}"),
        kind: "tool_call".into(),
        prompt: format!("Run on the host: {}", names.join_with(", ")),
        url: None,
        data: Some(data),
        expires_at: None,
    }
}

/// The ids of the calls a relay request carries.
pub fn relayed_ids(request: &Request) -> Vec<String> {
    let calls = request
        .data
        .as_ref()
        .and_then(|d| d.get("calls"))
        .and_then(Value::as_array);
    calls
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("id").and_then(Value::as_str).map(str::to_owned))
        .collect()
}

/// Each relayed call's result from a checked answer: `ok: false` gives every call the
/// declined result; a call the host gave nothing for gets an explicit error result.
pub fn relay_results(request: &Request, answer: &Answer) -> Vec<(String, ToolResult)> {
    let ids = relayed_ids(request);
    if !answer.ok {
        let declined = ToolResult::error(format!("declined/expired: {}", request.prompt));
        return ids.into_iter().map(|id| (id, declined.clone())).collect();
    }
    let data = answer.data.clone().unwrap_or_default();
    let listed = data
        .get("results")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    ids.iter()
        .map(|id| {
            let entry = listed
                .iter()
                .find(|r| r.get("id").and_then(Value::as_str) == Some(id.as_str()));
            let entry = entry.or_else(|| {
                (ids.len() == 1 && data.contains_key("output")).then_some(&Value::Null)
            });
            let source = match entry {
                Some(Value::Null) => Some(Value::Object(data.clone())),
                Some(found) => Some(found.clone()),
                None => None,
            };
            let result = match source.as_ref().and_then(|s| s.get("output")) {
                Some(Value::String(output)) => {
                    let is_error = source
                        .as_ref()
                        .and_then(|s| s.get("isError"))
                        .and_then(Value::as_bool)
                        .unwrap_or(false);
                    ToolResult {
                        parts: None,
                        output: output.clone(),
                        is_error,
                        metadata: None,
                    }
                }
                Some(other) => ToolResult::ok(crate::core::json::text::to_text(other)),
                None => {
                    ToolResult::error(format!("the host supplied no result for relay call {id}"))
                }
            };
            (id.clone(), result)
        })
        .collect()
}
