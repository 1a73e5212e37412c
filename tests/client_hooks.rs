//! Lifecycle hooks (SPEC §8 Hooks) and the body transform: what each sees, what each may
//! replace, and a failing hook stopping the run with its name.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::hooks::{LlmOverride, ToolOverride};
use toolnexus::core::client::result::Status;
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn echo_tool(name: &str) -> Rc<FnTool> {
    let label = name.to_owned();
    FnTool::new(name, json!({"type": "object"}), move |args, _| {
        let out = format!("{label} ran with {args}");
        Box::pin(async move { ToolResult::ok(out) })
    })
}

/// Turn 1 calls `a` with `{q: 1}`; turn 2 answers "done".
fn script(style: Style) -> Rc<ScriptedHttp> {
    ScriptedHttp::replies(vec![
        calls_reply(style, &[("c1", "a", json!({"q": 1}))]),
        text_reply(style, "done"),
    ])
}

fn rig_with(style: Style, hooks: &Rc<FakeHooks>) -> (Rig, Rc<FnTool>) {
    let tool = echo_tool("a");
    (
        Rig::new(style, script(style))
            .tool(tool.clone())
            .hooks(hooks),
        tool,
    )
}

#[test]
fn hooks_are_called_in_lifecycle_order() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            observe_before_llm: true,
            observe_after_llm: true,
            ..FakeHooks::default()
        });
        let (rig, _) = rig_with(style, &hooks);
        rig.run("go").unwrap();
        assert_eq!(
            hooks.log(),
            [
                "beforeLLM#0",
                "afterLLM#0",
                "beforeTool:a#c1",
                "afterTool:a#c1",
                "beforeLLM#1",
                "afterLLM#1"
            ],
            "{style:?}"
        );
        let seen = hooks.before_tool_seen.borrow();
        assert_eq!(seen[0].call.name, "a");
        assert_eq!(seen[0].call.id, "c1");
        assert_eq!(seen[0].call.turn, 0);
        assert_eq!(seen[0].args, json!({"q": 1}));
    }
}

#[test]
fn before_llm_sees_the_transcript_tools_model_and_turn() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            observe_before_llm: true,
            ..FakeHooks::default()
        });
        let (rig, _) = rig_with(style, &hooks);
        let result = rig.run("go").unwrap();
        let seen = hooks.before_llm_seen.borrow();
        assert_eq!(seen.len(), 2);
        assert_eq!(
            seen[0].messages,
            vec![json!({"role": "user", "content": "go"})]
        );
        assert_eq!(seen[0].model, MODEL);
        assert_eq!((seen[0].turn, seen[1].turn), (0, 1));
        assert_eq!(seen[0].tools, rig.http.body(0)["tools"]);
        assert_eq!(
            seen[1].messages,
            result.messages[..result.messages.len() - 1]
        );
    }
}

#[test]
fn before_llm_replacements_persist_for_the_rest_of_the_run() {
    for style in BOTH {
        let custom_tools = match style {
            Style::OpenAi => {
                json!([{"type": "function", "function": {"name": "a", "description": "swapped", "parameters": {"type": "object"}}}])
            }
            Style::Anthropic => {
                json!([{"name": "a", "description": "swapped", "input_schema": {"type": "object"}}])
            }
        };
        let replacement = custom_tools.clone();
        let hooks = Rc::new(FakeHooks {
            before_llm: Some(Box::new(move |_, _, turn| {
                Ok(if turn == 0 {
                    LlmOverride {
                        messages: Some(vec![json!({"role": "user", "content": "compacted"})]),
                        tools: Some(replacement.clone()),
                    }
                } else {
                    LlmOverride::default()
                })
            })),
            ..FakeHooks::default()
        });
        let (rig, tool) = rig_with(style, &hooks);
        let result = rig.run("go").unwrap();
        let first = rig.http.body(0);
        assert_eq!(
            first["messages"],
            json!([{"role": "user", "content": "compacted"}])
        );
        assert_eq!(first["tools"], custom_tools);
        // Turn 2 continues the replaced transcript with the replaced tools.
        let second = rig.http.body(1);
        assert_eq!(
            second["messages"][0],
            json!({"role": "user", "content": "compacted"})
        );
        assert_eq!(second["messages"].as_array().unwrap().len(), 3);
        assert_eq!(second["tools"], custom_tools, "{style:?}");
        assert_eq!(
            result.messages[0],
            json!({"role": "user", "content": "compacted"})
        );
        assert_eq!(tool.count(), 1, "routing still uses the toolkit");
        if style == Style::OpenAi {
            assert_eq!(second["tool_choice"], json!("auto"));
        }
    }
}

#[test]
fn before_llm_emptying_the_tools_omits_them() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            before_llm: Some(Box::new(|_, _, _| {
                Ok(LlmOverride {
                    messages: None,
                    tools: Some(json!([])),
                })
            })),
            ..FakeHooks::default()
        });
        let (rig, _) = rig_with(style, &hooks);
        rig.run("go").unwrap();
        for n in 0..2 {
            let body = rig.http.body(n);
            assert!(body.get("tools").is_none(), "{style:?} turn {n}");
            assert!(body.get("tool_choice").is_none());
        }
    }
}

#[test]
fn after_llm_receives_the_raw_response() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            observe_after_llm: true,
            ..FakeHooks::default()
        });
        let responses = match style {
            Style::OpenAi => vec![
                openai_calls(&[("c1", "a", json!({"q": 1}))], Some((1, 2))),
                openai_text("done", Some((3, 4))),
            ],
            Style::Anthropic => vec![
                anthropic_calls(&[("c1", "a", json!({"q": 1}))], Some((1, 2))),
                anthropic_text("done", Some((3, 4))),
            ],
        };
        let http = ScriptedHttp::replies(responses.iter().cloned().map(ok_json).collect());
        let rig = Rig::new(style, http).tool(echo_tool("a")).hooks(&hooks);
        rig.run("go").unwrap();
        let seen = hooks.after_llm_seen.borrow();
        assert_eq!(
            *seen,
            vec![
                (responses[0].clone(), MODEL.to_owned(), 0),
                (responses[1].clone(), MODEL.to_owned(), 1)
            ]
        );
    }
}

#[test]
fn before_tool_can_rewrite_the_arguments() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            before_tool: Some(Box::new(|_, args| {
                let mut args = args.clone();
                args.as_object_mut().unwrap().insert("q".into(), json!(2));
                args.as_object_mut()
                    .unwrap()
                    .insert("added".into(), json!(true));
                Ok(ToolOverride {
                    result: None,
                    args: Some(args),
                })
            })),
            ..FakeHooks::default()
        });
        let (rig, tool) = rig_with(style, &hooks);
        let result = rig.run("go").unwrap();
        let new_args = json!({"q": 2, "added": true});
        assert_eq!(tool.args(), vec![new_args.clone()]);
        assert_eq!(result.tool_calls[0].args, new_args);
        assert_eq!(
            result.tool_calls[0].output,
            r#"a ran with {"q":2,"added":true}"#
        );
        assert_eq!(hooks.after_tool_seen.borrow()[0].args, new_args);
    }
}

#[test]
fn rewritten_arguments_are_still_validated() {
    let hooks = Rc::new(FakeHooks {
        before_tool: Some(Box::new(|_, _| {
            Ok(ToolOverride {
                result: None,
                args: Some(json!({"n": "not a number"})),
            })
        })),
        ..FakeHooks::default()
    });
    let schema = json!({"type": "object", "properties": {"n": {"type": "number"}}});
    let tool = FnTool::new("a", schema, |_, _| {
        Box::pin(async { ToolResult::ok("ran") })
    });
    let rig = Rig::new(Style::OpenAi, script(Style::OpenAi))
        .tool(tool.clone())
        .hooks(&hooks);
    let result = rig.run("go").unwrap();
    assert_eq!(tool.count(), 0);
    assert!(result.tool_calls[0].is_error);
}

#[test]
fn before_tool_can_short_circuit_with_a_result() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            before_tool: Some(Box::new(|_, _| {
                Ok(ToolOverride {
                    result: Some(ToolResult::error("denied by policy")),
                    args: None,
                })
            })),
            ..FakeHooks::default()
        });
        let (rig, tool) = rig_with(style, &hooks);
        let result = rig.run("go").unwrap();
        assert_eq!(tool.count(), 0, "{style:?}: the real tool never runs");
        assert_eq!(
            hooks.after_tool_seen.borrow().len(),
            0,
            "afterTool does not run"
        );
        let record = &result.tool_calls[0];
        assert_eq!(
            (record.output.as_str(), record.is_error),
            ("denied by policy", true)
        );
        let text = serde_json::to_string(&rig.http.body(1)["messages"]).unwrap();
        assert!(text.contains("denied by policy"));
        assert_eq!(result.status, Status::Done);
    }
}

#[test]
fn before_tool_can_short_circuit_a_call_to_an_unknown_tool() {
    let hooks = Rc::new(FakeHooks {
        before_tool: Some(Box::new(|_, _| {
            Ok(ToolOverride {
                result: Some(ToolResult::ok("cached")),
                args: None,
            })
        })),
        ..FakeHooks::default()
    });
    let http = ScriptedHttp::replies(vec![
        calls_reply(Style::OpenAi, &[("c1", "ghost", json!({}))]),
        text_reply(Style::OpenAi, "ok"),
    ]);
    let result = Rig::new(Style::OpenAi, http)
        .hooks(&hooks)
        .run("go")
        .unwrap();
    assert_eq!(result.tool_calls[0].output, "cached");
    assert!(!result.tool_calls[0].is_error);
}

#[test]
fn after_tool_can_replace_the_result() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            after_tool: Some(Box::new(|call, _, result| {
                Ok(Some(ToolResult::ok(format!(
                    "[{}] {}",
                    call.name,
                    result.output.replace("ran", "RAN")
                ))))
            })),
            ..FakeHooks::default()
        });
        let (rig, _) = rig_with(style, &hooks);
        let result = rig.run("go").unwrap();
        let output = r#"[a] a RAN with {"q":1}"#;
        assert_eq!(result.tool_calls[0].output, output);
        let text = serde_json::to_string(&result.messages[2]).unwrap();
        assert!(
            text.contains(&serde_json::to_string(output).unwrap()),
            "{text}"
        );
        // afterTool saw the tool's own result.
        let seen = hooks.after_tool_seen.borrow();
        assert_eq!(
            seen[0].result.as_ref().unwrap().output,
            r#"a ran with {"q":1}"#
        );
    }
}

#[test]
fn after_tool_returning_none_keeps_the_result() {
    let hooks = Rc::new(FakeHooks {
        after_tool: Some(Box::new(|_, _, _| Ok(None))),
        ..FakeHooks::default()
    });
    let (rig, _) = rig_with(Style::OpenAi, &hooks);
    let result = rig.run("go").unwrap();
    assert_eq!(result.tool_calls[0].output, r#"a ran with {"q":1}"#);
}

fn hook_error(hooks: FakeHooks, style: Style) -> (RunError, Rig) {
    let hooks = Rc::new(hooks);
    let (rig, _) = rig_with(style, &hooks);
    let err = rig.run("go").unwrap_err();
    (err, rig)
}

fn assert_hook(err: &RunError, name: &str, message: &str) {
    assert_eq!(
        *err,
        RunError::Hook {
            hook: match name {
                "beforeLLM" => "beforeLLM",
                "afterLLM" => "afterLLM",
                "beforeTool" => "beforeTool",
                "afterTool" => "afterTool",
                _ => "bodyTransform",
            },
            message: message.into()
        }
    );
    assert_eq!(err.code(), "hook");
    assert_eq!(err.to_string(), format!("{name} hook failed: {message}"));
}

#[test]
fn a_failing_before_llm_stops_the_run_before_any_request() {
    for style in BOTH {
        let (err, rig) = hook_error(
            FakeHooks {
                before_llm: Some(Box::new(|_, _, _| Err("route denied".into()))),
                ..FakeHooks::default()
            },
            style,
        );
        assert_hook(&err, "beforeLLM", "route denied");
        assert_eq!(rig.http.count(), 0);
    }
}

#[test]
fn a_failing_after_llm_stops_the_run() {
    for style in BOTH {
        let (err, rig) = hook_error(
            FakeHooks {
                after_llm_error: Some("logger down".into()),
                ..FakeHooks::default()
            },
            style,
        );
        assert_hook(&err, "afterLLM", "logger down");
        assert_eq!(rig.http.count(), 1);
    }
}

#[test]
fn a_failing_before_tool_stops_the_run() {
    for style in BOTH {
        let (err, rig) = hook_error(
            FakeHooks {
                before_tool: Some(Box::new(|_, _| Err("guard crashed".into()))),
                ..FakeHooks::default()
            },
            style,
        );
        assert_hook(&err, "beforeTool", "guard crashed");
        assert_eq!(rig.http.count(), 1);
    }
}

#[test]
fn a_failing_after_tool_stops_the_run() {
    for style in BOTH {
        let (err, rig) = hook_error(
            FakeHooks {
                after_tool: Some(Box::new(|_, _, _| Err("redactor crashed".into()))),
                ..FakeHooks::default()
            },
            style,
        );
        assert_hook(&err, "afterTool", "redactor crashed");
        assert_eq!(rig.http.count(), 1);
    }
}

#[test]
fn body_transform_sees_the_merged_body_and_its_output_is_sent() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks {
            body_transform: Some(Box::new(|mut body: Value| {
                let map = body.as_object_mut().unwrap();
                map.remove("model");
                map.insert("model".into(), json!("rewritten"));
                map.insert("metadata".into(), json!({"user": "u-1"}));
                Ok(body)
            })),
            ..FakeHooks::default()
        });
        let (mut rig, _) = rig_with(style, &hooks);
        rig.config.request_params = json!({"temperature": 0.5}).as_object().unwrap().clone();
        let result = rig.run("go").unwrap();
        let seen = hooks.body_transform_seen.borrow();
        assert_eq!(seen.len(), 2, "applied to every turn");
        assert_eq!(
            seen[0]["temperature"],
            json!(0.5),
            "after the request-params merge"
        );
        assert_eq!(seen[0]["model"], json!(MODEL));
        for n in 0..2 {
            let sent = rig.http.request(n);
            assert_eq!(sent.body["model"], json!("rewritten"));
            assert_eq!(sent.body["metadata"], json!({"user": "u-1"}));
            assert!(sent
                .text
                .ends_with(r#""model":"rewritten","metadata":{"user":"u-1"}}"#));
        }
        assert_eq!(
            result.model, MODEL,
            "the result reports the configured model"
        );
    }
}

#[test]
fn body_transform_may_rewrite_messages() {
    let hooks = Rc::new(FakeHooks {
        body_transform: Some(Box::new(|mut body: Value| {
            body.as_object_mut().unwrap().insert(
                "messages".into(),
                json!([{"role": "user", "content": "rewritten on the wire"}]),
            );
            Ok(body)
        })),
        ..FakeHooks::default()
    });
    let rig = Rig::new(
        Style::OpenAi,
        ScriptedHttp::replies(vec![text_reply(Style::OpenAi, "ok")]),
    )
    .hooks(&hooks);
    let result = rig.run("go").unwrap();
    assert_eq!(
        rig.http.body(0)["messages"],
        json!([{"role": "user", "content": "rewritten on the wire"}])
    );
    // The transcript is the loop's own, not the wire rewrite.
    assert_eq!(result.messages[0], json!({"role": "user", "content": "go"}));
}

#[test]
fn a_failing_body_transform_stops_the_run_before_sending() {
    for style in BOTH {
        let (err, rig) = hook_error(
            FakeHooks {
                body_transform: Some(Box::new(|_| Err("cannot shape".into()))),
                ..FakeHooks::default()
            },
            style,
        );
        assert_hook(&err, "bodyTransform", "cannot shape");
        assert_eq!(rig.http.count(), 0);
    }
}
