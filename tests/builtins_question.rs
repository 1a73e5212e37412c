//! `question` (byte-exact prompt, the suspend → answer round trip through the real loop, the
//! durable halt) and `todowrite`.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::builtins_support;
use crate::common;

use builtins_support::*;
use common::agent::{FnWaitFor, Rig};
use common::http::{calls_reply, text_reply, ScriptedHttp};
use futures_executor::block_on;
use std::rc::Rc;
use toolnexus::core::builtins::{create, render_questions, BuiltinHost};
use toolnexus::core::client::config::Style;
use toolnexus::core::client::result::Status;
use toolnexus::core::fs::MemoryFs;
use toolnexus::core::tool::Context;
use toolnexus::core::types::{pending_of, Answer};
use toolnexus::json;

fn questions() -> toolnexus::core::json::value::Value {
    json!([
        {"question": "Which database?", "header": "DB", "options": ["postgres", "sqlite", "none"]},
        {"question": "Name the project", "options": []},
        {"question": "Ship it?", "header": "Go", "options": ["yes"], "multiple": false}
    ])
}

const RENDERED: &str =
    "Which database? (options: postgres, sqlite, none)\nName the project\nShip it? (options: yes)";

fn host() -> BuiltinHost {
    BuiltinHost::new(Rc::new(MemoryFs::new()), Rc::new(NoNet), TestClock::never())
}

#[test]
fn the_prompt_is_rendered_byte_exact() {
    assert_eq!(render_questions(questions().as_array().unwrap()), RENDERED);
    assert_eq!(render_questions(&[]), "");
    let odd = json!([{"options": ["a", 1, null, true]}, {"question": 7}]);
    assert_eq!(
        render_questions(odd.as_array().unwrap()),
        " (options: a, 1, , true)\n"
    );
}

#[test]
fn the_first_call_suspends_with_a_question_request() {
    let kit = Kit::with(host(), None);
    let r = kit.run("question", json!({"questions": questions()}));
    assert!(r.is_error);
    assert_eq!(r.output, RENDERED);
    let request = pending_of(&r).unwrap();
    assert_eq!(request.kind, "question");
    assert_eq!(request.prompt, RENDERED);
    assert_eq!(request.id, "question-1");
    assert_eq!(request.data.unwrap()["questions"], questions());
    let again = pending_of(&kit.run("question", json!({"questions": []}))).unwrap();
    assert_eq!(
        (again.id.as_str(), again.prompt.as_str()),
        ("question-2", "")
    );
}

#[test]
fn the_retry_with_an_answer_returns_its_data_as_json() {
    let tools = create(&host());
    let question = tools.iter().find(|t| t.spec().name == "question").unwrap();
    let data = json!({"answers": [["postgres"], ["demo"], ["yes"]]})
        .as_object()
        .unwrap()
        .clone();
    let ctx = Context {
        answer: Some(Answer {
            id: "q".into(),
            ok: true,
            data: Some(data),
            reason: None,
        }),
        ..Context::default()
    };
    let r = block_on(question.execute(json!({"questions": questions()}), ctx));
    assert_eq!(
        (r.output.as_str(), r.is_error),
        (r#"{"answers":[["postgres"],["demo"],["yes"]]}"#, false)
    );
    let no_data = Context {
        answer: Some(Answer {
            id: "q".into(),
            ok: true,
            data: None,
            reason: None,
        }),
        ..Context::default()
    };
    assert_eq!(
        block_on(question.execute(json!({"questions": []}), no_data)).output,
        "{}"
    );
}

fn question_rig(style: Style) -> Rig {
    let http = ScriptedHttp::replies(vec![
        calls_reply(
            style,
            &[("q1", "question", json!({"questions": questions()}))],
        ),
        text_reply(style, "thanks"),
    ]);
    let mut rig = Rig::new(style, http);
    for tool in create(&host()) {
        rig = rig.tool(tool);
    }
    rig
}

#[test]
fn through_the_loop_wait_for_answers_and_the_model_gets_the_answer_data() {
    for style in [Style::OpenAi, Style::Anthropic] {
        let wait = FnWaitFor::answering(true, Some(json!({"answers": [["sqlite"]]})));
        let rig = question_rig(style).wait_for(wait.clone());
        let result = rig.run("set up the project").unwrap();
        assert_eq!(result.status, Status::Done);
        assert_eq!(result.text, "thanks");
        let asked = wait.asked();
        assert_eq!(asked.len(), 1);
        assert_eq!(
            (asked[0].kind.as_str(), asked[0].prompt.as_str()),
            ("question", RENDERED)
        );
        let record = &result.tool_calls[0];
        assert_eq!(record.output, r#"{"answers":[["sqlite"]]}"#);
        assert!(!record.is_error);
        let sent = rig.http.request(1).text;
        assert!(
            sent.contains(r#"{\"answers\":[[\"sqlite\"]]}"#),
            "{style:?}: {sent}"
        );
    }
}

#[test]
fn through_the_loop_a_declined_question_and_the_durable_halt() {
    let declined = FnWaitFor::answering(false, None);
    let rig = question_rig(Style::OpenAi).wait_for(declined);
    let result = rig.run("go").unwrap();
    assert_eq!(
        result.tool_calls[0].output,
        format!("declined/expired: {RENDERED}")
    );
    let halted = question_rig(Style::OpenAi).run("go").unwrap();
    assert_eq!(halted.status, Status::Pending);
    let request = halted.pending.unwrap();
    assert_eq!(
        (request.kind.as_str(), request.prompt.as_str()),
        ("question", RENDERED)
    );
    assert_eq!(request.data.unwrap()["questions"], questions());
}

#[test]
fn todowrite_renders_the_list() {
    let kit = Kit::with(host(), None);
    let todos = json!([
        {"id": "1", "text": "write tests", "completed": true},
        {"id": "2", "text": "ship", "completed": false}
    ]);
    let r = kit.run("todowrite", json!({"todos": todos}));
    assert_eq!(
        (r.output.as_str(), r.is_error),
        ("[x] write tests\n[ ] ship", false)
    );
    assert_eq!(r.metadata.unwrap()["todos"], todos);
    assert_eq!(
        kit.run("todowrite", json!({"todos": []})).output,
        "(no todos)"
    );
    let bad = kit.run("todowrite", json!({"todos": [{"id": "1", "text": "x"}]}));
    assert!(
        bad.is_error && bad.output.contains("completed"),
        "{}",
        bad.output
    );
}
