//! Durable resume, case by case: expired requests, pendings that match nothing, the answer's
//! data reaching the tool, `askWithAnswer` through a store, and what runs again on a resume.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;
use crate::resume_support;

use common::agent::*;
use common::http::*;
use futures_executor::block_on;
use resume_support::*;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::time::iso_ms;
use toolnexus::core::types::{Request, ToolResult};
use toolnexus::json;

fn approval() -> Request {
    request("req-1", "approval", "Send the email?")
}

/// A rig whose model calls `send` once, then says "finished".
fn rig(style: Style, req: Request) -> (Rig, Rc<FnTool>) {
    let http = ScriptedHttp::replies(vec![
        calls_reply(style, &[("c1", "send", json!({"to": "bob"}))]),
        text_reply(style, "finished"),
    ]);
    let tool = asking("send", req, false);
    (Rig::new(style, http).tool(tool.clone()), tool)
}

fn halted(style: Style, req: Request) -> (Rig, Rc<FnTool>, RunResult) {
    let (rig, tool) = rig(style, req);
    let result = rig.run("email bob").unwrap();
    assert_eq!(result.status, Status::Pending);
    (rig, tool, result)
}

#[test]
fn an_approved_resume_reruns_the_tool_with_the_answer_and_its_data() {
    for style in BOTH {
        let (rig, tool, result) = halted(style, approval());
        let answer = json!({"id": "req-1", "ok": true, "data": {"code": "x1"}});
        let done = resume(&rig, &result, answer).unwrap();
        assert_eq!(done.status, Status::Done);
        assert_eq!(done.text, "finished");
        assert_eq!(tool.count(), 2);
        let given = tool.answers()[1].clone().unwrap();
        assert_eq!(given.data.unwrap()["code"], json!("x1"));
        let fed = results_of(style, &done.messages);
        assert_eq!(fed.len(), 1);
        assert_eq!(fed[0].1, r#"answered {"to":"bob"} with {"code":"x1"}"#);
    }
}

#[test]
fn an_expired_request_resumes_as_declined_even_when_approved() {
    // The deadline in several of the forms `Date.parse` reads (one instant; the default clock
    // reads a local time as UTC).
    let deadline = iso_ms("2030-01-01T00:00:00Z").unwrap();
    for style in BOTH {
        for expires_at in [
            "2030-01-01T00:00:00Z",
            "2030-01-01T00:00Z",
            "2030-01-01T00:00:00",
            "2030-01-01",
            "2030-01-01T01:00+01:00",
        ] {
            let req = Request {
                expires_at: Some(expires_at.into()),
                ..approval()
            };
            let (mut rig, tool, result) = halted(style, req.clone());
            rig.clock = Rc::new(FixedClock(deadline + 1.0));
            let done = resume(&rig, &result, json!({"id": "req-1", "ok": true})).unwrap();
            assert_eq!(
                tool.count(),
                1,
                "{style:?}: an expired approval never re-runs the tool"
            );
            let fed = results_of(style, &done.messages);
            assert_eq!(fed.len(), 1);
            assert_eq!(fed[0].1, "declined/expired: Send the email?");
            assert_eq!(done.status, Status::Done, "the model is told, and answers");

            // At the deadline the same approval is in time.
            let (mut rig, tool, result) = halted(style, req);
            rig.clock = Rc::new(FixedClock(deadline));
            let done = resume(&rig, &result, json!({"id": "req-1", "ok": true})).unwrap();
            assert_eq!(tool.count(), 2, "{expires_at}: approved in time");
            assert_eq!(done.status, Status::Done);
        }
    }
}

#[test]
fn a_stored_request_with_an_unreadable_expires_at_is_refused() {
    // A halted run is plain JSON: its request may come from another runtime or an edit. One
    // whose expiresAt cannot be read is refused (nothing could approve it), whatever the
    // answer, and nothing runs.
    for style in BOTH {
        let (rig, tool, mut result) = halted(style, approval());
        for bad in ["not a time", "2030-01-01T24:00:01Z", "Jan 1 2030"] {
            if let Some(pending) = result.pending.as_mut() {
                pending.expires_at = Some(bad.into());
            }
            for ok in [true, false] {
                let err = resume(&rig, &result, json!({"id": "req-1", "ok": ok})).unwrap_err();
                assert_eq!(
                    err.to_string(),
                    format!(
                        r#"cannot resume: the pending request's expiresAt "{bad}" is not an ISO 8601 date-time (such as "2030-01-02T03:04:05Z")"#
                    )
                );
                assert_eq!(err.code(), "invalid_resume");
            }
        }
        assert_eq!(tool.count(), 1, "no refused resume ran the tool");
        assert_eq!(rig.http.count(), 1, "no refused resume called the model");
    }
}

#[test]
fn a_pending_that_matches_no_outstanding_call_is_refused() {
    for style in BOTH {
        let (rig, tool, result) = halted(style, approval());
        let refused = |history: Vec<toolnexus::core::message::Message>, pending: &Request| {
            let input = resume_input(&rig, history, pending, answer(pending, true));
            block_on(rig.client().run(input))
        };
        // No history at all, and a history without tool calls.
        let just_text = result.messages[..1].to_vec();
        for history in [Vec::new(), just_text] {
            let err = refused(history, &approval()).unwrap_err();
            assert!(matches!(err, RunError::InvalidResume(_)), "{err:?}");
        }
        // Another request than the one the placeholder stands for.
        let other = request("req-2", "approval", "Delete everything?");
        let err = refused(result.messages.clone(), &other).unwrap_err();
        assert_eq!(
            err,
            RunError::InvalidResume(
                "the pending request matches no outstanding tool call in the history".into()
            )
        );
        // A turn already resumed has nothing outstanding.
        let done = resume(&rig, &result, answer(&approval(), true)).unwrap();
        let err = refused(done.messages.clone(), &approval()).unwrap_err();
        assert!(matches!(err, RunError::InvalidResume(_)), "{err:?}");
        assert_eq!(tool.count(), 2, "no refused resume ran the tool");
        assert_eq!(rig.http.count(), 2, "no refused resume called the model");
        assert!(err.to_string().starts_with("cannot resume: "));
    }
}

#[test]
fn a_wrong_answer_id_names_both_ids() {
    let (rig, _, result) = halted(Style::OpenAi, approval());
    let err = resume(&rig, &result, json!({"id": "req-9", "ok": true})).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"cannot resume: the answer's id "req-9" does not match the pending request's id "req-1""#
    );
    let err = resume(&rig, &result, json!({"ok": true})).unwrap_err();
    assert!(err.to_string().contains("has no id"), "{err}");
}

#[test]
fn ask_with_answer_loads_and_saves_through_the_store() {
    for style in BOTH {
        let (rig, tool) = rig(style, approval());
        let store = Rc::new(InMemoryStore::default());
        let shared: Rc<dyn Store> = store.clone();
        let first = block_on(
            rig.client()
                .ask(shared, "t1".into(), rig.input("email bob")),
        )
        .unwrap();
        assert_eq!(first.status, Status::Pending);
        assert_eq!(stored(&store, "t1").unwrap(), first.messages);
        let pending = first.pending.clone().unwrap();

        // An unknown thread has no history: refused, nothing saved.
        let err = resume_through(&rig, &store, "t-unknown", &pending, answer(&pending, true));
        assert!(matches!(err, Err(RunError::InvalidResume(_))));
        assert_eq!(stored(&store, "t-unknown"), None);

        let done = resume_through(&rig, &store, "t1", &pending, answer(&pending, false)).unwrap();
        assert_eq!(done.status, Status::Done);
        assert_eq!(stored(&store, "t1").unwrap(), done.messages);
        assert_eq!(user_turns(style, &done.messages), 1);
        assert_eq!(tool.count(), 1, "declined: not re-run");
        let fed = results_of(style, &done.messages);
        assert_eq!(fed[0].1, "declined/expired: Send the email?");
    }
}

#[test]
fn a_resume_that_halts_again_is_pending_with_the_next_request() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![calls_reply(
            style,
            &[("c1", "one", json!({})), ("c2", "two", json!({}))],
        )]);
        let rig = Rig::new(style, http)
            .tool(asking("one", request("r1", "input", "One?"), false))
            .tool(asking("two", request("r2", "input", "Two?"), false));
        let first = rig.run("go").unwrap();
        assert_eq!(first.pending.as_ref().unwrap().id, "r1");
        let second = resume(&rig, &first, json!({"id": "r1", "ok": true})).unwrap();
        assert_eq!(second.status, Status::Pending);
        assert_eq!(second.pending.as_ref().unwrap().id, "r2");
        assert_eq!(second.text, "Two?");
        let fed = results_of(style, &second.messages);
        let ids: Vec<&str> = fed.iter().map(|(id, _, _)| id.as_str()).collect();
        assert_eq!(ids, ["c1", "c2"]);
        assert_eq!(fed[1].1, "Two?", "the new placeholder");
        // The first request is no longer outstanding.
        let stale = resume(&rig, &second, json!({"id": "r1", "ok": true}));
        assert!(matches!(stale, Err(RunError::InvalidResume(_))));
    }
}

/// Calls before the halted one keep their recorded results and are not run again.
#[test]
fn finished_calls_before_the_halt_are_not_run_again() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(
                style,
                &[("c0", "plain", json!({})), ("c1", "send", json!({}))],
            ),
            text_reply(style, "finished"),
        ]);
        let plain = FnTool::returning("plain", ToolResult::ok("plain done"));
        let rig = Rig::new(style, http)
            .tool(plain.clone())
            .tool(asking("send", approval(), false));
        let first = rig.run("go").unwrap();
        let done = resume(&rig, &first, answer(&approval(), true)).unwrap();
        assert_eq!(plain.count(), 1);
        assert_eq!(results_of(style, &done.messages)[0].1, "plain done");
    }
}

/// Calls after the halted one ran concurrently with it in the halted run; their results were
/// dropped with the halt, so a resume runs them a second time (a double side effect).
#[test]
fn finished_calls_after_the_halt_are_not_run_again() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![
            calls_reply(
                style,
                &[("c1", "send", json!({})), ("c2", "plain", json!({}))],
            ),
            text_reply(style, "finished"),
        ]);
        let plain = FnTool::returning("plain", ToolResult::ok("plain done"));
        let rig = Rig::new(style, http)
            .tool(asking("send", approval(), false))
            .tool(plain.clone());
        let first = rig.run("go").unwrap();
        assert_eq!(plain.count(), 1, "ran once in the halted run");
        resume(&rig, &first, answer(&approval(), true)).unwrap();
        assert_eq!(plain.count(), 1, "{style:?}: ran again on resume");
    }
}
