//! Suspension (SPEC §10): `waitFor` resolving and retrying once, answers checked before they
//! are trusted, the durable halt without `waitFor`, and suspensions that are not tool errors.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::*;
use common::http::*;
use common::ManualSignal;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::hooks::ToolOverride;
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::client::suspend::check_answer;
use toolnexus::core::host::{Clock, LocalBoxFuture};
use toolnexus::core::time::{iso_ms, DateTime};
use toolnexus::core::types::{pending, Answer, Request, ToolResult};
use toolnexus::{core::json::value::Value, json};

const BOTH: [Style; 2] = [Style::OpenAi, Style::Anthropic];

fn approval() -> Request {
    request("req-1", "approval", "Send the email?")
}

/// Turn 1 calls `send` with `{to: "bob"}`; turn 2 answers.
fn script(style: Style) -> Rc<ScriptedHttp> {
    ScriptedHttp::replies(vec![
        calls_reply(style, &[("c1", "send", json!({"to": "bob"}))]),
        text_reply(style, "finished"),
    ])
}

/// The content the model got back for call `c1` in the second request.
fn fed_back(rig: &Rig, style: Style) -> (Value, Value) {
    let body = rig.http.body(1);
    let entry = &body["messages"][2];
    match style {
        Style::OpenAi => {
            assert_eq!(entry["tool_call_id"], json!("c1"));
            (entry["content"].clone(), Value::Null)
        }
        Style::Anthropic => {
            let block = &entry["content"][0];
            assert_eq!(block["tool_use_id"], json!("c1"));
            (block["content"].clone(), block["is_error"].clone())
        }
    }
}

fn run_with(style: Style, tool: Rc<FnTool>, wait_for: Rc<FnWaitFor>) -> (Rig, RunResult) {
    let rig = Rig::new(style, script(style)).tool(tool).wait_for(wait_for);
    let result = rig.run("email bob").unwrap();
    (rig, result)
}

#[test]
fn an_ok_answer_retries_the_tool_once_with_the_same_args_and_the_answer() {
    for style in BOTH {
        let tool = asking("send", approval(), false);
        let wait = FnWaitFor::answering(true, Some(json!({"token": "t-1"})));
        let (rig, result) = run_with(style, tool.clone(), wait.clone());
        assert_eq!(wait.asked(), vec![approval()]);
        assert_eq!(
            tool.args(),
            vec![json!({"to": "bob"}), json!({"to": "bob"})]
        );
        let answers = tool.answers();
        assert_eq!(answers[0], None);
        let data = json!({"token": "t-1"}).as_object().unwrap().clone();
        assert_eq!(
            answers[1],
            Some(Answer {
                id: "req-1".into(),
                ok: true,
                data: Some(data),
                reason: None
            })
        );
        let output = r#"answered {"to":"bob"} with {"token":"t-1"}"#;
        assert_eq!(result.tool_calls.len(), 1);
        assert_eq!(result.tool_calls[0].output, output);
        assert!(!result.tool_calls[0].is_error);
        assert_eq!(result.tool_calls[0].metadata, None);
        assert_eq!(fed_back(&rig, style).0, json!(output));
        assert_eq!(result.status, Status::Done);
        assert_eq!(result.text, "finished");
    }
}

#[test]
fn a_retry_that_suspends_again_is_unresolved() {
    for style in BOTH {
        let tool = asking("send", approval(), true);
        let (rig, result) = run_with(style, tool.clone(), FnWaitFor::answering(true, None));
        assert_eq!(tool.count(), 2, "retried once, never looped");
        assert_eq!(result.tool_calls[0].output, "unresolved: Send the email?");
        assert!(result.tool_calls[0].is_error);
        assert_eq!(
            fed_back(&rig, style).0,
            json!("unresolved: Send the email?")
        );
        assert_eq!(result.status, Status::Done);
    }
}

fn declined_with(style: Style, wait: Rc<FnWaitFor>) {
    let tool = asking("send", approval(), false);
    let (rig, result) = run_with(style, tool.clone(), wait);
    assert_eq!(tool.count(), 1, "{style:?}: the tool is not retried");
    assert_eq!(
        result.tool_calls[0].output,
        "declined/expired: Send the email?"
    );
    assert!(result.tool_calls[0].is_error);
    let (content, is_error) = fed_back(&rig, style);
    assert_eq!(content, json!("declined/expired: Send the email?"));
    if style == Style::Anthropic {
        assert_eq!(is_error, json!(true));
    }
    // The loop goes on: the model saw the refusal and answered.
    assert_eq!(result.status, Status::Done);
    assert_eq!(result.text, "finished");
    assert_eq!(result.turns, 2);
}

#[test]
fn a_declined_answer_is_fed_back_and_the_run_goes_on() {
    for style in BOTH {
        declined_with(style, FnWaitFor::answering(false, None));
        declined_with(
            style,
            FnWaitFor::new(|r| Ok(json!({"id": r.id, "ok": false, "reason": "declined"}))),
        );
    }
}

#[test]
fn an_answer_for_another_request_is_declined() {
    for style in BOTH {
        declined_with(
            style,
            FnWaitFor::raw(Ok(json!({"id": "req-999", "ok": true}))),
        );
        declined_with(style, FnWaitFor::raw(Ok(json!({"id": 1, "ok": true}))));
    }
}

#[test]
fn a_malformed_answer_is_declined() {
    for style in BOTH {
        for raw in [
            json!({"id": "req-1"}),
            json!({"id": "req-1", "ok": "true"}),
            json!({"id": "req-1", "ok": 1}),
            json!({"id": "req-1", "ok": null}),
            json!({"id": "req-1", "ok": true, "data": "not an object"}),
            json!(true),
            json!("yes"),
            json!([{"ok": true}]),
            Value::Null,
        ] {
            declined_with(style, FnWaitFor::raw(Ok(raw)));
        }
    }
}

#[test]
fn a_wait_for_that_fails_is_declined() {
    for style in BOTH {
        declined_with(style, FnWaitFor::raw(Err("the browser was closed".into())));
    }
}

fn expiring(expires_at: &str) -> Request {
    Request {
        expires_at: Some(expires_at.into()),
        ..approval()
    }
}

fn run_at(style: Style, now_ms: f64, req: Request, wait: Rc<FnWaitFor>) -> (Rc<FnTool>, RunResult) {
    let tool = asking("send", req, false);
    let mut rig = Rig::new(style, script(style))
        .tool(tool.clone())
        .wait_for(wait);
    rig.clock = Rc::new(FixedClock(now_ms));
    (tool, rig.run("go").unwrap())
}

#[test]
fn an_answer_after_expires_at_is_expired_even_when_ok() {
    let deadline = iso_ms("2030-01-01T00:00:00Z").unwrap();
    for style in BOTH {
        let wait = FnWaitFor::answering(true, None);
        let (tool, result) = run_at(
            style,
            deadline + 1.0,
            expiring("2030-01-01T00:00:00Z"),
            wait,
        );
        assert_eq!(tool.count(), 1);
        assert_eq!(
            result.tool_calls[0].output,
            "declined/expired: Send the email?"
        );
        assert_eq!(result.status, Status::Done);

        // Before the deadline (and at it) the same answer approves.
        for now in [deadline - 1.0, deadline] {
            let wait = FnWaitFor::answering(true, None);
            let (tool, result) = run_at(style, now, expiring("2030-01-01T00:00:00Z"), wait);
            assert_eq!(tool.count(), 2);
            assert!(!result.tool_calls[0].is_error);
        }
    }
}

#[test]
fn an_unreadable_expires_at_is_refused_before_anyone_is_asked() {
    for style in BOTH {
        for bad in [
            "soon",
            "",
            "2030-13-01T00:00:00Z",
            "2030-01-01T23:59:60Z",
            "Jan 1 2030",
        ] {
            let wait = FnWaitFor::answering(true, None);
            let (tool, result) = run_at(style, 0.0, expiring(bad), wait.clone());
            assert_eq!(tool.count(), 1, "{bad:?}");
            assert!(wait.asked().is_empty(), "{bad:?}: no one is asked");
            let expected = format!(
                r#"invalid request: expiresAt "{bad}" is not an ISO 8601 date-time (such as "2030-01-02T03:04:05Z")"#
            );
            assert_eq!(result.tool_calls[0].output, expected);
            assert!(result.tool_calls[0].is_error);
            assert_eq!(
                result.status,
                Status::Done,
                "the model is told, and answers"
            );
        }
        // Without waitFor the run does not halt on a request no answer could approve.
        let tool = asking("send", expiring("soon"), false);
        let result = Rig::new(style, script(style))
            .tool(tool.clone())
            .run("email bob")
            .unwrap();
        assert_eq!(result.status, Status::Done);
        assert_eq!(result.pending, None);
        assert!(result.tool_calls[0].output.starts_with("invalid request: "));
    }
}

#[test]
fn every_iso_form_date_parse_reads_is_a_deadline() {
    // The forms the issue named (once read as nothing, so an approval came back expired), and
    // the rest of the format; a date-time without an offset is local time, UTC for the default
    // clock. `(text, the deadline as UTC)`.
    for (text, utc) in [
        ("2030-01-01T00:00Z", "2030-01-01T00:00:00Z"),
        ("2030-01-01T00:00:00", "2030-01-01T00:00:00Z"),
        ("2030-01-01", "2030-01-01T00:00:00Z"),
        ("2030-06", "2030-06-01T00:00:00Z"),
        ("2030", "2030-01-01T00:00:00Z"),
        ("+002030-01-01T00:00Z", "2030-01-01T00:00:00Z"),
        ("2030-01-01t00:00:00z", "2030-01-01T00:00:00Z"),
        ("2030-01-01 00:00:00Z", "2030-01-01T00:00:00Z"),
        ("2030-01-01T02:00+02:00", "2030-01-01T00:00:00Z"),
        ("2030-01-01T02:00+0200", "2030-01-01T00:00:00Z"),
        ("2029-12-31T23:00-01:00", "2030-01-01T00:00:00Z"),
        ("2029-12-31T24:00", "2030-01-01T00:00:00Z"),
        (
            "2029-12-31T23:59:59.999999999999Z",
            "2029-12-31T23:59:59.999Z",
        ),
    ] {
        let deadline = iso_ms(utc).unwrap();
        assert_eq!(iso_ms(text), Some(deadline), "{text}");
        for style in BOTH {
            for (now, approved) in [
                (deadline - 1.0, true),
                (deadline, true),
                (deadline + 1.0, false),
            ] {
                let wait = FnWaitFor::answering(true, None);
                let (tool, result) = run_at(style, now, expiring(text), wait);
                assert_eq!(
                    tool.count(),
                    if approved { 2 } else { 1 },
                    "{text} at {now}"
                );
                if !approved {
                    assert_eq!(
                        result.tool_calls[0].output,
                        "declined/expired: Send the email?"
                    );
                }
            }
        }
    }
}

/// `[text, what Date.parse reads it as | null]`: strings of the corpus of
/// tests/js/expires-at.test.mjs (every field at and past its bounds, the non-ISO forms V8 also
/// reads, mutations), with V8's verdict at `TZ=UTC` (Node 20) for those the format accepts and
/// `null` for the rest; that test checks the file against the running V8.
const DATE_PARSE_UTC: &str = include_str!("date_parse_utc.json");

#[test]
fn the_core_reads_the_format_as_v8_reads_it() {
    let cases: Vec<(String, Option<f64>)> = serde_json::from_str(DATE_PARSE_UTC).unwrap();
    assert!(cases.len() > 500);
    assert!(cases.iter().filter(|(_, ms)| ms.is_some()).count() > 250);
    for (text, expected) in &cases {
        // The default clock reads a local time as UTC: V8 at TZ=UTC.
        assert_eq!(iso_ms(text), *expected, "{text:?}");
        assert_eq!(FixedClock(0.0).date_ms(text), *expected, "{text:?}");
    }
}

#[test]
fn the_format_s_fields_and_bounds() {
    let fields = |text: &str| {
        let t = DateTime::parse(text).unwrap();
        let clock = (t.hour, t.minute, t.second, t.millisecond);
        (t.year, t.month, t.day, clock, t.offset_minutes)
    };
    assert_eq!(fields("2030"), (2030, 1, 1, (0, 0, 0, 0), Some(0)));
    assert_eq!(fields("2030-07"), (2030, 7, 1, (0, 0, 0, 0), Some(0)));
    assert_eq!(fields("-000001-12-31"), (-1, 12, 31, (0, 0, 0, 0), Some(0)));
    assert_eq!(
        fields("+275760-09-13"),
        (275_760, 9, 13, (0, 0, 0, 0), Some(0))
    );
    assert_eq!(fields("2030T01:02"), (2030, 1, 1, (1, 2, 0, 0), None));
    assert_eq!(
        fields("2030-01-02 03:04:05.6"),
        (2030, 1, 2, (3, 4, 5, 600), None)
    );
    assert_eq!(
        fields("2030-01-02t03:04:05.06z"),
        (2030, 1, 2, (3, 4, 5, 60), Some(0))
    );
    assert_eq!(
        fields("2030-01-02T03:04:05.0069999-0530"),
        (2030, 1, 2, (3, 4, 5, 6), Some(-330))
    );
    assert_eq!(
        fields("2030-01-02T24:00:00.000000Z"),
        (2030, 1, 2, (24, 0, 0, 0), Some(0))
    );
    assert_eq!(
        fields("-000049-01-01 00:00+23:59"),
        (-49, 1, 1, (0, 0, 0, 0), Some(1439))
    );
    // A day past the month's end runs on, as V8 reads it; 24:00 is the next midnight.
    assert_eq!(iso_ms("2030-02-31"), iso_ms("2030-03-03"));
    assert_eq!(iso_ms("2030-12-31T24:00Z"), iso_ms("2031-01-01"));
    for bad in [
        "2030-00",
        "2030-13",
        "2030-01-00",
        "2030-01-32",
        "2030-01-01T24:01",
        "2030-01-01T24:00:01",
        "2030-01-01T24:00:00.0001",
        "2030-01-01T25:00",
        "2030-01-01T23:60",
        "2030-01-01T23:59:60",
        "2030-01-01T00:00+24:00",
        "2030-01-01T00:00+23:60",
        "2030-01-01T00:00+2400",
        "2030-01-01T00",
        "2030-01-01T00:00.5",
        "2030-01-01T00:00:00.",
        "2030-01-01T00:00:00,5",
        "2030-01-01T00:00+01",
        "2030-01-01T00:00+1:00",
        "2030-01-01T00:00+01:0",
        "2030-01-01T00:00:00+01:00:00",
        "2030-01-01T00:00Z ",
        "2030-01-01TZ",
        "2030-01-01T",
        "2030-01-01Z",
        "2030Z",
        "20300101",
        "2030-01-01T0000",
        "+2030-01-01",
        "02030",
        "-000000",
        "+02030-01",
        "0049-01-01 00:00Z",
        "+000099 12:00",
        "2030-01-01  00:00",
        "2030-01-01_00:00",
        "２０３０",
        "",
    ] {
        assert_eq!(DateTime::parse(bad), None, "{bad:?}");
    }
    // ECMAScript's range: ±8.64e15 ms, after the offset.
    assert_eq!(iso_ms("-271821-04-20T00:00Z"), Some(-8.64e15));
    assert_eq!(iso_ms("-271821-04-19T23:59:59.999Z"), None);
    assert_eq!(iso_ms("-271821-04-20T00:00+00:01"), None);
    assert_eq!(
        iso_ms("+275760-09-13T00:00+00:01"),
        Some(8.64e15 - 60_000.0)
    );
    assert_eq!(iso_ms("+999999-12-31"), None);
}

/// A clock at `now` in a fixed time zone `offset` minutes east of UTC: reads a local time as
/// the JS host's `Date.parse` would there.
struct Zoned {
    now: f64,
    offset: i32,
}

impl Clock for Zoned {
    fn now_ms(&self) -> f64 {
        self.now
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
    fn date_ms(&self, text: &str) -> Option<f64> {
        DateTime::parse(text)?.epoch_ms(f64::from(self.offset) * 60_000.0)
    }
}

#[test]
fn a_local_deadline_is_read_by_the_hosts_clock() {
    // 10:00 local at UTC+2 is 08:00 UTC; a date alone and a written offset are not local.
    let eight = iso_ms("2030-01-01T08:00:00Z").unwrap();
    let at = |now: f64, text: &str| {
        let clock = Zoned { now, offset: 120 };
        check_answer(&expiring(text), Ok(json!({"ok": true})), &clock)
    };
    assert!(at(eight, "2030-01-01T10:00").ok);
    assert_eq!(at(eight + 1.0, "2030-01-01T10:00"), refused("expired"));
    assert!(at(eight + 1.0, "2030-01-01T10:00Z").ok);
    let midnight = iso_ms("2030-01-01").unwrap();
    assert!(at(midnight, "2030-01-01").ok);
    assert_eq!(at(midnight + 1.0, "2030-01-01"), refused("expired"));
}

// ---------------------------------------------------------------------------------------------
// check_answer

fn refused(reason: &str) -> Answer {
    Answer {
        id: "req-1".into(),
        ok: false,
        data: None,
        reason: Some(reason.into()),
    }
}

#[test]
fn check_answer_accepts_a_matching_ok_answer_and_keeps_its_data() {
    let answer = check_answer(
        &approval(),
        Ok(json!({"id": "req-1", "ok": true, "data": {"v": [1]}})),
        &FixedClock(0.0),
    );
    assert!(answer.ok);
    assert_eq!(answer.id, "req-1");
    assert_eq!(Value::Object(answer.data.unwrap()), json!({"v": [1]}));
}

#[test]
fn check_answer_fills_a_missing_or_null_id() {
    for raw in [json!({"ok": true}), json!({"id": null, "ok": true})] {
        let answer = check_answer(&approval(), Ok(raw), &FixedClock(0.0));
        assert!(answer.ok);
        assert_eq!(answer.id, "req-1");
    }
}

#[test]
fn check_answer_cancels_anything_it_cannot_trust() {
    for raw in [
        Ok(json!({"id": "other", "ok": true})),
        Ok(json!({"id": 7, "ok": true})),
        Ok(json!({"id": "req-1"})),
        Ok(json!({"id": "req-1", "ok": "yes"})),
        Ok(json!({"id": "req-1", "ok": true, "data": [1]})),
        Ok(json!({"id": "req-1", "ok": true, "reason": 5})),
        Ok(json!(null)),
        Ok(json!(42)),
        Ok(json!("ok")),
        Err("thrown".to_owned()),
    ] {
        assert_eq!(
            check_answer(&approval(), raw.clone(), &FixedClock(0.0)),
            refused("cancelled"),
            "{raw:?}"
        );
    }
}

#[test]
fn check_answer_passes_a_refusal_through() {
    let answer = check_answer(
        &approval(),
        Ok(json!({"id": "req-1", "ok": false, "reason": "declined"})),
        &FixedClock(0.0),
    );
    assert_eq!(answer, refused("declined"));
    let answer = check_answer(&approval(), Ok(json!({"ok": false})), &FixedClock(0.0));
    assert!(!answer.ok);
}

#[test]
fn check_answer_expires_late_answers() {
    let req = expiring("1970-01-01T00:00:01Z");
    assert!(check_answer(&req, Ok(json!({"ok": true})), &FixedClock(1000.0)).ok);
    assert_eq!(
        check_answer(&req, Ok(json!({"ok": true})), &FixedClock(1000.5)),
        refused("expired")
    );
    let with_offset = expiring("1970-01-01T02:00:01+02:00");
    assert!(check_answer(&with_offset, Ok(json!({"ok": true})), &FixedClock(999.0)).ok);
    assert_eq!(
        check_answer(&with_offset, Ok(json!({"ok": true})), &FixedClock(1001.0)),
        refused("expired")
    );
    // The check itself never approves past a deadline it cannot read (the loop refuses such a
    // request before asking: see above).
    for bad in ["not a time", "2030-02-01T00:00:00+24:00", " 2030-01-01"] {
        assert_eq!(
            check_answer(&expiring(bad), Ok(json!({"ok": true})), &FixedClock(0.0)),
            refused("expired"),
            "{bad}"
        );
    }
    // A late refusal stays the host's refusal.
    assert_eq!(
        check_answer(
            &req,
            Ok(json!({"ok": false, "reason": "declined"})),
            &FixedClock(5000.0)
        ),
        refused("declined")
    );
}

// ---------------------------------------------------------------------------------------------
// Without waitFor: the durable halt

#[test]
fn without_wait_for_the_run_halts_pending() {
    for style in BOTH {
        let tool = asking("send", approval(), false);
        let rig = Rig::new(style, script(style)).tool(tool.clone());
        let result = rig.run("email bob").unwrap();
        assert_eq!(rig.http.count(), 1, "no further model call");
        assert_eq!(tool.count(), 1);
        assert_eq!(result.status, Status::Pending);
        assert_eq!(result.pending, Some(approval()));
        assert_eq!(result.limit, None);
        assert_eq!(result.text, "Send the email?");
        assert_eq!(result.turns, 1);
        assert_eq!(result.tool_call_count, 1);
        let record = &result.tool_calls[0];
        assert_eq!(
            (record.output.as_str(), record.is_error),
            ("Send the email?", true)
        );
        assert_eq!(record.args, json!({"to": "bob"}));
        let placeholder = match style {
            Style::OpenAi => {
                json!({"role": "tool", "tool_call_id": "c1", "content": "Send the email?"})
            }
            Style::Anthropic => json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "c1", "content": "Send the email?", "is_error": true}
            ]}),
        };
        assert_eq!(result.messages.len(), 3);
        assert_eq!(result.messages[2], placeholder);

        let value = serde_json::to_value(&result).unwrap();
        assert_eq!(value["status"], json!("pending"));
        assert_eq!(
            value["pending"],
            json!({"id": "req-1", "kind": "approval", "prompt": "Send the email?"})
        );
        assert!(value.get("limit").is_none());
    }
}

#[test]
fn the_placeholder_is_the_prompt_even_with_a_url() {
    let req = Request {
        url: Some("https://login.example/authorize".into()),
        ..request("auth-1", "authorization", "Log in to continue")
    };
    let rig =
        Rig::new(Style::OpenAi, script(Style::OpenAi)).tool(asking("send", req.clone(), false));
    let result = rig.run("go").unwrap();
    assert_eq!(result.pending, Some(req));
    assert_eq!(result.text, "Log in to continue");
    assert_eq!(result.messages[2]["content"], json!("Log in to continue"));
}

#[test]
fn two_suspensions_halt_on_the_first_in_call_order() {
    for style in BOTH {
        let http = ScriptedHttp::replies(vec![calls_reply(
            style,
            &[
                ("c0", "plain", json!({})),
                ("c1", "first", json!({})),
                ("c2", "second", json!({})),
            ],
        )]);
        let rig = Rig::new(style, http)
            .tool(FnTool::returning("plain", ToolResult::ok("plain done")))
            .tool(asking("first", request("r1", "input", "First?"), false))
            .tool(asking("second", request("r2", "input", "Second?"), false));
        let result = rig.run("go").unwrap();
        assert_eq!(result.status, Status::Pending);
        assert_eq!(result.pending.as_ref().unwrap().id, "r1");
        assert_eq!(result.text, "First?");
        let names: Vec<_> = result.tool_calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["plain", "first"], "{style:?}");
        let expected = match style {
            Style::OpenAi => vec![
                json!({"role": "tool", "tool_call_id": "c0", "content": "plain done"}),
                json!({"role": "tool", "tool_call_id": "c1", "content": "First?"}),
            ],
            Style::Anthropic => vec![json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "c0", "content": "plain done", "is_error": false},
                {"type": "tool_result", "tool_use_id": "c1", "content": "First?", "is_error": true},
            ]})],
        };
        assert_eq!(result.messages[2..], expected[..], "{style:?}");
        let text = serde_json::to_string(&result.messages).unwrap();
        assert!(
            !text.contains("Second?"),
            "the later suspension is not in the transcript"
        );
    }
}

#[test]
fn the_first_suspension_wins_whichever_settles_first() {
    // `late` suspends only after `early` has suspended; call order still decides.
    let gate = Rc::new(ManualSignal::default());
    let g = gate.clone();
    let late = FnTool::new("late", json!({"type": "object"}), move |_, _| {
        let wait = common::SignalHandle(g.clone());
        Box::pin(async move {
            toolnexus::core::host::Cancel::wait(&wait).await;
            pending(request("r-late", "input", "Late?"))
        })
    });
    let g = gate.clone();
    let early = FnTool::new("early", json!({"type": "object"}), move |_, _| {
        g.fire();
        Box::pin(async { pending(request("r-early", "input", "Early?")) })
    });
    let http = ScriptedHttp::replies(vec![calls_reply(
        Style::OpenAi,
        &[("c1", "late", json!({})), ("c2", "early", json!({}))],
    )]);
    let result = Rig::new(Style::OpenAi, http)
        .tool(late)
        .tool(early)
        .run("go")
        .unwrap();
    assert_eq!(result.pending.unwrap().id, "r-late");
    assert_eq!(result.tool_call_count, 1);
}

#[test]
fn with_wait_for_concurrent_suspensions_each_resolve() {
    for style in BOTH {
        let gate = Rc::new(ManualSignal::default());
        let wait = GatedWaitFor::new(gate.clone());
        let opener = {
            let gate = gate.clone();
            FnTool::new("opener", json!({"type": "object"}), move |_, _| {
                gate.fire();
                Box::pin(async { ToolResult::ok("opened") })
            })
        };
        let http = ScriptedHttp::replies(vec![
            calls_reply(
                style,
                &[
                    ("c1", "one", json!({"n": 1})),
                    ("c2", "two", json!({"n": 2})),
                    ("c3", "opener", json!({})),
                ],
            ),
            text_reply(style, "all resolved"),
        ]);
        let (one, two) = (
            asking("one", request("r1", "input", "One?"), false),
            asking("two", request("r2", "input", "Two?"), false),
        );
        let rig = Rig::new(style, http)
            .tool(one.clone())
            .tool(two.clone())
            .tool(opener)
            .wait_for(wait.clone());
        let result = rig.run("go").unwrap();
        // Both waits were outstanding at once, and both were answered by the one gate.
        let ids: Vec<_> = wait
            .requests
            .borrow()
            .iter()
            .map(|r| r.id.clone())
            .collect();
        assert_eq!(ids, ["r1", "r2"]);
        assert_eq!(wait.answered.get(), 2);
        assert_eq!((one.count(), two.count()), (2, 2));
        assert_eq!(result.status, Status::Done);
        let outputs: Vec<_> = result
            .tool_calls
            .iter()
            .map(|c| c.output.as_str())
            .collect();
        assert_eq!(
            outputs,
            [
                r#"answered {"n":1} with none"#,
                r#"answered {"n":2} with none"#,
                "opened"
            ]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A suspension is not a tool error

#[test]
fn after_tool_sees_only_the_resolved_result() {
    for style in BOTH {
        let hooks = Rc::new(FakeHooks::default());
        let tool = asking("send", approval(), false);
        let rig = Rig::new(style, script(style))
            .tool(tool)
            .hooks(&hooks)
            .wait_for(FnWaitFor::answering(true, None));
        rig.run("go").unwrap();
        let seen = hooks.after_tool_seen.borrow();
        assert_eq!(seen.len(), 1, "{style:?}");
        let result = seen[0].result.clone().unwrap();
        assert_eq!(result.output, r#"answered {"to":"bob"} with none"#);
        assert!(result.metadata.is_none());
        assert_eq!(seen[0].call.id, "c1");
    }
}

#[test]
fn after_tool_is_not_called_on_a_halt_a_decline_or_an_unresolved_retry() {
    for style in BOTH {
        let cases: Vec<(Rc<FnTool>, Option<Rc<FnWaitFor>>)> = vec![
            (asking("send", approval(), false), None),
            (
                asking("send", approval(), false),
                Some(FnWaitFor::answering(false, None)),
            ),
            (
                asking("send", approval(), true),
                Some(FnWaitFor::answering(true, None)),
            ),
        ];
        for (tool, wait) in cases {
            let hooks = Rc::new(FakeHooks::default());
            let mut rig = Rig::new(style, script(style)).tool(tool).hooks(&hooks);
            if let Some(wait) = wait {
                rig = rig.wait_for(wait);
            }
            rig.run("go").unwrap();
            assert_eq!(hooks.after_tool_seen.borrow().len(), 0, "{style:?}");
            assert_eq!(hooks.before_tool_seen.borrow().len(), 1);
        }
    }
}

fn guard() -> Rc<FakeHooks> {
    Rc::new(FakeHooks {
        before_tool: Some(Box::new(|call, _| {
            Ok(ToolOverride {
                result: Some(pending(request(
                    &format!("guard-{}", call.id),
                    "approval",
                    "Allow send?",
                ))),
                args: None,
            })
        })),
        ..FakeHooks::default()
    })
}

#[test]
fn a_guard_suspension_halts_without_wait_for() {
    for style in BOTH {
        let hooks = guard();
        let tool = labelled_ok("send");
        let rig = Rig::new(style, script(style))
            .tool(tool.clone())
            .hooks(&hooks);
        let result = rig.run("go").unwrap();
        assert_eq!(tool.count(), 0, "the guarded tool never ran");
        assert_eq!(result.status, Status::Pending);
        assert_eq!(result.pending.unwrap().id, "guard-c1");
        assert_eq!(result.text, "Allow send?");
        assert_eq!(hooks.after_tool_seen.borrow().len(), 0);
    }
}

fn labelled_ok(name: &str) -> Rc<FnTool> {
    FnTool::new(name, json!({"type": "object"}), |args, ctx| {
        let out = format!("sent {args} approved={}", ctx.answer.is_some_and(|a| a.ok));
        Box::pin(async move { ToolResult::ok(out) })
    })
}

#[test]
fn a_guard_suspension_approved_by_wait_for_runs_the_tool_with_the_answer() {
    for style in BOTH {
        let hooks = guard();
        let tool = labelled_ok("send");
        let wait = FnWaitFor::answering(true, None);
        let rig = Rig::new(style, script(style))
            .tool(tool.clone())
            .hooks(&hooks)
            .wait_for(wait.clone());
        let result = rig.run("go").unwrap();
        assert_eq!(wait.asked()[0].id, "guard-c1");
        assert_eq!(tool.count(), 1);
        assert_eq!(tool.answers()[0].as_ref().unwrap().id, "guard-c1");
        let output = r#"sent {"to":"bob"} approved=true"#;
        assert_eq!(result.tool_calls[0].output, output);
        assert_eq!(result.status, Status::Done);
        let after = hooks.after_tool_seen.borrow();
        assert_eq!(after.len(), 1);
        assert_eq!(after[0].result.as_ref().unwrap().output, output);
    }
}

#[test]
fn a_guard_suspension_declined_never_runs_the_tool() {
    let hooks = guard();
    let tool = labelled_ok("send");
    let rig = Rig::new(Style::OpenAi, script(Style::OpenAi))
        .tool(tool.clone())
        .hooks(&hooks)
        .wait_for(FnWaitFor::answering(false, None));
    let result = rig.run("go").unwrap();
    assert_eq!(tool.count(), 0);
    assert_eq!(result.tool_calls[0].output, "declined/expired: Allow send?");
    assert_eq!(result.status, Status::Done);
}

#[test]
fn a_suspension_resolved_by_wait_for_is_retried_with_rewritten_args() {
    let hooks = Rc::new(FakeHooks {
        before_tool: Some(Box::new(|_, _| {
            Ok(ToolOverride {
                result: None,
                args: Some(json!({"to": "alice"})),
            })
        })),
        ..FakeHooks::default()
    });
    let tool = asking("send", approval(), false);
    let rig = Rig::new(Style::OpenAi, script(Style::OpenAi))
        .tool(tool.clone())
        .hooks(&hooks)
        .wait_for(FnWaitFor::answering(true, None));
    let result = rig.run("go").unwrap();
    assert_eq!(
        tool.args(),
        vec![json!({"to": "alice"}), json!({"to": "alice"})]
    );
    assert_eq!(result.tool_calls[0].args, json!({"to": "alice"}));
}

#[test]
fn abort_while_wait_for_is_pending() {
    for style in BOTH {
        let stop = Rc::new(ManualSignal::default());
        let never = Rc::new(ManualSignal::default());
        let wait = GatedWaitFor::new(never);
        let stopper = {
            let stop = stop.clone();
            FnTool::new("stopper", json!({"type": "object"}), move |_, _| {
                stop.fire();
                Box::pin(async { ToolResult::ok("stopped") })
            })
        };
        let http = ScriptedHttp::replies(vec![calls_reply(
            style,
            &[("c1", "send", json!({})), ("c2", "stopper", json!({}))],
        )]);
        let rig = Rig::new(style, http)
            .tool(asking("send", approval(), false))
            .tool(stopper)
            .wait_for(wait.clone())
            .signal(&stop);
        let err = rig.run("go").unwrap_err();
        assert_eq!(err, RunError::Aborted("stopped by test".into()));
        assert_eq!(wait.requests.borrow().len(), 1, "waitFor was pending");
        assert_eq!(wait.answered.get(), 0);
    }
}

#[test]
fn a_malformed_pending_is_an_ordinary_error_result() {
    let mut metadata = toolnexus::core::json::value::Map::new();
    metadata.insert("pending".into(), json!({"prompt": "no id or kind"}));
    let odd = ToolResult {
        parts: None,
        output: "half a suspension".into(),
        is_error: true,
        metadata: Some(metadata),
    };
    let hooks = Rc::new(FakeHooks::default());
    let wait = FnWaitFor::answering(true, None);
    let rig = Rig::new(Style::OpenAi, script(Style::OpenAi))
        .tool(FnTool::returning("send", odd))
        .hooks(&hooks)
        .wait_for(wait.clone());
    let result = rig.run("go").unwrap();
    assert_eq!(wait.asked().len(), 0, "not a suspension");
    assert_eq!(
        hooks.after_tool_seen.borrow().len(),
        1,
        "an ordinary result"
    );
    assert_eq!(result.tool_calls[0].output, "half a suspension");
    assert!(result.tool_calls[0].metadata.is_some());
    assert_eq!(result.status, Status::Done);
}
