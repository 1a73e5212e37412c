//! Balance of a resumed transcript, as a property over random turns (both dialects): one turn of
//! 1–6 calls, each of which finishes or suspends; the run halts (no `waitFor`), then resumes one
//! answer at a time (each approved or declined at random, through the store or not) until done.
//! At every step a resume whose answer has the wrong id is refused and changes nothing; at the end
//! every call of the turn has exactly one result, in call order, no placeholder is left, and no
//! user turn was added.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;
use crate::resume_support;

use common::agent::*;
use common::http::*;
use futures_executor::block_on;
use proptest::prelude::*;
use resume_support::*;
use std::rc::Rc;
use toolnexus::core::client::config::Style;
use toolnexus::core::client::error::RunError;
use toolnexus::core::client::result::{RunResult, Status};
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::types::ToolResult;
use toolnexus::{core::json::value::Value, json};

const THREAD: &str = "thread-1";

struct Turn {
    rig: Rig,
    tools: Vec<Rc<FnTool>>,
    call_ids: Vec<String>,
}

fn prompt(i: usize) -> String {
    format!("Q{i}?")
}

fn turn(style: Style, suspends: &[bool]) -> Turn {
    let calls: Vec<(String, String, Value)> = (0..suspends.len())
        .map(|i| (format!("c{i}"), format!("t{i}"), json!({"n": i})))
        .collect();
    let wire: Vec<Call<'_>> = calls
        .iter()
        .map(|(id, name, args)| (id.as_str(), name.as_str(), args.clone()))
        .collect();
    let http = ScriptedHttp::replies(vec![
        calls_reply(style, &wire),
        text_reply(style, "finished"),
    ]);
    let mut rig = Rig::new(style, http);
    let mut tools = Vec::new();
    for (i, suspends) in suspends.iter().enumerate() {
        let name = format!("t{i}");
        let tool = if *suspends {
            asking(
                &name,
                request(&format!("r{i}"), "approval", &prompt(i)),
                false,
            )
        } else {
            FnTool::returning(&name, ToolResult::ok(format!("done {i}")))
        };
        tools.push(tool.clone());
        rig = rig.tool(tool);
    }
    let call_ids = calls.into_iter().map(|(id, _, _)| id).collect();
    Turn {
        rig,
        tools,
        call_ids,
    }
}

fn expected_output(i: usize, suspends: bool, approved: bool) -> String {
    match (suspends, approved) {
        (false, _) => format!("done {i}"),
        (true, true) => format!(r#"answered {{"n":{i}}} with none"#),
        (true, false) => format!("declined/expired: {}", prompt(i)),
    }
}

/// A halted transcript: results, in call order, for every call that finished (before or after
/// the halted one, so a resume never runs it again) plus the halted call's placeholder; the
/// calls that also suspended have none yet.
fn check_halted(style: Style, t: &Turn, halted: &RunResult) -> Result<(), TestCaseError> {
    let pending = halted.pending.clone().unwrap();
    let at = calls_at(style, &halted.messages).unwrap();
    let fed = results_of(style, &halted.messages[at + 1..]);
    let ids: Vec<&str> = fed.iter().map(|(id, _, _)| id.as_str()).collect();
    let in_order: Vec<&str> = t
        .call_ids
        .iter()
        .map(String::as_str)
        .filter(|id| ids.contains(id))
        .collect();
    prop_assert_eq!(&ids, &in_order);
    let placeholders = fed
        .iter()
        .filter(|(_, output, _)| *output == pending.prompt)
        .count();
    prop_assert_eq!(placeholders, 1);
    prop_assert_eq!(user_turns(style, &halted.messages), 1);
    Ok(())
}

/// Wrong ids are refused with `InvalidResume`, and neither the store, the tools nor the model
/// saw anything.
fn check_refusals(
    t: &Turn,
    store: &Rc<InMemoryStore>,
    halted: &RunResult,
) -> Result<(), TestCaseError> {
    let pending = halted.pending.clone().unwrap();
    let before = stored(store, THREAD);
    let counts: Vec<usize> = t.tools.iter().map(|tool| tool.count()).collect();
    let sent = t.rig.http.count();
    for bad in [
        json!({"id": format!("{}-other", pending.id), "ok": true}),
        json!({"ok": true}),
        json!({"id": 7, "ok": true}),
    ] {
        let direct = resume(&t.rig, halted, bad.clone());
        prop_assert!(
            matches!(direct, Err(RunError::InvalidResume(_))),
            "{:?}",
            direct
        );
        let through = resume_through(&t.rig, store, THREAD, &pending, bad);
        prop_assert!(
            matches!(through, Err(RunError::InvalidResume(_))),
            "{:?}",
            through
        );
    }
    prop_assert_eq!(stored(store, THREAD), before);
    let after: Vec<usize> = t.tools.iter().map(|tool| tool.count()).collect();
    prop_assert_eq!(after, counts);
    prop_assert_eq!(t.rig.http.count(), sent);
    Ok(())
}

fn balanced(
    style: Style,
    suspends: Vec<bool>,
    answers: Vec<bool>,
    via_store: Vec<bool>,
) -> Result<(), TestCaseError> {
    let t = turn(style, &suspends);
    let store = Rc::new(InMemoryStore::default());
    let mut result = t.rig.run("do everything").unwrap();
    block_on(store.save(THREAD, &result.messages)).unwrap();
    let expected_pendings: Vec<String> = (0..suspends.len())
        .filter(|i| suspends[*i])
        .map(|i| format!("r{i}"))
        .collect();
    let mut seen_pendings = Vec::new();
    let mut approved = vec![false; suspends.len()];
    let mut step = 0;
    while result.status == Status::Pending {
        prop_assert!(step < suspends.len(), "more halts than suspending calls");
        check_halted(style, &t, &result)?;
        check_refusals(&t, &store, &result)?;
        let pending = result.pending.clone().unwrap();
        let index: usize = pending.id.trim_start_matches('r').parse().unwrap();
        approved[index] = answers[step];
        seen_pendings.push(pending.id.clone());
        let answer = json!({"id": pending.id, "ok": answers[step]});
        result = if via_store[step] {
            resume_through(&t.rig, &store, THREAD, &pending, answer).unwrap()
        } else {
            let next = resume(&t.rig, &result, answer).unwrap();
            block_on(store.save(THREAD, &next.messages)).unwrap();
            next
        };
        prop_assert_eq!(stored(&store, THREAD).unwrap(), result.messages.clone());
        step += 1;
    }
    prop_assert_eq!(
        seen_pendings,
        expected_pendings,
        "one halt per suspension, in call order"
    );
    prop_assert_eq!(result.status, Status::Done);
    prop_assert_eq!(&result.text, "finished");
    prop_assert_eq!(
        t.rig.http.count(),
        2,
        "one model call per turn, none for a halt"
    );

    let messages = &result.messages;
    let at = calls_at(style, messages).unwrap();
    prop_assert_eq!(
        calls_at(style, &messages[..at]),
        None,
        "one tool-calling turn"
    );
    prop_assert_eq!(call_ids_of(style, messages[at].value()), t.call_ids.clone());
    let fed = results_of(style, &messages[at + 1..]);
    let ids: Vec<String> = fed.iter().map(|(id, _, _)| id.clone()).collect();
    prop_assert_eq!(&ids, &t.call_ids, "one result per call, in call order");
    for (i, (_, content, is_error)) in fed.iter().enumerate() {
        prop_assert_eq!(content, &expected_output(i, suspends[i], approved[i]));
        prop_assert_ne!(content, &prompt(i), "a placeholder was left");
        if style == Style::Anthropic {
            prop_assert_eq!(*is_error, Some(suspends[i] && !approved[i]));
        }
    }
    let carriers = match style {
        Style::OpenAi => suspends.len(),
        Style::Anthropic => 1,
    };
    prop_assert_eq!(messages.len(), at + 1 + carriers + 1);
    prop_assert_eq!(user_turns(style, messages), 1, "no user turn added");
    // The model's second request carried exactly this balanced transcript.
    let sent = t.rig.http.body(1);
    let sent_messages = sent["messages"].as_array().unwrap();
    prop_assert_eq!(&sent_messages[..], &messages[..messages.len() - 1]);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_resumed_turn_is_balanced_openai(
        suspends in prop::collection::vec(any::<bool>(), 1..=6),
        answers in prop::collection::vec(any::<bool>(), 6),
        via_store in prop::collection::vec(any::<bool>(), 6),
    ) {
        balanced(Style::OpenAi, suspends, answers, via_store)?;
    }

    #[test]
    fn a_resumed_turn_is_balanced_anthropic(
        suspends in prop::collection::vec(any::<bool>(), 1..=6),
        answers in prop::collection::vec(any::<bool>(), 6),
        via_store in prop::collection::vec(any::<bool>(), 6),
    ) {
        balanced(Style::Anthropic, suspends, answers, via_store)?;
    }
}

#[test]
fn every_call_suspending_resumes_one_at_a_time_in_both_dialects() {
    for style in BOTH {
        balanced(
            style,
            vec![true; 6],
            vec![true, false, true, false, true, false],
            vec![false, true, false, true, false, true],
        )
        .unwrap();
    }
}
