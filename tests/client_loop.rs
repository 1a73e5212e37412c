//! The agent loop (SPEC §8): turns, concurrent tool calls recorded in call order, the
//! transcript in each dialect's shape, usage, tool failures fed back, and `maxTurns`.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::ManualSignal;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::client::config::{ClientConfig, Style};
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::types::ToolResult;
use toolnexus::core::wire::Usage;
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

/// `name` returns `<name>:<args>`.
fn labelled(name: &str) -> Rc<FnTool> {
    let label = name.to_owned();
    FnTool::new(name, json!({"type": "object"}), move |args, _| {
        let out = format!("{label}:{args}");
        Box::pin(async move { ToolResult::ok(out) })
    })
}

fn turn1(style: Style) -> Value {
    let calls: [Call<'_>; 2] = [
        ("call_a", "a", json!({"x": 1})),
        ("call_b", "b", json!({"y": "z"})),
    ];
    match style {
        Style::OpenAi => openai_calls(&calls, Some((10, 5))),
        Style::Anthropic => anthropic_calls(&calls, Some((10, 5))),
    }
}

fn turn2(style: Style) -> Value {
    match style {
        Style::OpenAi => openai_text("It is done.", Some((20, 7))),
        Style::Anthropic => anthropic_text("It is done.", Some((20, 7))),
    }
}

/// The assistant entry a dialect appends for `response`.
fn assistant(style: Style, response: &Value) -> Value {
    match style {
        Style::OpenAi => response["choices"][0]["message"].clone(),
        Style::Anthropic => json!({"role": "assistant", "content": response["content"]}),
    }
}

/// The transcript entries for `(id, output, is_error)` results.
fn results(style: Style, list: &[(&str, &str, bool)]) -> Vec<Value> {
    match style {
        Style::OpenAi => list
            .iter()
            .map(|(id, out, _)| json!({"role": "tool", "tool_call_id": id, "content": out}))
            .collect(),
        Style::Anthropic => vec![json!({
            "role": "user",
            "content": list.iter().map(|(id, out, err)| json!({
                "type": "tool_result", "tool_use_id": id, "content": out, "is_error": err
            })).collect::<Vec<_>>()
        })],
    }
}

fn two_turn(style: Style) -> (Rig, RunResult) {
    let http = ScriptedHttp::replies(vec![ok_json(turn1(style)), ok_json(turn2(style))]);
    let rig = Rig::new(style, http)
        .tool(labelled("a"))
        .tool(labelled("b"));
    let result = rig.run("do it").unwrap();
    (rig, result)
}

#[test]
fn a_two_turn_run_returns_text_turns_calls_and_usage() {
    for style in BOTH {
        let (rig, result) = two_turn(style);
        assert_eq!(rig.http.count(), 2);
        assert_eq!(result.text, "It is done.");
        assert_eq!(result.turns, 2);
        assert_eq!(result.status, Status::Done);
        assert_eq!(result.model, MODEL);
        assert_eq!(result.tool_call_count, 2);
        let calls: Vec<_> = result
            .tool_calls
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.args.clone(),
                    c.output.as_str(),
                    c.is_error,
                )
            })
            .collect();
        assert_eq!(
            calls,
            vec![
                ("a", json!({"x": 1}), r#"a:{"x":1}"#, false),
                ("b", json!({"y": "z"}), r#"b:{"y":"z"}"#, false),
            ]
        );
        assert_eq!(
            result.usage,
            Usage {
                prompt_tokens: 30,
                completion_tokens: 12,
                total_tokens: 42
            }
        );
        assert_eq!(result.pending, None);
        assert_eq!(result.limit, None);
        assert_eq!(result.save_error, None);
    }
}

#[test]
fn the_transcript_has_the_dialects_shape() {
    for style in BOTH {
        let (rig, result) = two_turn(style);
        let mut expected = vec![json!({"role": "user", "content": "do it"})];
        expected.push(assistant(style, &turn1(style)));
        expected.extend(results(
            style,
            &[
                ("call_a", r#"a:{"x":1}"#, false),
                ("call_b", r#"b:{"y":"z"}"#, false),
            ],
        ));
        expected.push(assistant(style, &turn2(style)));
        assert_eq!(result.messages, expected, "{style:?}");
        // The second request carries everything but the final answer.
        let sent = rig.http.body(1)["messages"].clone();
        assert_eq!(sent, Value::Array(expected[..expected.len() - 1].to_vec()));
        assert_eq!(rig.http.body(0)["model"], json!(MODEL));
        assert_eq!(rig.http.body(1)["model"], json!(MODEL));
    }
}

#[test]
fn the_openai_assistant_message_is_kept_as_received() {
    let odd = json!({
        "choices": [{"message": {
            "role": "assistant",
            "content": "calling",
            "refusal": null,
            "tool_calls": [{"id": "c9", "type": "function", "function": {"name": "a", "arguments": "{}"}}],
            "vendor_field": {"k": [1, 2]}
        }}]
    });
    let http = ScriptedHttp::replies(vec![ok_json(odd.clone()), text_reply(Style::OpenAi, "ok")]);
    let result = Rig::new(Style::OpenAi, http)
        .tool(labelled("a"))
        .run("go")
        .unwrap();
    assert_eq!(result.messages[1], odd["choices"][0]["message"]);
}

#[test]
fn the_run_result_serializes_with_camel_case_keys() {
    let (_, result) = two_turn(Style::OpenAi);
    let value = serde_json::to_value(&result).unwrap();
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "text",
            "messages",
            "toolCalls",
            "toolCallCount",
            "turns",
            "usage",
            "model",
            "status",
        ]
    );
    assert_eq!(value["status"], json!("done"));
    assert_eq!(
        value["usage"],
        json!({"promptTokens": 30, "completionTokens": 12, "totalTokens": 42})
    );
    assert_eq!(
        value["toolCalls"][0],
        json!({"name": "a", "args": {"x": 1}, "output": "a:{\"x\":1}", "isError": false})
    );
    assert_eq!(value["toolCallCount"], json!(2));
    let back: RunResult = serde_json::from_value(value).unwrap();
    assert_eq!(back, result);
}

#[test]
fn usage_reads_each_dialects_shape() {
    // OpenAI: the provider's own total wins; a missing total is the sum.
    let http = ScriptedHttp::replies(vec![
        ok_json(json!({
            "choices": [{"message": {"role": "assistant", "content": null,
                "tool_calls": [{"id": "c", "type": "function", "function": {"name": "a", "arguments": "{}"}}]}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 100}
        })),
        ok_json(json!({
            "choices": [{"message": {"role": "assistant", "content": "x"}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 2}
        })),
    ]);
    let result = Rig::new(Style::OpenAi, http)
        .tool(labelled("a"))
        .run("go")
        .unwrap();
    assert_eq!(
        result.usage,
        Usage {
            prompt_tokens: 4,
            completion_tokens: 6,
            total_tokens: 103
        }
    );
    // Anthropic: input → prompt, output → completion, total = their sum.
    let http = ScriptedHttp::replies(vec![ok_json(anthropic_text("x", Some((11, 13))))]);
    let result = Rig::new(Style::Anthropic, http).run("go").unwrap();
    assert_eq!(
        result.usage,
        Usage {
            prompt_tokens: 11,
            completion_tokens: 13,
            total_tokens: 24
        }
    );
    // No usage at all: zeros.
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![text_reply(style, "x")]);
        assert_eq!(
            Rig::new(style, http).run("go").unwrap().usage,
            Usage::default()
        );
    }
}

#[test]
fn a_turns_tool_calls_run_concurrently_and_are_recorded_in_call_order() {
    for style in BOTH {
        for with_signal in [false, true] {
            let gate = Rc::new(ManualSignal::default());
            let log = Rc::new(RefCell::new(Vec::new()));
            let http = ScriptedHttp::replies(vec![
                calls_reply(
                    style,
                    &[("c1", "slow", json!({})), ("c2", "quick", json!({}))],
                ),
                text_reply(style, "both done"),
            ]);
            let mut rig = Rig::new(style, http)
                .tool(waits_for("slow", gate.clone(), log.clone(), "slow result"))
                .tool(fires("quick", gate.clone(), log.clone(), "quick result"));
            if with_signal {
                rig = rig.signal(&Rc::new(ManualSignal::default()));
            }
            let result = rig.run("go").unwrap();
            // `slow` could only finish because `quick` started while it was waiting.
            assert_eq!(
                *log.borrow(),
                ["start:slow", "start:quick", "end:quick", "end:slow"],
                "{style:?}"
            );
            assert_eq!(result.text, "both done");
            let names: Vec<_> = result.tool_calls.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["slow", "quick"]);
            let expected = results(
                style,
                &[("c1", "slow result", false), ("c2", "quick result", false)],
            );
            assert_eq!(
                result.messages[2..2 + expected.len()],
                expected[..],
                "{style:?}"
            );
        }
    }
}

#[test]
fn a_call_to_an_unknown_tool_is_fed_back_and_the_run_goes_on() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "nope", json!({"q": 1}))]),
            text_reply(style, "sorry"),
        ]);
        let rig = Rig::new(style, http).tool(labelled("a"));
        let result = rig.run("go").unwrap();
        let message = "Unknown tool: nope. Available tools: a";
        assert_eq!(result.status, Status::Done);
        assert_eq!(result.text, "sorry");
        assert_eq!(result.tool_calls[0].output, message);
        assert!(result.tool_calls[0].is_error);
        assert_eq!(result.tool_calls[0].name, "nope");
        let fed = results(style, &[("c1", message, true)]);
        assert_eq!(result.messages[2], fed[0]);
        assert_eq!(rig.http.body(1)["messages"][2], fed[0]);
    }
}

#[test]
fn openai_arguments_that_are_not_json_are_an_error_and_the_tool_does_not_run() {
    let tool = labelled("a");
    let http = ScriptedHttp::replies(vec![
        ok_json(openai_raw_calls(
            vec![
                json!({"id": "c1", "type": "function", "function": {"name": "a", "arguments": "{\"x\": 1"}}),
            ],
            None,
        )),
        text_reply(Style::OpenAi, "retrying"),
    ]);
    let rig = Rig::new(Style::OpenAi, http).tool(tool.clone());
    let result = rig.run("go").unwrap();
    assert_eq!(tool.count(), 0);
    let record = &result.tool_calls[0];
    assert!(record.is_error);
    assert!(
        record
            .output
            .starts_with("Invalid arguments for tool \"a\": not valid JSON"),
        "{}",
        record.output
    );
    assert_eq!(record.args, json!({}));
    assert_eq!(result.messages[2]["content"], json!(record.output));
    assert_eq!(result.text, "retrying");
}

#[test]
fn openai_empty_or_missing_arguments_are_an_empty_object() {
    for args in [json!(""), json!("   "), Value::Null] {
        let tool = labelled("a");
        let mut function = json!({"name": "a"});
        if !args.is_null() {
            function
                .as_object_mut()
                .unwrap()
                .insert("arguments".into(), args.clone());
        }
        let http = ScriptedHttp::replies(vec![
            ok_json(openai_raw_calls(
                vec![json!({"id": "c1", "type": "function", "function": function})],
                None,
            )),
            text_reply(Style::OpenAi, "ok"),
        ]);
        let result = Rig::new(Style::OpenAi, http)
            .tool(tool.clone())
            .run("go")
            .unwrap();
        assert_eq!(tool.args(), vec![json!({})], "{args}");
        assert!(!result.tool_calls[0].is_error);
    }
}

#[test]
fn arguments_failing_the_schema_are_a_validation_error() {
    for style in BOTH {
        let schema = json!({
            "type": "object",
            "properties": {"n": {"type": "number"}},
            "required": ["n"]
        });
        let tool = FnTool::new("count", schema, |_, _| {
            Box::pin(async { ToolResult::ok("ran") })
        });
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "count", json!({"n": "three"}))]),
            text_reply(style, "fixed"),
        ]);
        let result = Rig::new(style, http).tool(tool.clone()).run("go").unwrap();
        assert_eq!(tool.count(), 0, "{style:?}");
        let record = &result.tool_calls[0];
        assert!(record.is_error);
        assert!(
            record
                .output
                .starts_with("Invalid arguments for tool \"count\": "),
            "{}",
            record.output
        );
        assert_eq!(record.args, json!({"n": "three"}));
        assert_eq!(result.text, "fixed");
    }
}

#[test]
fn arguments_that_are_not_an_object_are_refused() {
    let tool = labelled("a");
    let http = ScriptedHttp::replies(vec![
        ok_json(anthropic_content(
            vec![json!({"type": "tool_use", "id": "t1", "name": "a", "input": [1, 2]})],
            "tool_use",
            None,
        )),
        text_reply(Style::Anthropic, "ok"),
    ]);
    let result = Rig::new(Style::Anthropic, http)
        .tool(tool.clone())
        .run("go")
        .unwrap();
    assert_eq!(tool.count(), 0);
    assert_eq!(
        result.tool_calls[0].output,
        "Invalid arguments for tool \"a\": arguments must be a JSON object, got array"
    );
}

#[test]
fn a_tool_returning_an_error_is_fed_back_with_is_error() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "f", json!({})), ("c2", "a", json!({}))]),
            text_reply(style, "handled"),
        ]);
        let rig = Rig::new(style, http)
            .tool(failing("f", "disk on fire"))
            .tool(labelled("a"));
        let result = rig.run("go").unwrap();
        assert_eq!(result.status, Status::Done);
        assert!(result.tool_calls[0].is_error);
        assert!(!result.tool_calls[1].is_error);
        let expected = results(
            style,
            &[("c1", "disk on fire", true), ("c2", "a:{}", false)],
        );
        assert_eq!(result.messages[2..2 + expected.len()], expected[..]);
    }
}

#[test]
fn an_empty_tool_output_and_an_empty_final_answer() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "e", json!({}))]),
            text_reply(style, ""),
        ]);
        let rig = Rig::new(style, http).tool(FnTool::returning("e", ToolResult::ok("")));
        let result = rig.run("go").unwrap();
        assert_eq!(result.text, "");
        assert_eq!(result.status, Status::Done);
        assert_eq!(result.turns, 2);
        assert_eq!(result.tool_calls[0].output, "");
        assert_eq!(result.messages[2], results(style, &[("c1", "", false)])[0]);
    }
    // OpenAI `content: null` with no tool calls is a final, empty answer.
    let http = ScriptedHttp::replies(vec![ok_json(
        json!({"choices": [{"message": {"role": "assistant", "content": null}}]}),
    )]);
    let result = Rig::new(Style::OpenAi, http).run("go").unwrap();
    assert_eq!((result.text.as_str(), result.status), ("", Status::Done));
    // Anthropic: an empty content array is too.
    let http = ScriptedHttp::replies(vec![ok_json(anthropic_content(vec![], "end_turn", None))]);
    let result = Rig::new(Style::Anthropic, http).run("go").unwrap();
    assert_eq!((result.text.as_str(), result.status), ("", Status::Done));
}

#[test]
fn anthropic_text_blocks_are_joined_and_other_blocks_ignored() {
    let http = ScriptedHttp::replies(vec![ok_json(anthropic_content(
        vec![
            json!({"type": "thinking", "thinking": "hmm"}),
            json!({"type": "text", "text": "Hello, "}),
            json!({"type": "text", "text": "world"}),
        ],
        "end_turn",
        None,
    ))]);
    assert_eq!(
        Rig::new(Style::Anthropic, http).run("go").unwrap().text,
        "Hello, world"
    );
}

#[test]
fn calls_without_an_id_get_generated_ids_that_match_their_results() {
    let http = ScriptedHttp::replies(vec![
        ok_json(anthropic_content(
            vec![
                json!({"type": "tool_use", "name": "a", "input": {}}),
                json!({"type": "tool_use", "id": "", "name": "a", "input": {"k": 1}}),
            ],
            "tool_use",
            None,
        )),
        text_reply(Style::Anthropic, "ok"),
    ]);
    let result = Rig::new(Style::Anthropic, http)
        .tool(labelled("a"))
        .run("go")
        .unwrap();
    let ids: Vec<_> = result.messages[2]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["tool_use_id"].clone())
        .collect();
    assert_eq!(ids, [json!("call_0"), json!("call_1")]);

    let http = ScriptedHttp::replies(vec![
        ok_json(openai_raw_calls(
            vec![
                json!({"type": "function", "function": {"name": "a", "arguments": "{}"}}),
                json!({"id": "given", "type": "function", "function": {"name": "a", "arguments": "{}"}}),
            ],
            None,
        )),
        text_reply(Style::OpenAi, "ok"),
    ]);
    let result = Rig::new(Style::OpenAi, http)
        .tool(labelled("a"))
        .run("go")
        .unwrap();
    assert_eq!(result.messages[2]["tool_call_id"], json!("call_0"));
    assert_eq!(result.messages[3]["tool_call_id"], json!("given"));
}

#[test]
fn tool_results_are_fed_back_each_turn() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(style, &[("c1", "a", json!({"n": 1}))]),
            calls_reply(style, &[("c2", "a", json!({"n": 2}))]),
            text_reply(style, "three turns"),
        ]);
        let rig = Rig::new(style, http).tool(labelled("a"));
        let result = rig.run("go").unwrap();
        assert_eq!(result.turns, 3);
        assert_eq!(result.tool_call_count, 2);
        assert_eq!(rig.http.count(), 3);
        let last = rig.http.body(2)["messages"].as_array().unwrap().len();
        assert_eq!(last, result.messages.len() - 1);
    }
}

fn always_calls(style: Style) -> Rc<ScriptedHttp> {
    ScriptedHttp::with(move |_, n| {
        let id = format!("c{n}");
        calls_reply(style, &[(id.as_str(), "a", json!({"n": n}))])
    })
}

#[test]
fn max_turns_stops_the_run_as_incomplete() {
    for style in BOTH {
        let mut rig = Rig::new(style, always_calls(style)).tool(labelled("a"));
        rig.config.max_turns = 3;
        let result = rig.run("loop forever").unwrap();
        assert_eq!(result.status, Status::Incomplete, "{style:?}");
        assert_eq!(result.limit.as_deref(), Some("maxTurns"));
        assert_eq!(result.turns, 3);
        assert_eq!(rig.http.count(), 3);
        assert_eq!(result.tool_call_count, 3);
        assert_eq!(result.text, "");
        assert_eq!(result.pending, None);
        let value = serde_json::to_value(&result).unwrap();
        assert_eq!(value["status"], json!("incomplete"));
        assert_eq!(value["limit"], json!("maxTurns"));
        assert!(value.get("pending").is_none());
    }
}

#[test]
fn max_turns_defaults_to_ten() {
    assert_eq!(ClientConfig::new(Style::OpenAi, BASE, MODEL).max_turns, 10);
    for style in BOTH {
        let rig = Rig::new(style, always_calls(style)).tool(labelled("a"));
        let result = rig.run("loop forever").unwrap();
        assert_eq!(rig.http.count(), 10);
        assert_eq!(result.turns, 10);
        assert_eq!(result.status, Status::Incomplete);
    }
}

#[test]
fn max_turns_with_text_on_the_last_turn_is_done() {
    // The last turn spoke as well as calling a tool: that text is the answer (reference JS
    // `lastText` on the OpenAI path).
    let http = ScriptedHttp::with(|_, _| {
        ok_json(
            json!({"choices": [{"message": {"role": "assistant", "content": "still working",
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "a", "arguments": "{}"}}]}}]}),
        )
    });
    let mut rig = Rig::new(Style::OpenAi, http).tool(labelled("a"));
    rig.config.max_turns = 2;
    let result = rig.run("go").unwrap();
    assert_eq!(result.status, Status::Done);
    assert_eq!(result.text, "still working");
    assert_eq!(result.limit, None);
}

#[test]
fn max_turns_zero_makes_no_call() {
    let mut rig = Rig::new(Style::OpenAi, always_calls(Style::OpenAi));
    rig.config.max_turns = 0;
    let result = rig.run("go").unwrap();
    assert_eq!(rig.http.count(), 0);
    assert_eq!(result.turns, 0);
    assert_eq!(result.status, Status::Incomplete);
}

#[test]
fn a_tool_gets_the_run_signal_in_its_context() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let s = seen.clone();
    let tool = FnTool::new("a", json!({"type": "object"}), move |_, ctx| {
        s.borrow_mut()
            .push((ctx.signal.is_some(), ctx.answer.is_none()));
        Box::pin(async { ToolResult::ok("x") })
    });
    let http = ScriptedHttp::replies(vec![
        calls_reply(Style::OpenAi, &[("c", "a", json!({}))]),
        text_reply(Style::OpenAi, "ok"),
    ]);
    Rig::new(Style::OpenAi, http)
        .tool(tool)
        .signal(&Rc::new(ManualSignal::default()))
        .run("go")
        .unwrap();
    assert_eq!(*seen.borrow(), [(true, true)]);
}

#[test]
fn history_is_continued() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![text_reply(style, "second")]);
        let mut rig = Rig::new(style, http);
        rig.history = vec![
            json!({"role": "user", "content": "first"}),
            json!({"role": "assistant", "content": "reply"}),
        ];
        let result = rig.run("again").unwrap();
        assert_eq!(result.messages.len(), 4);
        assert_eq!(
            result.messages[2],
            json!({"role": "user", "content": "again"})
        );
        assert_eq!(rig.http.body(0)["messages"].as_array().unwrap().len(), 3);
    }
}
