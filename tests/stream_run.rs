//! Streamed runs through `Client` over a transport whose body arrives in chunks: the same
//! result as a plain run for any chunking, the event order, and `stream: true` bodies (only for
//! streamed runs).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::sse::*;
use common::stream::*;
use common::{echo, shared};
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::result::RunResult;
use toolnexus::core::client::telemetry::StreamEvent;
use toolnexus::core::wire::Usage;
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn cuts() -> Vec<Cut> {
    vec![
        Cut::Whole,
        Cut::Every(1),
        Cut::Every(2),
        Cut::Sizes(vec![3, 7, 1, 13, 64]),
    ]
}

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

/// The same two turns answered whole, without streaming.
fn plain_result(style: Style) -> RunResult {
    let replies = match style {
        Style::OpenAi => vec![
            ok_json(openai_calls(&weather_call(), Some((10, 5)))),
            ok_json(openai_text("Sunny ☀ in Paris.", Some((20, 7)))),
        ],
        Style::Anthropic => vec![
            ok_json(anthropic_calls(&weather_call(), Some((10, 5)))),
            ok_json(anthropic_text("Sunny ☀ in Paris.", Some((20, 7)))),
        ],
    };
    Rig::new(style, ScriptedHttp::replies(replies))
        .tool(shared(&echo("get_weather", "native")))
        .run("weather?")
        .unwrap()
}

#[test]
fn a_streamed_run_gives_the_plain_runs_result_for_every_chunking() {
    for style in BOTH {
        let plain = plain_result(style);
        for cut in cuts() {
            let (rig, http, _) = rig(style, two_turns(style, &cut));
            let streamed = run(&rig, &http, "weather?").unwrap();
            assert_eq!(streamed, plain, "{style:?} {cut:?}");
            assert_eq!(
                streamed.usage,
                Usage {
                    prompt_tokens: 30,
                    completion_tokens: 12,
                    total_tokens: 42
                }
            );
            assert_eq!(
                (http.opened.get(), http.sent_whole.get()),
                (2, 0),
                "every call is opened as a stream"
            );
        }
    }
}

#[test]
fn the_events_come_in_order_and_end_with_usage() {
    for style in BOTH {
        let (rig, http, events) = rig(style, two_turns(style, &Cut::Every(3)));
        run(&rig, &http, "weather?").unwrap();
        assert_eq!(
            events.kinds(),
            [
                "tool_call:get_weather",
                "tool_result:get_weather",
                "text:Sun",
                "text:ny ☀",
                "text: in Paris.",
                "usage"
            ],
            "{style:?}"
        );
        let all = events.all();
        assert_eq!(
            all[0],
            StreamEvent::ToolCall {
                id: "call_1".into(),
                name: "get_weather".into(),
                args: json!({"city": "Paris", "note": "été 😀"})
            }
        );
        let StreamEvent::ToolResult {
            id,
            output,
            is_error,
            ..
        } = &all[1]
        else {
            panic!("{all:?}")
        };
        assert_eq!((id.as_str(), *is_error), ("call_1", false));
        assert_eq!(
            serde_json::from_str::<Value>(output).unwrap(),
            json!({"city": "Paris", "note": "été 😀"})
        );
        assert_eq!(
            all[5],
            StreamEvent::Usage {
                usage: Usage {
                    prompt_tokens: 30,
                    completion_tokens: 12,
                    total_tokens: 42
                }
            }
        );
        assert!(
            !events.kinds().contains(&"done".to_owned()),
            "done is the glue's to emit"
        );
    }
}

#[test]
fn streamed_requests_ask_for_a_stream() {
    for style in BOTH {
        let (rig, http, _) = rig(style, two_turns(style, &Cut::Whole));
        run(&rig, &http, "weather?").unwrap();
        for n in 0..2 {
            let body = http.body(n);
            assert_eq!(body["stream"], json!(true), "{style:?}");
            match style {
                Style::OpenAi => assert_eq!(body["stream_options"], json!({"include_usage": true})),
                Style::Anthropic => assert!(body.get("stream_options").is_none()),
            }
        }
    }
}

#[test]
fn a_plain_run_never_asks_for_a_stream() {
    for style in BOTH {
        let (mut rig, http, _) = rig(
            style,
            vec![Ok(Streamed::ok(
                serde_json::to_string(&match style {
                    Style::OpenAi => openai_text("plain", None),
                    Style::Anthropic => anthropic_text("plain", None),
                })
                .unwrap(),
                Cut::Whole,
            ))],
        );
        rig.events = None;
        assert_eq!(run(&rig, &http, "hi").unwrap().text, "plain");
        assert_eq!((http.opened.get(), http.sent_whole.get()), (0, 1));
        assert!(http.body(0).get("stream").is_none());
    }
}

#[test]
fn text_and_tool_calls_in_one_streamed_turn() {
    for style in BOTH {
        let script = vec![
            Ok(Streamed::ok(
                stream_of(style, &["Let me ", "look."], &weather_call(), (2, 3)),
                Cut::Every(7),
            )),
            Ok(Streamed::ok(
                stream_of(style, &["Done."], &[], (1, 1)),
                Cut::Whole,
            )),
        ];
        let (rig, http, events) = rig(style, script);
        let result = run(&rig, &http, "weather?").unwrap();
        assert_eq!(
            events.kinds(),
            [
                "text:Let me ",
                "text:look.",
                "tool_call:get_weather",
                "tool_result:get_weather",
                "text:Done.",
                "usage"
            ],
            "{style:?}"
        );
        assert_eq!(result.text, "Done.");
        assert_eq!(result.tool_call_count, 1);
    }
}
