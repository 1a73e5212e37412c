//! A remote A2A task in `input-required` as a SPEC §10 suspension of the agent tool: the
//! `pending` result (kind `input`, the agent's question, `data` naming agent and task), the
//! retry with the answer sent to the same task (text and a data part `{answer}`), a toolnexus
//! peer's own Request carried through, and the whole loop: `waitFor` in-process, and a durable
//! halt resumed with the answer.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::a2a_outbound::{call, meta, reviewer_card, spec, tools_of, Answer, FakeAgent, Script};
use crate::common::agent::{FnWaitFor, Rig};
use crate::common::http::{calls_reply, text_reply, ScriptedHttp};
use crate::mcp_common::VirtualClock;
use crate::resume_support::{results_of, resume, BOTH};

use std::rc::Rc;
use toolnexus::core::client::result::Status;
use toolnexus::core::tool::Context;
use toolnexus::core::types::{pending_of, Request};
use toolnexus::{core::json::value::Value, json};

/// A task with the agent's question in its status message (the reference's wire).
fn asking(id: &str, question: &str, extra_parts: Value) -> Value {
    let mut parts = vec![json!({"kind": "text", "text": question})];
    if let Value::Array(more) = extra_parts {
        parts.extend(more);
    }
    json!({"id": id, "contextId": "c1", "status": {"state": "input-required",
        "message": {"role": "agent", "parts": parts}}})
}

/// Asks "Which file?" for a new task; a message for task `q1` (the answer) works, then
/// completes with `FILE: <answer text>` on the first poll, or at once with `at_once`.
fn file_desk(at_once: bool) -> Script {
    Box::new(move |method, params, _| {
        let message = &params["message"];
        match method {
            "SendMessage" if message["taskId"].is_null() => {
                Answer::Result(asking("q1", "Which file?", json!([])))
            }
            "SendMessage" => {
                let text = message["parts"][0]["text"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned();
                let done = json!({"id": "q1", "contextId": "c1", "status": {"state": "completed"},
                    "artifacts": [{"artifactId": "a", "parts": [{"kind": "text", "text": format!("FILE: {text}")}]}]});
                if at_once {
                    Answer::Result(done)
                } else {
                    Answer::Result(json!({"id": "q1", "status": {"state": "working"}}))
                }
            }
            _ => Answer::Result(json!({"id": "q1", "status": {"state": "completed"},
                "artifacts": [{"artifactId": "a", "parts": [{"kind": "text", "text": "FILE: main.rs"}]}]})),
        }
    })
}

fn answered(request: &Request, data: Value) -> Context {
    let answer = json!({"id": request.id, "ok": true, "data": data});
    Context {
        answer: Some(toolnexus::core::types::Answer::from_json(answer).unwrap()),
        request: Some(request.clone()),
        ..Context::default()
    }
}

#[test]
fn input_required_is_a_pending_result_naming_the_agent_and_the_task() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), file_desk(false));
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let result = call(&clock, &tools[0], "review it", Context::default());
    let request = pending_of(&result).unwrap();
    assert_eq!(
        (request.kind.as_str(), request.prompt.as_str()),
        ("input", "Which file?")
    );
    assert_eq!(
        Value::Object(request.data.unwrap()).to_string(),
        r#"{"agent":"reviewer","taskId":"q1","contextId":"c1"}"#
    );
    assert!(
        result.is_error,
        "a suspension is no usable answer (SPEC §10)"
    );
    assert_eq!(meta(&result)["state"], json!("input-required"));
    assert_eq!(meta(&result)["taskId"], json!("q1"));
    assert!(
        agent.calls("GetTask").is_empty(),
        "the task stopped at once: no poll"
    );
}

#[test]
fn the_retry_with_the_answer_sends_it_to_the_same_task_and_polls_to_the_artifact() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), file_desk(false));
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let first = call(&clock, &tools[0], "review it", Context::default());
    let request = pending_of(&first).unwrap();
    let ctx = answered(&request, json!({"text": "main.rs"}));
    let done = call(&clock, &tools[0], "review it", ctx);
    assert_eq!(
        (done.is_error, done.output.as_str()),
        (false, "FILE: main.rs")
    );
    assert_eq!(meta(&done)["taskId"], json!("q1"));
    assert_eq!(meta(&done)["polls"], json!(1));
    let sends = agent.calls("SendMessage");
    assert_eq!(sends.len(), 2, "one new task, one answer to it");
    let message = &sends[1].body["params"]["message"];
    assert_eq!(message["taskId"], json!("q1"));
    assert_eq!(message["contextId"], json!("c1"));
    assert_eq!(
        message["parts"].to_string(),
        format!(
            r#"[{{"kind":"text","text":"main.rs"}},{{"kind":"data","data":{{"answer":{{"id":"{}","ok":true,"data":{{"text":"main.rs"}}}}}}}}]"#,
            request.id
        )
    );
    assert_eq!(
        sends[1].body["params"]["configuration"],
        json!({"blocking": false})
    );
}

#[test]
fn a_toolnexus_peers_request_keeps_its_kind_schema_and_expiry_and_the_answer_echoes_its_id() {
    let clock = VirtualClock::new();
    let peer = json!({"pending": {"id": "r9", "kind": "approval", "prompt": "Delete main.rs?",
        "expiresAt": "2030-01-01T00:00:00Z", "data": {"schema": {"type": "object"}}}});
    let script: Script = Box::new(move |method, params, _| {
        if method == "SendMessage" && params["message"]["taskId"].is_null() {
            let parts = json!([{"kind": "data", "data": peer.clone()}]);
            return Answer::Result(asking("q1", "Delete main.rs?", parts));
        }
        Answer::Result(json!({"id": "q1", "status": {"state": "completed"},
            "artifacts": [{"artifactId": "a", "parts": [{"kind": "text", "text": "deleted"}]}]}))
    });
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), script);
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let first = call(&clock, &tools[0], "clean up", Context::default());
    let request = pending_of(&first).unwrap();
    assert_eq!(request.kind, "approval");
    assert_eq!(request.expires_at.as_deref(), Some("2030-01-01T00:00:00Z"));
    let data = request.data.clone().unwrap();
    assert_eq!(data["schema"], json!({"type": "object"}));
    assert_eq!(data["request"]["id"], json!("r9"));
    let ctx = Context {
        answer: Some(
            toolnexus::core::types::Answer::from_json(json!({"id": request.id, "ok": true}))
                .unwrap(),
        ),
        request: Some(request.clone()),
        ..Context::default()
    };
    let done = call(&clock, &tools[0], "clean up", ctx);
    assert_eq!(done.output, "deleted");
    let message = &agent.calls("SendMessage")[1].body["params"]["message"];
    assert_eq!(message["parts"][0]["text"], json!("approved"));
    assert_eq!(
        message["parts"][1]["data"]["answer"],
        json!({"id": "r9", "ok": true})
    );
}

#[test]
fn an_a2a_1_0_agent_gets_the_answer_in_its_own_part_shapes() {
    let clock = VirtualClock::new();
    let card = json!({"name": "desk", "skills": [{"id": "review", "name": "Review", "description": "d"}],
        "supportedInterfaces": [{"url": "http://127.0.0.1:4100/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]});
    let script: Script = Box::new(|method, params, _| {
        if method == "SendMessage" && params["message"]["taskId"].is_null() {
            return Answer::Result(
                json!({"task": {"id": "v1", "contextId": "c", "status": {"state": "TASK_STATE_INPUT_REQUIRED",
                "message": {"role": "ROLE_AGENT", "messageId": "m", "parts": [{"text": "Which file?"}]}}}}),
            );
        }
        Answer::Result(
            json!({"task": {"id": "v1", "status": {"state": "TASK_STATE_COMPLETED"},
            "artifacts": [{"artifactId": "a", "parts": [{"text": "ok"}]}]}}),
        )
    });
    let agent = FakeAgent::new(&clock, card, script);
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let request = pending_of(&call(&clock, &tools[0], "x", Context::default())).unwrap();
    assert_eq!(request.prompt, "Which file?");
    let done = call(&clock, &tools[0], "x", answered(&request, json!({"n": 2})));
    assert_eq!(done.output, "ok");
    let params = &agent.calls("SendMessage")[1].body["params"];
    assert_eq!(params["message"]["role"], json!("ROLE_USER"));
    assert_eq!(params["message"]["taskId"], json!("v1"));
    assert_eq!(params["message"]["parts"][0], json!({"text": r#"{"n":2}"#}));
    assert_eq!(
        params["message"]["parts"][1]["data"]["answer"]["data"],
        json!({"n": 2})
    );
    assert_eq!(params["configuration"], json!({"returnImmediately": true}));
}

#[test]
fn an_answer_to_another_agents_request_starts_a_new_task() {
    let clock = VirtualClock::new();
    let agent = FakeAgent::new(&clock, reviewer_card(json!({})), file_desk(false));
    let tools = tools_of(&agent, &clock, spec(10.0, 10_000.0));
    let mut request = pending_of(&call(&clock, &tools[0], "x", Context::default())).unwrap();
    if let Some(data) = request.data.as_mut() {
        data.insert("agent".into(), json!("somebody-else"));
    }
    let again = call(&clock, &tools[0], "x", answered(&request, json!({})));
    assert!(pending_of(&again).is_some());
    let sends = agent.calls("SendMessage");
    assert_eq!(sends.len(), 2);
    assert!(sends[1].body["params"]["message"]["taskId"].is_null());
}

/// A rig whose model calls the agent's `review` tool once, then says "finished".
fn rig_over(
    agent: &Rc<FakeAgent>,
    clock: &Rc<VirtualClock>,
    style: toolnexus::core::client::config::Style,
) -> Rig {
    let tools = tools_of(agent, clock, spec(10.0, 10_000.0));
    let http = ScriptedHttp::replies(vec![
        calls_reply(
            style,
            &[("c1", "reviewer_review", json!({"task": "review it"}))],
        ),
        text_reply(style, "finished"),
    ]);
    Rig::new(style, http).tool(tools[0].clone())
}

#[test]
fn the_loop_answers_the_remote_task_through_wait_for() {
    for style in BOTH {
        let clock = VirtualClock::new();
        let agent = FakeAgent::new(&clock, reviewer_card(json!({})), file_desk(true));
        let wait_for = FnWaitFor::answering(true, Some(json!({"text": "main.rs"})));
        let rig = rig_over(&agent, &clock, style).wait_for(wait_for.clone());
        let done = rig.run("review").unwrap();
        assert_eq!(done.status, Status::Done);
        assert_eq!(wait_for.asked()[0].prompt, "Which file?");
        let fed = results_of(style, &done.messages);
        assert_eq!(fed.len(), 1);
        assert_eq!(fed[0].1, "FILE: main.rs");
        assert_eq!(
            agent.calls("SendMessage")[1].body["params"]["message"]["taskId"],
            json!("q1")
        );
    }
}

#[test]
fn a_durable_halt_on_the_remote_task_resumes_with_the_answer_sent_back() {
    for style in BOTH {
        let clock = VirtualClock::new();
        let agent = FakeAgent::new(&clock, reviewer_card(json!({})), file_desk(true));
        let rig = rig_over(&agent, &clock, style);
        let halted = rig.run("review").unwrap();
        assert_eq!(halted.status, Status::Pending);
        let pending = halted.pending.clone().unwrap();
        assert_eq!(pending.data.as_ref().unwrap()["taskId"], json!("q1"));
        // The halted run crosses as JSON text (a store, a reload, another process).
        let text = halted.to_json_text();
        let halted = toolnexus::core::client::result::RunResult::from_json(
            toolnexus::core::json::parse::from_str(&text).unwrap(),
        )
        .unwrap();
        let wrong = json!({"id": "not-it", "ok": true});
        assert!(resume(&rig, &halted, wrong).is_err());
        assert_eq!(
            agent.calls("SendMessage").len(),
            1,
            "a refused answer sends nothing"
        );
        let answer = json!({"id": pending.id, "ok": true, "data": {"text": "lib.rs"}});
        let done = resume(&rig, &halted, answer).unwrap();
        assert_eq!(done.status, Status::Done);
        assert_eq!(done.text, "finished");
        let fed = results_of(style, &done.messages);
        assert_eq!(fed.len(), 1, "one result for the one call: balanced");
        assert_eq!(fed[0].1, "FILE: lib.rs");
    }
}
