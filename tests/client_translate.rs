//! `Client::translate` (SPEC §11) against a scripted transport: exactly one call, the body on
//! the wire byte for byte for both styles, nothing run, the loop's request shaping, retries,
//! hooks (LLM once, tools never) and metrics (one `llm` event, no `run`).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use futures_executor::block_on;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::telemetry::{MetricSink, Telemetry};
use toolnexus::core::client::translate::TranslateInput;
use toolnexus::core::metrics::MetricEvent;
use toolnexus::core::translate::{TranslateRequest, TranslateResult};
use toolnexus::{core::json::value::Value, json};

fn request(messages: Value, tools: Value, tool_choice: Value) -> TranslateRequest {
    TranslateRequest::read(messages, tools, tool_choice, json!(null), json!(null)).unwrap()
}

fn weather_tools() -> Value {
    json!([{"type": "function", "function": {"name": "get_weather", "description": "Get the weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}])
}

fn translate(rig: &Rig, request: TranslateRequest) -> Result<TranslateResult, RunError> {
    let input = TranslateInput {
        request,
        toolkit: Some(rig.toolkit()),
        signal: None,
    };
    block_on(rig.client().translate(input))
}

fn sent_text(rig: &Rig, n: usize) -> String {
    rig.http.request(n).text
}

#[derive(Default)]
struct Sink(RefCell<Vec<MetricEvent>>);

impl MetricSink for Sink {
    fn emit(&self, event: &MetricEvent) {
        self.0.borrow_mut().push(event.clone());
    }
}

#[test]
fn anthropic_gets_native_blocks_and_the_reply_comes_back_in_openai_shape() {
    let reply = anthropic_content(
        vec![
            json!({"type": "text", "text": "checking"}),
            json!({"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Chennai"}}),
        ],
        "tool_use",
        Some((10, 5)),
    );
    let rig = Rig::new(
        Style::Anthropic,
        ScriptedHttp::replies(vec![ok_json(reply)]),
    );
    let r = translate(
        &rig,
        request(
            json!([
                {"role": "system", "content": "Be terse."},
                {"role": "user", "content": "weather?"},
                {"role": "assistant", "tool_calls": [{"id": "c0", "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}}]},
                {"role": "tool", "tool_call_id": "c0", "content": "cold"},
            ]),
            weather_tools(),
            json!("required"),
        ),
    )
    .unwrap();
    assert_eq!(rig.http.count(), 1);
    assert_eq!(
        sent_text(&rig, 0),
        concat!(
            r#"{"model":"test/model-1","max_tokens":4096,"messages":["#,
            r#"{"role":"user","content":"weather?"},"#,
            r#"{"role":"assistant","content":[{"type":"tool_use","id":"c0","name":"get_weather","input":{"city":"Oslo"}}]},"#,
            r#"{"role":"user","content":[{"type":"tool_result","content":"cold","tool_use_id":"c0"}]}],"#,
            r#""system":"Be terse.","#,
            r#""tools":[{"name":"get_weather","description":"Get the weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],"#,
            r#""tool_choice":{"type":"any"}}"#
        )
    );
    assert_eq!(r.text, "checking");
    assert_eq!(r.finish_reason, "tool_calls");
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].arguments, r#"{"city":"Chennai"}"#);
    assert_eq!(r.usage.total_tokens, 15);
    assert_eq!(r.model, MODEL);
}

#[test]
fn openai_passes_the_request_through() {
    let reply = json!({"choices": [{"message": {"content": "", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Madurai\"}"}}
    ]}, "finish_reason": "tool_calls"}], "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}});
    let rig = Rig::new(Style::OpenAi, ScriptedHttp::replies(vec![ok_json(reply)]));
    let messages = json!([
        {"role": "user", "content": [{"type": "text", "text": "weather?"}]},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c0", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Oslo\"}"}}]},
        {"role": "tool", "tool_call_id": "c0", "content": "cold"},
    ]);
    let r = translate(
        &rig,
        request(messages.clone(), weather_tools(), json!(null)),
    )
    .unwrap();
    let body = rig.http.body(0);
    assert_eq!(body["messages"], messages);
    assert_eq!(body["tools"], weather_tools());
    assert_eq!(body.get("tool_choice"), None);
    assert_eq!(body.get("max_tokens"), None);
    assert_eq!(r.tool_calls[0].arguments, "{\"city\": \"Madurai\"}");
    assert_eq!(
        (r.finish_reason.as_str(), r.usage.total_tokens),
        ("tool_calls", 7)
    );
}

#[test]
fn nothing_runs_and_toolkit_declarations_come_first() {
    let danger = FnTool::returning("danger", toolnexus::core::types::ToolResult::ok("RAN"));
    let rig = Rig::new(
        Style::Anthropic,
        ScriptedHttp::replies(vec![ok_json(anthropic_calls(
            &[("t1", "danger", json!({}))],
            None,
        ))]),
    )
    .tool(danger.clone());
    let r = translate(
        &rig,
        request(
            json!([{"role": "user", "content": "go"}]),
            weather_tools(),
            json!(null),
        ),
    )
    .unwrap();
    assert_eq!(danger.count(), 0);
    assert_eq!(r.tool_calls[0].name, "danger");
    let tools = rig.http.body(0)["tools"].clone();
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["danger", "get_weather"]);
}

#[test]
fn request_system_overrides_then_the_client_s_then_the_hoisted_one() {
    let cases: [(Option<&str>, &str, Option<&str>); 3] = [
        (Some("From request."), "From client.", Some("From request.")),
        (None, "From client.", Some("From client.")),
        (None, "", Some("Hoisted.")),
    ];
    for (given, configured, want) in cases {
        let mut rig = Rig::new(
            Style::Anthropic,
            ScriptedHttp::replies(vec![text_reply(Style::Anthropic, "ok")]),
        );
        rig.config.system_prompt = configured.into();
        let mut req = request(
            json!([{"role": "system", "content": "Hoisted."}, {"role": "user", "content": "go"}]),
            json!(null),
            json!(null),
        );
        req.system = given.map(str::to_owned);
        translate(&rig, req).unwrap();
        assert_eq!(rig.http.body(0).get("system").and_then(Value::as_str), want);
    }
    // OpenAI: the system prompt goes first only when the messages carry none.
    let mut rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![text_reply(Style::OpenAi, "ok")]),
    );
    rig.config.system_prompt = "From client.".into();
    translate(
        &rig,
        request(
            json!([{"role": "user", "content": "go"}]),
            json!(null),
            json!(null),
        ),
    )
    .unwrap();
    assert_eq!(
        rig.http.body(0)["messages"][0],
        json!({"role": "system", "content": "From client."})
    );
}

#[test]
fn max_tokens_request_params_and_body_transform_shape_the_body() {
    let mut rig = Rig::new(
        Style::Anthropic,
        ScriptedHttp::replies(vec![text_reply(Style::Anthropic, "ok")]),
    );
    rig.config.request_params = match json!({"temperature": 0.5, "max_tokens": 77, "messages": "ignored"})
    {
        Value::Object(map) => map,
        _ => unreachable!(),
    };
    let hooks = Rc::new(FakeHooks {
        body_transform: Some(Box::new(|mut body: Value| {
            body.as_object_mut()
                .unwrap()
                .insert("metadata".into(), json!({"user_id": "u"}));
            Ok(body)
        })),
        ..Default::default()
    });
    let rig = rig.hooks(&hooks);
    let mut req = request(
        json!([{"role": "user", "content": "go"}]),
        json!(null),
        json!(null),
    );
    req.max_tokens = Some(10);
    translate(&rig, req).unwrap();
    let body = rig.http.body(0);
    assert_eq!(body["max_tokens"], json!(77));
    assert_eq!(body["temperature"], json!(0.5));
    assert_eq!(body["messages"], json!([{"role": "user", "content": "go"}]));
    assert_eq!(body["metadata"], json!({"user_id": "u"}));
}

#[test]
fn llm_hooks_fire_once_tool_hooks_never_and_before_llm_may_replace() {
    let hooks = Rc::new(FakeHooks {
        observe_after_llm: true,
        before_llm: Some(Box::new(|_, _, _| {
            Ok(toolnexus::core::client::hooks::LlmOverride {
                messages: Some(vec![json!({"role": "user", "content": "replaced"})]),
                tools: None,
            })
        })),
        ..Default::default()
    });
    let rig = Rig::new(
        Style::Anthropic,
        ScriptedHttp::replies(vec![ok_json(anthropic_calls(
            &[("t1", "get_weather", json!({}))],
            None,
        ))]),
    )
    .hooks(&hooks);
    translate(
        &rig,
        request(
            json!([{"role": "user", "content": "go"}]),
            weather_tools(),
            json!(null),
        ),
    )
    .unwrap();
    assert_eq!(hooks.log(), ["beforeLLM#0", "afterLLM#0"]);
    assert_eq!(
        hooks.before_llm_seen.borrow()[0].tools[0]["name"],
        json!("get_weather")
    );
    assert_eq!(
        rig.http.body(0)["messages"],
        json!([{"role": "user", "content": "replaced"}])
    );
    assert_eq!(
        hooks.after_llm_seen.borrow()[0].0["stop_reason"],
        json!("tool_use")
    );
}

#[test]
fn retries_are_the_loop_s_and_the_metric_is_one_llm_event() {
    let mut rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![respond(503, "busy"), text_reply(Style::OpenAi, "ok")]),
    );
    let sink = Rc::new(Sink::default());
    rig.telemetry = Rc::new(Telemetry::with_sink(Some(
        sink.clone() as Rc<dyn MetricSink>
    )));
    let r = translate(
        &rig,
        request(
            json!([{"role": "user", "content": "go"}]),
            json!(null),
            json!(null),
        ),
    )
    .unwrap();
    assert_eq!(r.text, "ok");
    assert_eq!(rig.http.count(), 2);
    let events = sink.0.borrow();
    assert_eq!(events.len(), 1);
    assert!(matches!(&events[0], MetricEvent::Llm { status, .. } if status == "ok"));
}

#[test]
fn a_provider_failure_is_the_loop_s_error_without_the_key() {
    let mut rig = Rig::new(
        Style::Anthropic,
        ScriptedHttp::replies(vec![respond(400, "bad key sk-secret-123")]),
    );
    rig.config.api_key = Some("sk-secret-123".into());
    let error = translate(
        &rig,
        request(
            json!([{"role": "user", "content": "go"}]),
            json!(null),
            json!(null),
        ),
    )
    .unwrap_err();
    assert_eq!(error.code(), "http_status");
    assert!(!error.to_string().contains("sk-secret-123"), "{error}");
}

#[test]
fn an_aborted_signal_sends_nothing() {
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![text_reply(Style::OpenAi, "ok")]),
    );
    let signal = Rc::new(common::ManualSignal::default());
    signal.fire();
    let input = TranslateInput {
        request: request(
            json!([{"role": "user", "content": "go"}]),
            json!(null),
            json!(null),
        ),
        toolkit: None,
        signal: Some(Rc::new(common::SignalHandle(signal))),
    };
    let error = block_on(rig.client().translate(input)).unwrap_err();
    assert_eq!(error.code(), "aborted");
    assert_eq!(rig.http.count(), 0);
}
