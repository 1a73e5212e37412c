//! The MCP server profile (SPEC §7C): JSON-RPC dispatch over a set of tools, and its
//! streamable-HTTP face (`POST /mcp`, stateless). The reference's "mcp inbound" behaviours,
//! natively; `tests/js/mcp-serve.test.mjs` runs the official MCP client against the package.
#![allow(clippy::indexing_slicing, clippy::unwrap_used)]

use crate::common;

use common::agent::FixedClock;
use common::*;
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::host::Signal;
use toolnexus::core::serve::http::{route, Inbound, Outbound};
use toolnexus::core::serve::mcp::{
    call_result, exposed, McpServeConfig, McpServer, PROTOCOL_VERSIONS, PROTOCOL_VERSIONS_TEXT,
};
use toolnexus::core::tool::SharedTool;
use toolnexus::core::toolkit::{Sources, Toolkit};
use toolnexus::core::types::{pending, Request, ToolResult};
use toolnexus::{core::json::value::Value, json};

fn echo_tool() -> SharedTool {
    let schema = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"], "additionalProperties": false});
    tool_with("echo", "native", schema, Behaviour::Echo)
}

fn boom_tool() -> SharedTool {
    tool_with(
        "boom",
        "native",
        json!({"type": "object"}),
        Behaviour::Returns(ToolResult::error("kaboom")),
    )
}

fn server(tools: Vec<SharedTool>) -> McpServer {
    McpServer::new(tools, &McpServeConfig::default(), None)
}

/// Sends one message; the parsed reply (`null` when there is none) and the call event.
fn send(
    server: &McpServer,
    message: Value,
) -> (Value, Option<toolnexus::core::serve::mcp::OnCallEvent>) {
    send_with(server, message, None)
}

fn send_with(
    server: &McpServer,
    message: Value,
    signal: Option<Signal>,
) -> (Value, Option<toolnexus::core::serve::mcp::OnCallEvent>) {
    let handled = block_on(server.handle(message, signal, None));
    let reply = handled
        .reply
        .map_or(Value::Null, |t| serde_json::from_str(&t).unwrap());
    (reply, handled.call)
}

fn call(name: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": name, "arguments": args}})
}

#[test]
fn exposed_filters_by_name_and_ignores_unknown_names() {
    let tools = vec![echo_tool(), boom_tool()];
    let all = exposed(tools.clone(), &McpServeConfig::default());
    assert_eq!(names(&all), ["echo", "boom"]);
    let config = McpServeConfig {
        tools: Some(vec!["echo".into(), "nope".into()]),
        ..Default::default()
    };
    assert_eq!(names(&exposed(tools, &config)), ["echo"]);
}

#[test]
fn initialize_reports_the_profile_and_negotiates_the_version() {
    let config = McpServeConfig {
        name: Some("gateway".into()),
        version: Some("2.0.0".into()),
        tools: None,
    };
    let gateway = McpServer::new(vec![], &config, None);
    let init = |version: &str| {
        let params = json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
        send(
            &gateway,
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}),
        )
        .0
    };
    let reply = init("2025-06-18");
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "gateway", "version": "2.0.0"}}})
    );
    assert_eq!(
        init("1999-01-01")["result"]["protocolVersion"],
        "2025-11-25"
    );
    let defaults = send(
        &server(vec![]),
        json!({"jsonrpc": "2.0", "id": "a", "method": "initialize", "params": {}}),
    )
    .0;
    assert_eq!(defaults["id"], "a");
    assert_eq!(
        defaults["result"]["serverInfo"],
        json!({"name": "toolnexus", "version": "0.1.0"})
    );
}

#[test]
fn tools_list_advertises_each_tool_verbatim() {
    let (reply, call) = send(
        &server(vec![echo_tool(), boom_tool()]),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
    );
    assert!(call.is_none());
    assert_eq!(
        reply["result"]["tools"],
        json!([
            {"name": "echo", "description": "echo tool", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"], "additionalProperties": false}},
            {"name": "boom", "description": "boom tool", "inputSchema": {"type": "object"}},
        ])
    );
}

#[test]
fn tools_call_runs_the_tool_and_reports_the_call() {
    let clock = Rc::new(FixedClock(1000.0));
    let server = McpServer::new(vec![echo_tool()], &McpServeConfig::default(), Some(clock));
    let (reply, event) = send(&server, call("echo", json!({"text": "hi"})));
    assert_eq!(
        reply,
        json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": r#"{"text":"hi"}"#}], "isError": false}})
    );
    let event = event.unwrap();
    assert_eq!(
        (
            event.name.as_str(),
            event.source.as_str(),
            event.ms,
            event.is_error
        ),
        ("echo", "native", 0.0, false)
    );
}

#[test]
fn a_failing_tool_is_an_error_result_and_the_server_keeps_serving() {
    let server = server(vec![echo_tool(), boom_tool()]);
    let (bad, event) = send(&server, call("boom", json!({})));
    assert_eq!(
        bad["result"],
        json!({"content": [{"type": "text", "text": "kaboom"}], "isError": true})
    );
    assert!(event.unwrap().is_error);
    let (ok, _) = send(&server, call("echo", json!({"text": "still up"})));
    assert_eq!(ok["result"]["isError"], false);
}

#[test]
fn arguments_that_miss_the_schema_never_reach_the_tool() {
    let echo = tool_with(
        "echo",
        "native",
        json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
        Behaviour::Echo,
    );
    let server = server(vec![echo.clone()]);
    let (reply, event) = send(&server, call("echo", json!({"text": 5})));
    assert_eq!(reply["result"]["isError"], true);
    assert!(reply["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("text: expected string"));
    assert!(event.unwrap().is_error);
    assert_eq!(echo.calls.get(), 0);
}

#[test]
fn absent_arguments_count_as_an_empty_object() {
    let open = tool_with("open", "native", json!({"type": "object"}), Behaviour::Echo);
    let message =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "open"}});
    let (reply, _) = send(&server(vec![open]), message);
    assert_eq!(reply["result"]["content"][0]["text"], "{}");
}

#[test]
fn a_suspension_is_an_error_result_carrying_its_prompt() {
    let request = Request {
        id: "r1".into(),
        kind: "approval".into(),
        prompt: "Send 25?".into(),
        url: Some("https://x.test/ok".into()),
        data: None,
        expires_at: None,
    };
    let asking = tool_with(
        "pay",
        "native",
        json!({"type": "object"}),
        Behaviour::Returns(pending(request)),
    );
    let (reply, event) = send(&server(vec![asking]), call("pay", json!({})));
    assert_eq!(
        reply["result"],
        json!({"content": [{"type": "text", "text": "The tool suspended (approval): Send 25?\nhttps://x.test/ok\n\
            It needs an answer, and this MCP client cannot be asked: it did not declare the elicitation \
            capability (form or url mode) in initialize, or its request does not accept text/event-stream, \
            which carries the question. Nothing was done."}], "isError": true}),
        "without a way to ask the client, the suspension is named (tests/serve_elicit.rs asks)"
    );
    assert!(event.unwrap().is_error);
    // Even a tool that marks a suspension but says it did not fail is not a success.
    let mut odd = ToolResult::ok("Approve?");
    odd.metadata = Some(json!({"pending": {"id": "x"}}).as_object().unwrap().clone());
    assert_eq!(
        call_result(&odd),
        r#"{"content":[{"type":"text","text":"Approve?"}],"isError":true}"#
    );
}

#[test]
fn parts_become_mcp_blocks() {
    let mut result = ToolResult::ok("a chart");
    let parts = json!([
        {"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
        {"type": "file", "mimeType": "application/pdf", "url": "https://x.test/r.pdf", "name": "r.pdf"},
        {"type": "file", "mimeType": "application/pdf", "data": "JVBERi0="}
    ]);
    result.parts = Some(
        parts
            .as_array()
            .unwrap()
            .iter()
            .map(|p| toolnexus::core::parts::ContentPart::from_json(p.clone()).unwrap())
            .collect(),
    );
    let out: Value = serde_json::from_str(&call_result(&result)).unwrap();
    assert_eq!(
        out["content"],
        json!([
            {"type": "text", "text": "a chart"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "resource_link", "uri": "https://x.test/r.pdf", "name": "r.pdf", "mimeType": "application/pdf"}
        ])
    );
}

#[test]
fn the_callers_signal_reaches_the_tool_and_stops_it() {
    let hanging = tool_with(
        "slow",
        "native",
        json!({"type": "object"}),
        Behaviour::Hangs,
    );
    let gate = Rc::new(ManualSignal::default());
    gate.fire();
    let signal: Signal = Rc::new(SignalHandle(gate));
    let (reply, event) = send_with(
        &server(vec![hanging]),
        call("slow", json!({})),
        Some(signal),
    );
    assert_eq!(reply["result"]["isError"], true);
    assert!(event.unwrap().is_error);
}

#[test]
fn protocol_errors_have_their_json_rpc_codes() {
    let server = server(vec![echo_tool()]);
    let code = |reply: &Value| reply["error"]["code"].as_i64().unwrap();
    let (unknown, event) = send(&server, call("nope", json!({})));
    assert_eq!(
        (
            code(&unknown),
            unknown["error"]["message"].as_str().unwrap()
        ),
        (-32602, "Unknown tool: nope")
    );
    assert!(event.is_none());
    let (nameless, _) = send(
        &server,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {}}),
    );
    assert_eq!(code(&nameless), -32602);
    let (method, _) = send(
        &server,
        json!({"jsonrpc": "2.0", "id": 4, "method": "resources/list"}),
    );
    assert_eq!((code(&method), method["id"].as_i64()), (-32601, Some(4)));
    assert_eq!(
        method["error"]["message"],
        "Method not found: resources/list"
    );
    let (batch, _) = send(
        &server,
        json!([{"jsonrpc": "2.0", "id": 5, "method": "ping"}]),
    );
    assert_eq!((code(&batch), &batch["id"]), (-32600, &Value::Null));
    let (version, _) = send(
        &server,
        json!({"jsonrpc": "1.0", "id": 6, "method": "ping"}),
    );
    assert_eq!(code(&version), -32600);
    let (bad_id, _) = send(
        &server,
        json!({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}),
    );
    assert_eq!(code(&bad_id), -32600);
    let parse = block_on(server.handle_text("{not json", None))
        .reply
        .unwrap();
    let parse: Value = serde_json::from_str(&parse).unwrap();
    assert_eq!((code(&parse), &parse["id"]), (-32700, &Value::Null));
}

#[test]
fn notifications_and_client_responses_get_no_reply() {
    let server = server(vec![]);
    for message in [
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}),
        json!({"jsonrpc": "2.0", "id": 9, "result": {}}),
    ] {
        assert_eq!(send(&server, message).0, Value::Null);
    }
    assert_eq!(
        send(
            &server,
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        )
        .0["result"],
        json!({})
    );
}

#[test]
fn a_toolkit_server_serves_tools_registered_later_and_keeps_its_filter() {
    let (kit, _) = Toolkit::assemble(Sources {
        extras: vec![echo_tool()],
        ..Sources::default()
    });
    let kit = Rc::new(kit);
    let config = McpServeConfig {
        tools: Some(vec!["echo".into(), "late".into()]),
        ..Default::default()
    };
    let server = McpServer::over_toolkit(kit.clone(), &config, None);
    kit.register(echo("late", "native")).unwrap();
    kit.register(echo("hidden", "native")).unwrap();
    let (list, _) = send(
        &server,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let listed: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["echo", "late"]);
    let (hidden, _) = send(&server, call("hidden", json!({})));
    assert_eq!(hidden["error"]["code"], -32602);
}

// --- The HTTP face --------------------------------------------------------------------------

fn post(body: &str, accept: Option<&str>) -> Inbound {
    Inbound {
        method: "POST".into(),
        path: "/mcp".into(),
        accept: accept.map(Into::into),
        content_type: Some("application/json".into()),
        protocol_version: None,
        body: body.into(),
    }
}

fn exchange(server: Option<&McpServer>, inbound: Inbound) -> Outbound {
    block_on(route(server, inbound, None)).0
}

fn header<'a>(out: &'a Outbound, name: &str) -> Option<&'a str> {
    out.headers
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_str())
}

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
const BOTH: Option<&str> = Some("application/json, text/event-stream");

#[test]
fn http_answers_json_or_an_event_stream_as_accept_prefers() {
    let server = server(vec![]);
    let json_out = exchange(Some(&server), post(PING, BOTH));
    assert_eq!(
        (json_out.status, header(&json_out, "content-type")),
        (200, Some("application/json"))
    );
    assert_eq!(json_out.body, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
    let sse = exchange(Some(&server), post(PING, Some("text/event-stream")));
    assert_eq!(
        (sse.status, header(&sse, "content-type")),
        (200, Some("text/event-stream"))
    );
    assert_eq!(
        sse.body,
        "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
    );
    let preferred = exchange(
        Some(&server),
        post(PING, Some("text/event-stream, application/json;q=0.9")),
    );
    assert_eq!(
        header(&preferred, "content-type"),
        Some("text/event-stream")
    );
    let refused = exchange(Some(&server), post(PING, Some("text/html")));
    assert_eq!(refused.status, 406);
}

#[test]
fn http_routes_and_refusals() {
    let server = server(vec![]);
    let get = exchange(
        Some(&server),
        Inbound {
            method: "GET".into(),
            path: "/mcp".into(),
            ..Inbound::default()
        },
    );
    assert_eq!((get.status, header(&get, "allow")), (405, Some("POST")));
    let delete = exchange(
        Some(&server),
        Inbound {
            method: "DELETE".into(),
            path: "/mcp".into(),
            ..Inbound::default()
        },
    );
    assert_eq!(delete.status, 405);
    assert_eq!(
        exchange(
            Some(&server),
            Inbound {
                path: "/other".into(),
                ..post(PING, BOTH)
            }
        )
        .status,
        404
    );
    assert_eq!(
        exchange(None, post(PING, BOTH)).status,
        404,
        "no profile, no /mcp"
    );
    let plain = exchange(
        Some(&server),
        Inbound {
            content_type: Some("text/plain".into()),
            ..post(PING, BOTH)
        },
    );
    assert_eq!(plain.status, 415);
    let version = exchange(
        Some(&server),
        Inbound {
            protocol_version: Some("1999-01-01".into()),
            ..post(PING, BOTH)
        },
    );
    assert_eq!(version.status, 400);
    assert!(version.body.contains("1999-01-01"));
    assert!(version.body.contains(&PROTOCOL_VERSIONS.join(", ")));
    assert_eq!(PROTOCOL_VERSIONS_TEXT, PROTOCOL_VERSIONS.join(", "));
    let known = exchange(
        Some(&server),
        Inbound {
            protocol_version: Some("2025-06-18".into()),
            ..post(PING, BOTH)
        },
    );
    assert_eq!(known.status, 200);
    let huge = exchange(Some(&server), post(&" ".repeat(5 * 1024 * 1024), BOTH));
    assert_eq!(huge.status, 413);
}

#[test]
fn http_status_follows_what_the_message_was() {
    let server = server(vec![]);
    let parse = exchange(Some(&server), post("{oops", Some("text/event-stream")));
    assert_eq!(
        (parse.status, header(&parse, "content-type")),
        (400, Some("application/json"))
    );
    let parsed: Value = serde_json::from_str(&parse.body).unwrap();
    assert_eq!(parsed["error"]["code"], -32700);
    let notification = exchange(
        Some(&server),
        post(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            BOTH,
        ),
    );
    assert_eq!((notification.status, notification.body.as_str()), (202, ""));
    let unknown = exchange(
        Some(&server),
        post(r#"{"jsonrpc":"2.0","id":2,"method":"nope"}"#, BOTH),
    );
    assert_eq!(
        unknown.status, 200,
        "a JSON-RPC error to a readable request is a 200"
    );
    let parsed: Value = serde_json::from_str(&unknown.body).unwrap();
    assert_eq!(parsed["error"]["code"], -32601);
}
