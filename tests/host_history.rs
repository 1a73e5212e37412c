//! A history the host keeps (`RunInput::history_host`): the core never reads it, every request
//! body holds the mark where it goes and the transport puts it in; the result holds only the
//! run's own messages. A run refuses it, before sending anything, when a hook needs the
//! messages or the transport cannot put the text in.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::host::HostText;
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn history() -> Vec<Value> {
    vec![
        json!({"role": "user", "content": "earlier: é \u{1F600} \u{0} \"q\" \\u0000"}),
        json!({"role": "assistant", "content": "noted"}),
    ]
}

/// The items of `history()` as the host gives them: its JSON without the brackets.
fn items() -> String {
    let text = serde_json::to_string(&history()).unwrap();
    text[1..text.len() - 1].to_owned()
}

fn run_with_host_history(
    rig: &Rig,
) -> Result<toolnexus::core::client::result::RunResult, RunError> {
    let mut input = rig.input("now?");
    input.history_host = Some(HostText::new(items()));
    block_on(rig.client().run(input))
}

#[test]
fn every_request_carries_the_hosts_history_and_the_result_only_the_runs_own_messages() {
    for style in BOTH {
        let http = ScriptedHttp::splicing(vec![
            calls_reply(style, &[("call_1", "echo", json!({"x": 1}))]),
            text_reply(style, "done"),
        ]);
        let rig =
            Rig::new(style, http.clone()).tool(FnTool::returning("echo", ToolResult::ok("echoed")));
        let result = run_with_host_history(&rig).unwrap();
        assert_eq!(result.text, "done");
        assert_eq!(http.count(), 2);
        for n in 0..2 {
            let sent = http.request(n);
            assert!(
                sent.text.contains(&items()),
                "{style:?} request {n} holds the history verbatim"
            );
            assert!(
                !sent.text.contains('\u{0}'),
                "{style:?} request {n}: no mark is left"
            );
            let messages = sent.body["messages"].as_array().unwrap().clone();
            assert_eq!(
                messages[..2],
                history()[..],
                "{style:?} request {n} starts with the history"
            );
            assert_eq!(messages[2]["role"], "user");
        }
        assert_eq!(
            http.body(1)["messages"].as_array().unwrap().len(),
            5,
            "{style:?}"
        );
        assert_eq!(
            result.messages.len(),
            4,
            "{style:?}: only the run's own messages"
        );
        assert_eq!(result.messages[0]["role"], "user");
        assert!(!serde_json::to_string(&result.messages)
            .unwrap()
            .contains("earlier"));
    }
}

#[test]
fn no_system_message_is_added_after_a_kept_history() {
    let http = ScriptedHttp::splicing(vec![text_reply(Style::OpenAi, "ok")]);
    let mut rig = Rig::new(Style::OpenAi, http.clone());
    rig.config.system_prompt = "Be terse.".into();
    run_with_host_history(&rig).unwrap();
    let messages = http.body(0)["messages"].as_array().unwrap().clone();
    assert_eq!(messages.len(), 3);
    assert!(messages.iter().all(|m| m["role"] != "system"));
}

#[test]
fn a_transport_that_cannot_put_the_text_in_is_refused_before_anything_is_sent() {
    let http = ScriptedHttp::replies(vec![text_reply(Style::OpenAi, "never")]);
    let rig = Rig::new(Style::OpenAi, http.clone());
    assert!(!rig.client().takes_host_history());
    let error = run_with_host_history(&rig).unwrap_err();
    assert_eq!(error.code(), "invalid_options");
    assert_eq!(
        error.to_string(),
        "cannot continue the history: this client's transport cannot put in a history the host kept"
    );
    assert_eq!(http.count(), 0);
}

#[test]
fn a_hook_that_needs_the_messages_refuses_a_kept_history() {
    let before_llm = Rc::new(FakeHooks {
        observe_before_llm: true,
        ..FakeHooks::default()
    });
    let body_transform = Rc::new(FakeHooks {
        body_transform: Some(Box::new(|body: Value| Ok(body))),
        ..FakeHooks::default()
    });
    for (hooks, name) in [(before_llm, "beforeLLM"), (body_transform, "bodyTransform")] {
        let http = ScriptedHttp::splicing(vec![text_reply(Style::OpenAi, "never")]);
        let rig = Rig::new(Style::OpenAi, http.clone()).hooks(&hooks);
        assert!(!rig.client().takes_host_history(), "{name}");
        let error = run_with_host_history(&rig).unwrap_err();
        assert!(matches!(error, RunError::HostHistory(_)), "{name}: {error}");
        assert!(error.to_string().contains(name), "{name}: {error}");
        assert_eq!(http.count(), 0, "{name}");
    }
}

#[test]
fn a_splicing_transport_with_no_hooks_takes_a_kept_history() {
    let rig = Rig::new(Style::Anthropic, ScriptedHttp::splicing(vec![]));
    assert!(rig.client().takes_host_history());
}
