//! Multi-round-trip requests (MCP 2026-07-28, SEP-2322) as SPEC §10 suspensions. A
//! `tools/call` that answers `resultType: "input_required"` names what it needs in
//! `inputRequests` (and may hand out an opaque `requestState`); each entry becomes a `Request`
//! (a form → `kind: "input"` with `data.schema`, a URL → `kind: "authorization"` with `url`),
//! answered in the page through `waitFor` or kept through a durable halt. The retry sends the
//! same call again with `inputResponses` and the `requestState` byte for byte.
//!
//! A halted request's `data` names the server, the tool, the entry and the state:
//! `{server, tool, input, requestState?, schema?}`, so a retry after a reload (or in another
//! process) finds its way back. A round of several forms halts as one `input` Request whose
//! `data.inputs` holds each entry's `{prompt, schema?}` by key (`round_request`); its answer's
//! `data` gives each entry's values under the same key.

use crate::core::json::record::Record;
use crate::core::json::value::{Map, Value};

use super::elicit::{to_request, to_result, with_defaults};
use crate::core::types::{Answer, Request};

/// Most rounds one call goes through before it gives up.
pub const MAX_ROUNDS: usize = 8;

const SERVER: &str = "server";
const TOOL: &str = "tool";
const INPUT: &str = "input";
const STATE: &str = "requestState";
const INPUTS: &str = "inputs";

/// What an `input_required` result asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    /// The `inputRequests` entries, in the server's order.
    pub requests: Vec<(String, Value)>,
    /// The opaque `requestState`, when the server sent one.
    pub state: Option<String>,
}

/// The input a call result asks for; `None` for a complete result (a result without
/// `resultType` is complete).
///
/// ```
/// # use toolnexus::core::mcp::mrtr::input_required;
/// let asked = input_required(&toolnexus::json!({"resultType": "input_required",
///     "inputRequests": {"confirm": {"method": "elicitation/create", "params": {}}}, "requestState": "s1"})).unwrap();
/// assert_eq!((asked.requests[0].0.as_str(), asked.state.as_deref()), ("confirm", Some("s1")));
/// assert!(input_required(&toolnexus::json!({"content": []})).is_none());
/// ```
pub fn input_required(result: &Value) -> Option<InputRequired> {
    if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
        return None;
    }
    let requests = match result.get("inputRequests") {
        Some(Value::Object(map)) => map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => Vec::new(),
    };
    let state = result.get(STATE).and_then(Value::as_str).map(str::to_owned);
    Some(InputRequired { requests, state })
}

/// The `Request` for one `inputRequests` entry of `tool` on `server`; an entry this client
/// cannot answer (sampling, roots, an unknown method, a URL request without a URL) is an error
/// the model can read.
///
/// ```
/// # use toolnexus::core::mcp::mrtr::entry_request;
/// let entry = toolnexus::json!({"method": "elicitation/create", "params": {"message": "Name?",
///     "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}}});
/// let r = entry_request("srv", "greet", "who", &entry, Some("opaque"), 0.0).unwrap();
/// assert_eq!((r.kind.as_str(), r.prompt.as_str()), ("input", "Name?"));
/// assert_eq!(r.data.unwrap()["requestState"], "opaque");
/// assert!(entry_request("srv", "greet", "x", &toolnexus::json!({"method": "sampling/createMessage"}), None, 0.0).is_err());
/// ```
pub fn entry_request(
    server: &str,
    tool: &str,
    key: &str,
    entry: &Value,
    state: Option<&str>,
    now_ms: f64,
) -> Result<Request, String> {
    let method = entry.get("method").and_then(Value::as_str).unwrap_or("");
    if method != "elicitation/create" {
        return Err(format!(
            "MCP server \"{server}\" asked for input this client cannot give (\"{key}\": {}); the call was not completed",
            if method.is_empty() { "no method" } else { method }
        ));
    }
    let params = entry.get("params").cloned().unwrap_or(Value::Null);
    let mut request = to_request(&params, now_ms);
    if request.kind == "authorization" && request.url.is_none() {
        return Err(format!(
            "MCP server \"{server}\" asked to open a URL (\"{key}\") but gave none"
        ));
    }
    let mut data = request.data.take().unwrap_or_default();
    data.insert(SERVER.into(), Value::from(server));
    data.insert(TOOL.into(), Value::from(tool));
    data.insert(INPUT.into(), Value::from(key));
    if let Some(state) = state {
        data.insert(STATE.into(), Value::from(state));
    }
    request.data = Some(data);
    Ok(request)
}

/// One `kind: "input"` Request for a round of several forms (`entries`: each key with the
/// Request [`entry_request`] made of it), so that a durable halt carries the whole round and its
/// retry answers every entry at once. Its `data.inputs` holds each entry's `prompt` and
/// `schema`; the answer's `data` is `{<key>: <that entry's values>}`.
///
/// ```
/// # use toolnexus::core::mcp::mrtr::{entry_request, round_request};
/// let form = |m: &str| toolnexus::json!({"method": "elicitation/create", "params": {"message": m,
///     "requestedSchema": {"type": "object", "properties": {"v": {"type": "string"}}}}});
/// let a = entry_request("srv", "t", "a", &form("A?"), Some("s"), 0.0).unwrap();
/// let b = entry_request("srv", "t", "b", &form("B?"), Some("s"), 0.0).unwrap();
/// let round = round_request("srv", "t", &[("a".into(), a), ("b".into(), b)], Some("s"));
/// assert_eq!((round.kind.as_str(), round.prompt.as_str()), ("input", "A?\nB?"));
/// assert_eq!(round.data.unwrap()["inputs"]["b"]["prompt"], "B?");
/// ```
pub fn round_request(
    server: &str,
    tool: &str,
    entries: &[(String, Request)],
    state: Option<&str>,
) -> Request {
    let mut inputs = Map::new();
    for (key, request) in entries {
        let mut one = Map::new();
        one.insert("prompt".into(), Value::from(request.prompt.as_str()));
        if let Some(schema) = request.data.as_ref().and_then(|d| d.get("schema")) {
            one.insert("schema".into(), schema.clone());
        }
        inputs.insert(key.clone(), Value::Object(one));
    }
    let mut data = Map::new();
    data.insert(SERVER.into(), Value::from(server));
    data.insert(TOOL.into(), Value::from(tool));
    data.insert(INPUTS.into(), Value::Object(inputs));
    if let Some(state) = state {
        data.insert(STATE.into(), Value::from(state));
    }
    let prompts: Vec<&str> = entries.iter().map(|(_, r)| r.prompt.as_str()).collect();
    let first = entries.first().map(|(_, r)| r);
    Request {
        id: first.map(|r| r.id.clone()).unwrap_or_default(),
        kind: "input".into(),
        prompt: prompts.join("\n"),
        url: None,
        data: Some(data),
        expires_at: first.and_then(|r| r.expires_at.clone()),
    }
}

/// The `ElicitResult` for what `waitFor` gave back to `request` (the schema's defaults filled
/// in; no `content` for a URL request).
pub fn elicit_result(request: &Request, answer: Result<Value, String>) -> Value {
    let schema = request
        .data
        .as_ref()
        .and_then(|d| d.get("schema"))
        .cloned()
        .unwrap_or(Value::Null);
    let mut result = with_defaults(to_result(answer, &request.id), &schema);
    if request.kind == "authorization" {
        if let Some(map) = result.as_object_mut() {
            map.remove("content");
        }
    }
    result
}

/// The retry's `inputResponses` and `requestState`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Retry {
    /// `inputResponses`, by entry key.
    pub responses: Map,
    /// The `requestState` to echo, exactly as received.
    pub state: Option<String>,
}

impl Retry {
    /// The retry a durable resume makes: `request` was halted for `tool` of `server`, `answer`
    /// approved it. `None` when the request is not one of this tool's.
    ///
    /// ```
    /// # use toolnexus::core::{json::record::Record, mcp::mrtr::{entry_request, Retry}, types::Answer};
    /// let entry = toolnexus::json!({"method": "elicitation/create", "params": {"message": "Ok?"}});
    /// let request = entry_request("srv", "deploy", "confirm", &entry, Some("s"), 0.0).unwrap();
    /// let answer = Answer::from_json(toolnexus::json!({"id": request.id, "ok": true, "data": {"confirm": true}})).unwrap();
    /// let retry = Retry::resumed("srv", "deploy", &request, &answer).unwrap();
    /// assert_eq!(retry.state.as_deref(), Some("s"));
    /// assert_eq!(retry.responses.get("confirm").unwrap()["action"], "accept");
    /// ```
    pub fn resumed(server: &str, tool: &str, request: &Request, answer: &Answer) -> Option<Self> {
        let data = request.data.as_ref()?;
        let text = |key: &str| data.get(key).and_then(Value::as_str);
        if text(SERVER) != Some(server) || text(TOOL) != Some(tool) {
            return None;
        }
        let mut responses = Map::new();
        if let Some(Value::Object(inputs)) = data.get(INPUTS) {
            // A whole round: each entry's values under its key of the answer's data.
            for (key, one) in inputs {
                let entry = Request {
                    data: one.get("schema").map(|schema| {
                        let mut map = Map::new();
                        map.insert("schema".into(), schema.clone());
                        map
                    }),
                    ..request.clone()
                };
                let mut part = answer.clone();
                part.data = answer
                    .data
                    .as_ref()
                    .and_then(|d| d.get(key))
                    .and_then(Value::as_object)
                    .cloned();
                responses.insert(key.clone(), elicit_result(&entry, Ok(part.to_json_value())));
            }
        } else {
            let key = text(INPUT)?;
            responses.insert(
                key.to_owned(),
                elicit_result(request, Ok(answer.to_json_value())),
            );
        }
        Some(Retry {
            responses,
            state: text(STATE).map(str::to_owned),
        })
    }

    /// Adds `inputResponses` (when any) and `requestState` (when one) to a call's params.
    pub fn apply(&self, params: &mut Value) {
        let Some(map) = params.as_object_mut() else {
            return;
        };
        if !self.responses.is_empty() {
            map.insert(
                "inputResponses".into(),
                Value::Object(self.responses.clone()),
            );
        }
        if let Some(state) = &self.state {
            map.insert(STATE.into(), Value::from(state.as_str()));
        }
    }
}
