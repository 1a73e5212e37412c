//! In-process models (SPEC §8): `generate` answers instead of an endpoint, through the same
//! loop; its answers become OpenAI responses, bad answers end the run with a clear message.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

mod common;

use common::agent::*;
use futures_executor::block_on;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use toolnexus::core::client::config::{ClientConfig, Style};
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::hooks::Hooks;
use toolnexus::core::client::in_process::{
    openai_response, Generate, InProcessHttp, IN_PROCESS_BASE_URL,
};
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::client::run::Client;
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::types::ToolResult;
use toolnexus::core::wire::Usage;
use toolnexus::{core::value::Value, json};

/// A `generate` answering from a queue and recording each request.
#[derive(Default)]
struct Scripted {
    answers: RefCell<VecDeque<Result<Value, String>>>,
    seen: RefCell<Vec<Value>>,
}

impl Scripted {
    fn new(answers: Vec<Result<Value, String>>) -> Rc<Self> {
        Rc::new(Scripted {
            answers: RefCell::new(answers.into()),
            seen: RefCell::new(Vec::new()),
        })
    }
}

impl Generate for Scripted {
    fn generate(&self, request: Value) -> LocalBoxFuture<'static, Result<Value, String>> {
        self.seen.borrow_mut().push(request);
        let out = self
            .answers
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Err("no scripted answer".into()));
        Box::pin(async move { out })
    }
}

fn client(generate: &Rc<Scripted>, hooks: Rc<dyn Hooks>) -> Client {
    Client {
        config: Rc::new(ClientConfig::new(
            Style::OpenAi,
            IN_PROCESS_BASE_URL,
            "local-model",
        )),
        dialect: Style::OpenAi.dialect(),
        http: Rc::new(InProcessHttp {
            generate: generate.clone(),
        }),
        hooks,
        wait_for: None,
        clock: Rc::new(FixedClock(0.0)),
        telemetry: Rc::default(),
        requests: Default::default(),
    }
}

fn run(generate: &Rc<Scripted>, tools: Vec<Rc<FnTool>>) -> Result<RunResult, RunError> {
    run_hooked(generate, tools, Rc::new(FakeHooks::default()))
}

fn run_hooked(
    generate: &Rc<Scripted>,
    tools: Vec<Rc<FnTool>>,
    hooks: Rc<dyn Hooks>,
) -> Result<RunResult, RunError> {
    let mut rig = Rig::new(Style::OpenAi, common::http::ScriptedHttp::replies(vec![]));
    for tool in tools {
        rig = rig.tool(tool);
    }
    block_on(client(generate, hooks).run(rig.input("hello")))
}

fn echo(name: &str) -> Rc<FnTool> {
    FnTool::new(name, json!({"type": "object"}), |args, _| {
        Box::pin(async move { ToolResult::ok(format!("got {args}")) })
    })
}

#[test]
fn a_content_answer_is_the_final_text() {
    let generate = Scripted::new(vec![Ok(json!({"content": "hi there"}))]);
    let result = run(&generate, vec![echo("a")]).unwrap();
    assert_eq!(result.text, "hi there");
    assert_eq!(result.status, Status::Done);
    assert_eq!(result.model, "local-model");
    assert_eq!(
        result.messages[1],
        json!({"role": "assistant", "content": "hi there"})
    );
    let seen = generate.seen.borrow();
    let request = &seen[0];
    let keys: Vec<_> = request.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["messages", "tools", "model", "body"]);
    assert_eq!(
        request["messages"],
        json!([{"role": "user", "content": "hello"}])
    );
    assert_eq!(request["model"], json!("local-model"));
    assert_eq!(request["tools"][0]["function"]["name"], json!("a"));
    assert_eq!(request["body"]["messages"], request["messages"]);
}

#[test]
fn without_tools_the_request_tools_are_null() {
    let generate = Scripted::new(vec![Ok(json!({"content": "x"}))]);
    run(&generate, vec![]).unwrap();
    assert_eq!(generate.seen.borrow()[0]["tools"], Value::Null);
}

#[test]
fn tool_calls_with_object_arguments_get_generated_ids() {
    let generate = Scripted::new(vec![
        Ok(json!({"toolCalls": [
            {"name": "a", "arguments": {"x": 1}},
            {"name": "a", "arguments": {"x": 2}, "id": "mine"},
            {"name": "a"}
        ]})),
        Ok(json!({"content": "done"})),
    ]);
    let tool = echo("a");
    let result = run(&generate, vec![tool.clone()]).unwrap();
    assert_eq!(
        tool.args(),
        vec![json!({"x": 1}), json!({"x": 2}), json!({})]
    );
    assert_eq!(result.text, "done");
    assert_eq!(result.turns, 2);
    let assistant = &result.messages[1];
    assert_eq!(
        *assistant,
        json!({"role": "assistant", "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": "a", "arguments": "{\"x\":1}"}},
            {"id": "mine", "type": "function", "function": {"name": "a", "arguments": "{\"x\":2}"}},
            {"id": "call_2", "type": "function", "function": {"name": "a", "arguments": "{}"}}
        ]})
    );
    assert_eq!(
        result.messages[2],
        json!({"role": "tool", "tool_call_id": "call_0", "content": "got {\"x\":1}"})
    );
    assert_eq!(result.messages[3]["tool_call_id"], json!("mine"));
    // The second generate call sees the tool results.
    let seen = generate.seen.borrow();
    assert_eq!(seen[1]["messages"].as_array().unwrap().len(), 5);
}

#[test]
fn string_arguments_are_passed_through() {
    let generate = Scripted::new(vec![
        Ok(json!({"toolCalls": [{"name": "a", "arguments": "{\"x\":2}"}]})),
        Ok(json!({"content": "ok"})),
    ]);
    let tool = echo("a");
    let result = run(&generate, vec![tool.clone()]).unwrap();
    assert_eq!(tool.args(), vec![json!({"x": 2})]);
    assert_eq!(
        result.messages[1]["tool_calls"][0]["function"]["arguments"],
        json!("{\"x\":2}")
    );
    // A string that is not JSON is the tool's invalid-arguments error, not a run error.
    let generate = Scripted::new(vec![
        Ok(json!({"toolCalls": [{"name": "a", "arguments": "{oops"}]})),
        Ok(json!({"content": "ok"})),
    ]);
    let tool = echo("a");
    let result = run(&generate, vec![tool.clone()]).unwrap();
    assert_eq!(tool.count(), 0);
    assert!(result.tool_calls[0]
        .output
        .starts_with("Invalid arguments for tool \"a\""));
}

#[test]
fn usage_is_read_from_camel_case_keys() {
    let generate = Scripted::new(vec![
        Ok(
            json!({"toolCalls": [{"name": "a", "arguments": {}}], "usage": {"promptTokens": 3, "completionTokens": 4}}),
        ),
        Ok(
            json!({"content": "ok", "usage": {"promptTokens": 10, "completionTokens": 1, "totalTokens": 50}}),
        ),
    ]);
    let result = run(&generate, vec![echo("a")]).unwrap();
    assert_eq!(
        result.usage,
        Usage {
            prompt_tokens: 13,
            completion_tokens: 5,
            total_tokens: 57
        }
    );
}

#[test]
fn an_empty_tool_calls_list_is_a_content_answer() {
    let generate = Scripted::new(vec![Ok(json!({"toolCalls": [], "content": "plain"}))]);
    assert_eq!(run(&generate, vec![]).unwrap().text, "plain");
    let generate = Scripted::new(vec![Ok(json!({}))]);
    assert_eq!(run(&generate, vec![]).unwrap().text, "");
}

fn model_error(answer: Value) -> String {
    let generate = Scripted::new(vec![Ok(answer)]);
    match run(&generate, vec![echo("a")]).unwrap_err() {
        RunError::Model(message) => message,
        other => unreachable!("{other:?}"),
    }
}

#[test]
fn invalid_answers_are_model_errors_with_clear_messages() {
    assert_eq!(
        model_error(json!("just text")),
        "generate must return {content} or {toolCalls}, got string"
    );
    assert_eq!(
        model_error(json!(null)),
        "generate must return {content} or {toolCalls}, got null"
    );
    assert_eq!(
        model_error(json!({"toolCalls": {"name": "a"}})),
        "generate: toolCalls must be an array, got object"
    );
    assert_eq!(
        model_error(json!({"toolCalls": [{"arguments": {}}]})),
        "generate: toolCalls[0] needs a string name"
    );
    assert_eq!(
        model_error(json!({"toolCalls": [{"name": "a"}, {"name": 7}]})),
        "generate: toolCalls[1] needs a string name"
    );
    assert_eq!(
        model_error(json!({"content": 42})),
        "generate: content must be a string, got number"
    );
    let generate = Scripted::new(vec![Ok(json!(5))]);
    let err = run(&generate, vec![]).unwrap_err();
    assert_eq!(err.code(), "model");
    assert!(err
        .to_string()
        .starts_with("the in-process model failed: generate must return"));
}

#[test]
fn a_failing_generate_ends_the_run() {
    let generate = Scripted::new(vec![Err("CUDA out of memory".into())]);
    let err = run(&generate, vec![]).unwrap_err();
    assert_eq!(err, RunError::Model("CUDA out of memory".into()));
    assert_eq!(generate.seen.borrow().len(), 1, "not retried");
}

#[test]
fn a_streaming_body_is_refused() {
    let hooks = Rc::new(FakeHooks {
        body_transform: Some(Box::new(|mut body: Value| {
            body.as_object_mut()
                .unwrap()
                .insert("stream".into(), json!(true));
            Ok(body)
        })),
        ..FakeHooks::default()
    });
    let generate = Scripted::new(vec![Ok(json!({"content": "x"}))]);
    let err = run_hooked(&generate, vec![], hooks).unwrap_err();
    match err {
        RunError::Model(message) => assert!(message.contains("does not stream"), "{message}"),
        other => unreachable!("{other:?}"),
    }
    assert_eq!(generate.seen.borrow().len(), 0, "generate is never called");
}

#[test]
fn openai_response_builds_the_envelope() {
    assert_eq!(
        openai_response(
            &json!({"content": "hi", "usage": {"promptTokens": 1, "completionTokens": 2}})
        )
        .unwrap(),
        json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
        })
    );
    assert_eq!(
        openai_response(&json!({"toolCalls": [{"id": "x", "name": "t", "arguments": {"a": [1]}}]}))
            .unwrap()["choices"][0]["message"],
        json!({"role": "assistant", "tool_calls": [
            {"id": "x", "type": "function", "function": {"name": "t", "arguments": "{\"a\":[1]}"}}
        ]})
    );
    assert_eq!(
        openai_response(&json!({"content": null})).unwrap()["usage"],
        json!({"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0})
    );
    assert!(openai_response(&json!([])).is_err());
}

#[test]
fn openai_response_derives_finish_reason() {
    let text = openai_response(&json!({"content": "hi"})).unwrap();
    assert_eq!(text["choices"][0]["finish_reason"], json!("stop"));
    let calls = openai_response(&json!({"toolCalls": [{"name": "t"}]})).unwrap();
    assert_eq!(calls["choices"][0]["finish_reason"], json!("tool_calls"));
}
