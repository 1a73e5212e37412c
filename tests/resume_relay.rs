//! Relay tools (SPEC §10 addendum) through a run: every relay call of a turn rides one
//! `kind: "tool_call"` suspension whose `data.calls` lists them in call order; the answer's
//! `data.results` (or the single-call `data.output` / `data.isError`) fills them, `ok: false`
//! gives error results, and a call the host gave nothing for gets an explicit error result.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;
use crate::resume_support;

use common::agent::*;
use common::http::*;
use resume_support::*;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::relay::{relay_collision, RelayTool};
use toolnexus::core::tool::SharedTool;
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

fn relay(name: &str) -> SharedTool {
    Rc::new(RelayTool::new(name, "Runs on the host", json!({"type": "object"})).unwrap())
}

/// A turn calling `calls` (relay `lookup`, relay `fetch_row`, ordinary `plain`).
fn rig(style: Style, calls: &[Call<'_>]) -> (Rig, Rc<FnTool>) {
    let http = ScriptedHttp::replies(vec![
        calls_reply(style, calls),
        text_reply(style, "finished"),
    ]);
    let plain = FnTool::returning("plain", ToolResult::ok("plain done"));
    let rig = Rig::new(style, http)
        .tool(relay("lookup"))
        .tool(relay("fetch_row"))
        .tool(plain.clone());
    (rig, plain)
}

fn halted(style: Style, calls: &[Call<'_>]) -> (Rig, Rc<FnTool>, RunResult) {
    let (rig, plain) = rig(style, calls);
    let result = rig.run("look it up").unwrap();
    assert_eq!(result.status, Status::Pending, "{style:?}");
    (rig, plain, result)
}

fn relay_answer(result: &RunResult, ok: bool, data: Value) -> Value {
    json!({"id": result.pending.as_ref().unwrap().id, "ok": ok, "data": data})
}

fn fed(style: Style, result: &RunResult) -> Vec<Fed> {
    results_of(style, &result.messages)
}

#[test]
fn one_relay_call_suspends_with_its_call_and_resumes_with_its_result() {
    for style in BOTH {
        let (rig, _, result) = halted(style, &[("c1", "lookup", json!({"q": "ada"}))]);
        let pending = result.pending.clone().unwrap();
        assert_eq!(pending.kind, "tool_call");
        assert_eq!(pending.id, "relay-c1");
        assert_eq!(pending.prompt, "Run on the host: lookup");
        let calls = &pending.data.as_ref().unwrap()["calls"];
        assert_eq!(
            calls,
            &json!([{"id": "c1", "name": "lookup", "input": {"q": "ada"}, "arguments": r#"{"q":"ada"}"#}])
        );
        let data = json!({"results": [{"id": "c1", "output": "Ada Lovelace", "isError": false}]});
        let done = resume(&rig, &result, relay_answer(&result, true, data)).unwrap();
        assert_eq!(done.status, Status::Done);
        let fed = fed(style, &done);
        assert_eq!(fed.len(), 1);
        assert_eq!(
            (fed[0].0.as_str(), fed[0].1.as_str()),
            ("c1", "Ada Lovelace")
        );
        if style == Style::Anthropic {
            assert_eq!(fed[0].2, Some(false));
        }
    }
}

#[test]
fn the_single_call_shorthand_fills_output_and_is_error() {
    for style in BOTH {
        let (rig, _, result) = halted(style, &[("c1", "lookup", json!({}))]);
        let data = json!({"output": "not found", "isError": true});
        let done = resume(&rig, &result, relay_answer(&result, true, data)).unwrap();
        let fed = fed(style, &done);
        assert_eq!(fed[0].1, "not found");
        if style == Style::Anthropic {
            assert_eq!(fed[0].2, Some(true));
        }
    }
}

#[test]
fn several_relay_calls_ride_one_request_in_call_order_beside_ordinary_calls() {
    let calls = [
        ("c0", "plain", json!({})),
        ("c1", "lookup", json!({"q": 1})),
        ("c2", "fetch_row", json!({"row": 2})),
    ];
    for style in BOTH {
        let (rig, plain, result) = halted(style, &calls);
        let pending = result.pending.clone().unwrap();
        assert_eq!(pending.prompt, "Run on the host: lookup, fetch_row");
        let ids: Vec<&Value> = pending.data.as_ref().unwrap()["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["id"])
            .collect();
        assert_eq!(ids, [&json!("c1"), &json!("c2")]);
        // Results may come in any order; they are matched by id. A non-string output is JSON.
        let data = json!({"results": [
            {"id": "c2", "output": {"row": 2, "name": "Bob"}},
            {"id": "c1", "output": "one", "isError": false},
        ]});
        let done = resume(&rig, &result, relay_answer(&result, true, data)).unwrap();
        assert_eq!(done.status, Status::Done);
        let fed = fed(style, &done);
        let got: Vec<(&str, &str)> = fed
            .iter()
            .map(|(i, c, _)| (i.as_str(), c.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("c0", "plain done"),
                ("c1", "one"),
                ("c2", r#"{"row":2,"name":"Bob"}"#)
            ]
        );
        assert_eq!(
            plain.count(),
            1,
            "the ordinary call before the relays is not re-run"
        );
        assert_eq!(user_turns(style, &done.messages), 1);
    }
}

#[test]
fn a_refused_relay_answer_gives_every_call_an_error_result() {
    let calls = [("c1", "lookup", json!({})), ("c2", "lookup", json!({}))];
    for style in BOTH {
        let (rig, _, result) = halted(style, &calls);
        let done = resume(&rig, &result, relay_answer(&result, false, json!({}))).unwrap();
        for (_, content, is_error) in fed(style, &done) {
            assert_eq!(content, "declined/expired: Run on the host: lookup, lookup");
            if style == Style::Anthropic {
                assert_eq!(is_error, Some(true));
            }
        }
        assert_eq!(done.status, Status::Done);
    }
}

#[test]
fn a_missing_result_is_an_explicit_error_result() {
    let calls = [("c1", "lookup", json!({})), ("c2", "lookup", json!({}))];
    for style in BOTH {
        let (rig, _, result) = halted(style, &calls);
        // Only c1 answered; the shorthand does not apply to several calls.
        let data = json!({"results": [{"id": "c1", "output": "one"}], "output": "ignored"});
        let done = resume(&rig, &result, relay_answer(&result, true, data)).unwrap();
        let fed = fed(style, &done);
        assert_eq!(fed[0].1, "one");
        assert_eq!(fed[1].1, "the host supplied no result for relay call c2");
        if style == Style::Anthropic {
            assert_eq!(fed[1].2, Some(true));
        }
    }
}

#[test]
fn a_relay_answer_with_the_wrong_id_is_refused() {
    let (rig, _, result) = halted(Style::OpenAi, &[("c1", "lookup", json!({}))]);
    let err = resume(&rig, &result, json!({"id": "relay-c9", "ok": true})).unwrap_err();
    assert!(matches!(err, RunError::InvalidResume(_)), "{err:?}");
    assert_eq!(rig.http.count(), 1);
}

#[test]
fn with_wait_for_the_relay_is_answered_in_page() {
    for style in BOTH {
        let (rig, _) = rig(
            style,
            &[("c1", "lookup", json!({})), ("c2", "fetch_row", json!({}))],
        );
        let wait = FnWaitFor::new(|r| {
            let results: Vec<Value> = r.data.as_ref().unwrap()["calls"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| json!({"id": c["id"], "output": format!("host ran {}", c["name"].as_str().unwrap())}))
                .collect();
            Ok(json!({"id": r.id, "ok": true, "data": {"results": results}}))
        });
        let rig = rig.wait_for(wait.clone());
        let done = rig.run("go").unwrap();
        assert_eq!(wait.asked().len(), 1, "one request for both relay calls");
        assert_eq!(done.status, Status::Done);
        let contents: Vec<String> = fed(style, &done).into_iter().map(|(_, c, _)| c).collect();
        assert_eq!(contents, ["host ran lookup", "host ran fetch_row"]);
    }
}

#[test]
fn a_relay_tool_named_like_a_built_in_is_a_collision() {
    assert!(relay_collision(&[relay("lookup")]).is_none());
    let why = relay_collision(&[relay("lookup"), relay("bash")]).unwrap();
    assert_eq!(
        why,
        r#"relay tool "bash" has the name of a built-in tool: rename it"#
    );
}
