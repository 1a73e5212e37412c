//! HTTP tools over a scripted transport: the request each call sends (placeholders, query
//! strings, the three body modes, methods) and the tool's spec.
#![cfg(not(target_arch = "wasm32"))]
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

mod common;
mod http_tool_common;

use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::json;

use common::http::{respond, ScriptedHttp};
use http_tool_common::{options, rig, with_status, TestClock};
use toolnexus::core::http_tool::{BodyMode, HttpTool, HttpToolOptions};
use toolnexus::core::tool::{Context, Tool};
use toolnexus::core::toolkit::{Sources, Toolkit};
use toolnexus::core::types::ToolResult;

#[test]
fn get_fills_placeholders_and_sends_every_other_argument_as_the_query() {
    let r = rig(
        options("get", "https://api.test/users/{id}/posts/{slug}"),
        respond(200, "[]"),
    );
    let out = r.call(json!({"id": "a b/c", "limit": 2.0, "q": "x&y=z é", "slug": 7}));
    assert_eq!(out, with_status(ToolResult::ok("[]"), 200));
    assert_eq!(r.method(), "GET");
    let sent = r.sent();
    assert_eq!(
        sent.url,
        "https://api.test/users/a%20b%2Fc/posts/7?limit=2&q=x%26y%3Dz+%C3%A9"
    );
    assert_eq!(sent.text, "", "a GET has no body");
    assert_eq!(sent.header("content-type"), None);
}

#[test]
fn a_missing_or_null_placeholder_is_empty_and_an_existing_query_is_extended() {
    let r = rig(
        options("GET", "https://api.test/a/{missing}/{nil}?v=1"),
        respond(200, ""),
    );
    r.call(json!({"nil": null, "x": true}));
    assert_eq!(r.sent().url, "https://api.test/a//?v=1&x=true");
}

#[test]
fn post_sends_query_names_in_the_url_and_the_rest_as_json() {
    let mut o = options("post", "https://api.test/orgs/{org}/items");
    o.query = vec!["dry_run".into()];
    let r = rig(o, respond(201, "{\"id\":1}"));
    let out = r.call(json!({"org": "acme", "name": "pen", "dry_run": false, "tags": ["a", 1.5]}));
    assert_eq!(out.output, "{\"id\":1}");
    let sent = r.sent();
    assert_eq!(r.method(), "POST");
    assert_eq!(sent.url, "https://api.test/orgs/acme/items?dry_run=false");
    assert_eq!(sent.text, r#"{"name":"pen","tags":["a",1.5]}"#);
    assert_eq!(sent.header("content-type").unwrap(), "application/json");
}

#[test]
fn a_given_content_type_is_kept_whatever_its_case() {
    let mut o = options("PUT", "https://api.test/x");
    o.headers = vec![("content-type".into(), "application/vnd.x+json".into())];
    let r = rig(o, respond(200, "ok"));
    r.call(json!({"a": 1}));
    assert_eq!(
        r.sent().header_values("content-type"),
        ["application/vnd.x+json"]
    );
}

#[test]
fn form_bodies_are_urlencoded() {
    let mut o = options("POST", "https://api.test/login");
    o.body = BodyMode::Form;
    let r = rig(o, respond(200, "ok"));
    r.call(json!({"user": "a b", "pass": "p&ss=1", "n": null}));
    let sent = r.sent();
    assert_eq!(sent.text, "user=a+b&pass=p%26ss%3D1&n=null");
    assert_eq!(
        sent.header("content-type").unwrap(),
        "application/x-www-form-urlencoded"
    );
}

#[test]
fn raw_bodies_send_the_body_argument_as_text() {
    let mut o = options("POST", "https://api.test/raw/{id}");
    o.body = BodyMode::Raw;
    let r = rig(o, respond(200, "ok"));
    r.call(json!({"id": 3, "body": "plain <text>", "ignored": 1}));
    let sent = r.sent();
    assert_eq!(sent.url, "https://api.test/raw/3");
    assert_eq!(sent.text, "plain <text>");
    assert_eq!(sent.header("content-type"), None);
}

#[test]
fn no_body_is_sent_when_nothing_is_left_or_for_head() {
    let r = rig(
        options("DELETE", "https://api.test/items/{id}"),
        respond(204, ""),
    );
    let out = r.call(json!({"id": "9"}));
    assert_eq!(out, with_status(ToolResult::ok(""), 204));
    assert_eq!(r.sent().text, "");
    assert_eq!(r.sent().header("content-type"), None);
    let r = rig(options("head", "https://api.test/h"), respond(200, ""));
    r.call(json!({"a": 1}));
    assert_eq!(r.sent().url, "https://api.test/h");
    assert_eq!(r.method(), "HEAD");
}

#[test]
fn the_spec_is_an_http_tool_with_an_empty_schema_by_default() {
    let r = rig(options("GET", "https://api.test/x"), respond(200, ""));
    let spec = r.tool.spec();
    assert_eq!(spec.source, "http");
    assert_eq!(spec.description, "An endpoint");
    assert_eq!(
        spec.input_schema,
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    let bad = HttpToolOptions {
        name: "bad name".into(),
        ..options("GET", "https://x")
    };
    let http = ScriptedHttp::new(Vec::new());
    let clock = Rc::new(TestClock {
        fires: false,
        sleeps: RefCell::new(Vec::new()),
    });
    let err = HttpTool::new(bad, http, clock, Rc::new(|_: &str| None))
        .err()
        .unwrap();
    assert!(err.to_string().contains("sanitize gives \"bad_name\""));
}

#[test]
fn through_a_toolkit_arguments_are_checked_against_the_schema_first() {
    let mut o = options("GET", "https://api.test/c/{city}");
    o.input_schema = Some(
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
    );
    let r = rig(o, respond(200, "sunny"));
    let tool: Rc<dyn Tool> = Rc::new(r.tool);
    let (kit, _) = Toolkit::assemble(Sources {
        extras: vec![tool],
        ..Sources::default()
    });
    let bad = futures_executor::block_on(kit.execute("endpoint", json!({}), Context::default()));
    assert!(
        bad.is_error
            && bad
                .output
                .starts_with("Invalid arguments for tool \"endpoint\"")
    );
    assert_eq!(r.http.inner.count(), 0);
    let good = futures_executor::block_on(kit.execute(
        "endpoint",
        json!({"city": "Paris"}),
        Context::default(),
    ));
    assert_eq!(good.output, "sunny");
    assert_eq!(r.http.inner.request(0).url, "https://api.test/c/Paris");
}
