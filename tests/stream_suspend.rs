//! Streamed runs and suspension, memory and hooks: `pending` is emitted before `waitFor` runs, a
//! suspension without `waitFor` halts as pending, `afterLLM` gets `{streamed: true, usage}` per
//! call, and a streamed `ask` loads and saves its history.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::sse::*;
use common::stream::*;
use common::{echo, shared};
use futures_executor::block_on;
use std::cell::Cell;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::hooks::WaitFor;
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::client::telemetry::StreamEvent;
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::types::Request;
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

/// A rig recording events, and the transport it will use.
fn rig(
    style: Style,
    script: Vec<Result<Streamed, toolnexus::core::host::HttpError>>,
) -> (Rig, Rc<StreamHttp>, Rc<Recorder>) {
    let mut rig =
        Rig::new(style, ScriptedHttp::replies(vec![])).tool(shared(&echo("get_weather", "native")));
    let recorder = Rc::new(Recorder::default());
    rig.events = Some(Rc::new(RecordEvents(recorder.clone())));
    (rig, StreamHttp::new(script), recorder)
}

fn run(rig: &Rig, http: &Rc<StreamHttp>, prompt: &str) -> Result<RunResult, RunError> {
    let mut client = rig.client();
    client.http = http.clone();
    block_on(client.run(rig.input(prompt)))
}

fn weather_call() -> Vec<Call<'static>> {
    vec![(
        "call_1",
        "get_weather",
        json!({"city": "Paris", "note": "été 😀"}),
    )]
}

fn two_turns(style: Style, cut: &Cut) -> Vec<Result<Streamed, toolnexus::core::host::HttpError>> {
    vec![
        Ok(Streamed::ok(
            stream_of(style, &[], &weather_call(), (10, 5)),
            cut.clone(),
        )),
        Ok(Streamed::ok(
            stream_of(style, &["Sun", "ny ☀", " in Paris."], &[], (20, 7)),
            cut.clone(),
        )),
    ]
}

/// A `waitFor` that notes whether the `pending` event was already out when it was called.
struct WatchingWaitFor {
    events: Rc<Recorder>,
    saw_pending_first: Cell<Option<bool>>,
}

impl WaitFor for WatchingWaitFor {
    fn wait_for(&self, request: &Request) -> LocalBoxFuture<'static, Result<Value, String>> {
        self.saw_pending_first.set(Some(self.events.saw_pending()));
        let id = request.id.clone();
        Box::pin(async move { Ok(json!({"id": id, "ok": true})) })
    }
}

fn approve_script(style: Style) -> Vec<Result<Streamed, toolnexus::core::host::HttpError>> {
    vec![
        Ok(Streamed::ok(
            stream_of(style, &[], &[("c1", "send", json!({"to": "bob"}))], (1, 1)),
            Cut::Every(5),
        )),
        Ok(Streamed::ok(
            stream_of(style, &["sent"], &[], (1, 1)),
            Cut::Every(5),
        )),
    ]
}

#[test]
fn pending_is_emitted_before_wait_for_runs() {
    for style in BOTH {
        let (rig, http, events) = rig(style, approve_script(style));
        let wait = Rc::new(WatchingWaitFor {
            events: events.clone(),
            saw_pending_first: Cell::new(None),
        });
        let rig = rig
            .tool(asking(
                "send",
                request("req-1", "approval", "Send it?"),
                false,
            ))
            .wait_for(wait.clone());
        let result = run(&rig, &http, "email bob").unwrap();
        assert_eq!(wait.saw_pending_first.get(), Some(true), "{style:?}");
        assert_eq!(result.status, Status::Done);
        assert_eq!(result.text, "sent");
        assert_eq!(
            events.kinds(),
            [
                "tool_call:send",
                "pending:approval",
                "tool_result:send",
                "text:sent",
                "usage"
            ]
        );
        let all = events.all();
        assert_eq!(
            all[1],
            StreamEvent::Pending {
                request: request("req-1", "approval", "Send it?")
            }
        );
        let StreamEvent::ToolResult {
            output, is_error, ..
        } = &all[2]
        else {
            panic!("{all:?}")
        };
        assert!(output.starts_with("answered {\"to\":\"bob\"}"), "{output}");
        assert!(!is_error);
    }
}

#[test]
fn a_streamed_suspension_without_wait_for_halts_as_pending() {
    for style in BOTH {
        let (rig, http, events) = rig(style, approve_script(style));
        let rig = rig.tool(asking(
            "send",
            request("req-2", "approval", "Send it?"),
            false,
        ));
        let result = run(&rig, &http, "email bob").unwrap();
        assert_eq!(result.status, Status::Pending, "{style:?}");
        assert_eq!(
            result.pending,
            Some(request("req-2", "approval", "Send it?"))
        );
        assert_eq!(result.text, "Send it?");
        assert_eq!(http.count(), 1, "no second model call");
        assert_eq!(
            events.kinds(),
            ["tool_call:send", "pending:approval", "usage"]
        );
    }
}

#[test]
fn after_llm_gets_streamed_true_and_each_calls_usage() {
    for style in BOTH {
        let (rig, http, _) = rig(style, two_turns(style, &Cut::Every(4)));
        let hooks = Rc::new(FakeHooks {
            observe_after_llm: true,
            ..FakeHooks::default()
        });
        let rig = rig.hooks(&hooks);
        run(&rig, &http, "weather?").unwrap();
        let seen: Vec<Value> = hooks
            .after_llm_seen
            .borrow()
            .iter()
            .map(|(r, _, _)| r.clone())
            .collect();
        assert_eq!(
            seen,
            [
                json!({"streamed": true, "usage": {"promptTokens": 10, "completionTokens": 5, "totalTokens": 15}}),
                json!({"streamed": true, "usage": {"promptTokens": 20, "completionTokens": 7, "totalTokens": 27}}),
            ],
            "{style:?}"
        );
    }
}

#[test]
fn a_streamed_ask_loads_and_saves_history() {
    for style in BOTH {
        let (rig, http, events) = rig(
            style,
            vec![
                Ok(Streamed::ok(
                    stream_of(style, &["I am ", "Ada's bot"], &[], (1, 1)),
                    Cut::Every(2),
                )),
                Ok(Streamed::ok(
                    stream_of(style, &["again"], &[], (1, 1)),
                    Cut::Every(2),
                )),
            ],
        );
        let store: Rc<InMemoryStore> = Rc::new(InMemoryStore::default());
        let mut client = rig.client();
        client.http = http.clone();
        let first = block_on(client.ask(store.clone(), "t1".into(), rig.input("who?"))).unwrap();
        assert_eq!(first.text, "I am Ada's bot");
        let saved = block_on(store.get("t1")).unwrap().unwrap();
        assert_eq!(saved, first.messages);
        block_on(client.ask(store.clone(), "t1".into(), rig.input("and now?"))).unwrap();
        let sent = http.body(1)["messages"].as_array().unwrap().clone();
        assert_eq!(
            &sent[..first.messages.len()],
            &first.messages[..],
            "{style:?}"
        );
        assert_eq!(events.text(), "I am Ada's botagain");
        assert_eq!(
            block_on(store.get("t1")).unwrap().unwrap().len(),
            first.messages.len() + 2
        );
    }
}
