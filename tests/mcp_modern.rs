//! MCP 2026-07-28 pieces without a server: how a `server/discover` answer decides the era,
//! the `x-mcp-header` rules (every invalid shape the spec lists is rejected, a valid sibling
//! kept), the header value encoding, and what an `input_required` result and its retry hold.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use toolnexus::core::mcp::jsonrpc::RpcError;
use toolnexus::core::mcp::modern::{era_of, Era};
use toolnexus::core::mcp::mrtr::{entry_request, input_required, round_request, Retry};
use toolnexus::core::mcp::param_headers::{call_headers, encoded, param_headers};
use toolnexus::core::mcp::transport::McpError;
use toolnexus::core::types::Answer;
use toolnexus::json;

fn status(status: u16, body: &str) -> McpError {
    McpError::Status {
        status,
        body: body.into(),
    }
}

#[test]
fn the_discover_answer_decides_the_era() {
    let modern = era_of(Ok(
        json!({"supportedVersions": ["2026-07-28", "2025-11-25"], "capabilities": {"tools": {}}}),
    ));
    assert_eq!(modern, Era::Modern(json!({"tools": {}})));
    // A legacy server answering an unknown method with an empty result.
    assert_eq!(era_of(Ok(json!({}))), Era::Legacy);
    let retry = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":""}}}"#;
    assert_eq!(era_of(Err(status(400, retry))), Era::Retry);
    let older = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"no","data":{"supported":["2025-06-18"]}}}"#;
    assert_eq!(era_of(Err(status(400, older))), Era::Legacy);
    let alien = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"no","data":{"supported":["2030-01-01"]}}}"#;
    match era_of(Err(status(400, alien))) {
        Era::Failed(McpError::Protocol(why)) => assert!(why.contains("2030-01-01"), "{why}"),
        other => panic!("{other:?}"),
    }
    let mismatch =
        r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32020,"message":"Header mismatch"}}"#;
    assert!(matches!(era_of(Err(status(400, mismatch))), Era::Failed(_)));
    // What a legacy server says to a request outside a session, or to an unknown method.
    assert_eq!(
        era_of(Err(status(
            400,
            "Bad Request: No valid session ID provided"
        ))),
        Era::Legacy
    );
    assert_eq!(era_of(Err(status(405, ""))), Era::Legacy);
    let unknown = McpError::Rpc(RpcError {
        code: -32601,
        message: "Method not found".into(),
    });
    assert_eq!(era_of(Err(unknown)), Era::Legacy);
    assert_eq!(
        era_of(Err(McpError::Transport("Failed to fetch".into()))),
        Era::Legacy
    );
    // Errors no fallback fixes.
    assert!(matches!(
        era_of(Err(status(401, "unauthorized"))),
        Era::Failed(_)
    ));
    assert!(matches!(era_of(Err(status(503, "down"))), Era::Failed(_)));
    let timeout = McpError::Timeout {
        phase: "server/discover".into(),
        ms: 5.0,
    };
    assert!(matches!(era_of(Err(timeout)), Era::Failed(_)));
}

#[test]
fn every_invalid_x_mcp_header_is_rejected_and_a_valid_one_kept() {
    let with = |property: toolnexus::core::json::value::Value| json!({"type": "object", "properties": {"p": property}});
    let bad = [
        with(json!({"type": "string", "x-mcp-header": ""})),
        with(json!({"type": "object", "x-mcp-header": "Data"})),
        with(json!({"type": "array", "items": {"type": "string"}, "x-mcp-header": "Items"})),
        with(json!({"type": "null", "x-mcp-header": "Nil"})),
        with(json!({"type": "number", "x-mcp-header": "Score"})),
        with(json!({"type": "string", "x-mcp-header": "My Region"})),
        with(json!({"type": "string", "x-mcp-header": "Region:Primary"})),
        with(json!({"type": "string", "x-mcp-header": "Région"})),
        with(json!({"type": "string", "x-mcp-header": "Region\t1"})),
        json!({"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "Region"}, "b": {"type": "string", "x-mcp-header": "region"}}}),
        // Not reached through `properties` alone.
        json!({"type": "object", "properties": {"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}}),
        json!({"type": "object", "anyOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
    ];
    for schema in &bad {
        assert!(param_headers(schema).is_err(), "{schema}");
    }
    let nested = json!({"type": "object", "properties": {"where": {"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"}, "zone": {"type": "integer", "x-mcp-header": "Zone"}}}}});
    let found = param_headers(&nested).unwrap();
    assert_eq!(found[0].path, ["where", "region"]);
    let headers = call_headers(&found, &json!({"where": {"region": "eu west", "zone": -7}}));
    assert_eq!(
        headers,
        [
            ("mcp-param-region".to_owned(), "eu west".to_owned()),
            ("mcp-param-zone".to_owned(), "-7".to_owned())
        ]
    );
    assert!(call_headers(&found, &json!({"where": null})).is_empty());
}

#[test]
fn header_values_are_plain_or_base64_sentinel() {
    assert_eq!(encoded("us-west1"), "us-west1");
    assert_eq!(encoded("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
    assert_eq!(encoded("\tindented"), "=?base64?CWluZGVudGVk?=");
    assert_eq!(
        encoded("=?base64?literal?="),
        "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="
    );
    assert_eq!(encoded(""), "");
}

#[test]
fn an_input_required_result_and_its_retry() {
    assert!(input_required(&json!({"resultType": "complete", "content": []})).is_none());
    let state_only =
        input_required(&json!({"resultType": "input_required", "requestState": "only"})).unwrap();
    assert!(state_only.requests.is_empty());
    let mut params = json!({"name": "t", "arguments": {}});
    Retry {
        state: state_only.state.clone(),
        ..Retry::default()
    }
    .apply(&mut params);
    assert_eq!(
        params,
        json!({"name": "t", "arguments": {}, "requestState": "only"})
    );
    let mut untouched = json!({"name": "t"});
    Retry::default().apply(&mut untouched);
    assert_eq!(
        untouched,
        json!({"name": "t"}),
        "no requestState when the server sent none"
    );

    let url = json!({"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in", "url": "https://x/login"}});
    let request = entry_request("srv", "t", "login", &url, None, 0.0).unwrap();
    assert_eq!(
        (request.kind.as_str(), request.url.as_deref()),
        ("authorization", Some("https://x/login"))
    );
    assert!(request.data.as_ref().unwrap().get("requestState").is_none());
    let no_url =
        json!({"method": "elicitation/create", "params": {"mode": "url", "message": "Sign in"}});
    assert!(entry_request("srv", "t", "login", &no_url, None, 0.0)
        .unwrap_err()
        .contains("gave none"));
    let roots = json!({"method": "roots/list"});
    let why = entry_request("srv", "t", "r", &roots, None, 0.0).unwrap_err();
    assert!(why.contains("\"r\": roots/list"), "{why}");
}

#[test]
fn a_round_of_forms_halts_as_one_request_and_its_answer_fills_every_entry() {
    let form = |message: &str| {
        json!({"method": "elicitation/create", "params": {"message": message,
            "requestedSchema": {"type": "object", "properties": {
                "value": {"type": "string"}, "note": {"type": "string", "default": "none"}}}}})
    };
    let entries: Vec<(String, _)> = [("color", "Which color?"), ("size", "Which size?")]
        .into_iter()
        .map(|(key, message)| {
            let request = entry_request("srv", "pick", key, &form(message), Some("st"), 0.0);
            (key.to_owned(), request.unwrap())
        })
        .collect();
    let round = round_request("srv", "pick", &entries, Some("st"));
    assert_eq!(round.kind, "input");
    let data = round.data.clone().unwrap();
    assert_eq!(data["requestState"], "st");
    assert_eq!(data["inputs"]["color"]["prompt"], "Which color?");
    let answer = Answer::from_json(json!({"id": round.id, "ok": true,
        "data": {"color": {"value": "red"}, "size": {"value": "large", "note": "tight"}}}))
    .unwrap();
    let retry = Retry::resumed("srv", "pick", &round, &answer).unwrap();
    assert_eq!(retry.state.as_deref(), Some("st"));
    assert_eq!(
        toolnexus::core::json::value::Value::Object(retry.responses.clone()),
        json!({
            "color": {"action": "accept", "content": {"value": "red", "note": "none"}},
            "size": {"action": "accept", "content": {"value": "large", "note": "tight"}}
        }),
        "each entry's values, its schema's defaults filled in"
    );
    // Declined: every entry declined.
    let no = Answer::from_json(json!({"id": round.id, "ok": false, "reason": "declined"})).unwrap();
    let declined = Retry::resumed("srv", "pick", &round, &no).unwrap();
    assert_eq!(declined.responses.len(), 2);
    assert_eq!(declined.responses["size"]["action"], "decline");
    // Another tool's round is not this one's.
    assert!(Retry::resumed("srv", "other", &round, &answer).is_none());
}
