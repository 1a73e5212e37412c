//! The completion gate on runtime agents (the reference's `completion: {verify, maxAttempts}`
//! run inside the §7D turn): a `done` run is judged, a failed verdict asks again with the
//! reason, exhaustion ends the turn `incomplete` / `limit: "completion"` with the reference's
//! text; a suspended turn is not judged; every attempt is spent from the budgets; a verifier
//! that fails is an error result; a delegated child is gated too. Scripted models on a local
//! executor and a virtual clock (`tests/common/agents.rs`).
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agents::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use toolnexus::core::agents::budget::Budget;
use toolnexus::core::agents::completion::{Completion, Verdict, Verify};
use toolnexus::core::agents::data::{HandleState, TaskResult, TaskStatus};
use toolnexus::core::agents::registry::{AgentDef, Registry};
use toolnexus::core::agents::runtime::{Handle, WaitOptions};
use toolnexus::core::client::result::RunResult;
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::json::value::{Map, Value};
use toolnexus::core::tool::SharedTool;
use toolnexus::core::types::ToolResult;
use toolnexus::json;

const RETRY: &str = "did not verify";

/// How a test verifier judges.
type Judge = Box<dyn Fn(&RunResult) -> Result<Verdict, String>>;

/// A verifier that records what it judged and answers with `judge`.
struct Recorder {
    seen: RefCell<Vec<RunResult>>,
    judge: Judge,
}

impl Recorder {
    fn new(judge: impl Fn(&RunResult) -> Result<Verdict, String> + 'static) -> Rc<Recorder> {
        Rc::new(Recorder {
            seen: RefCell::new(Vec::new()),
            judge: Box::new(judge),
        })
    }
}

impl Verify for Recorder {
    fn verify(&self, result: &RunResult) -> LocalBoxFuture<'static, Result<Verdict, String>> {
        self.seen.borrow_mut().push(result.clone());
        let verdict = (self.judge)(result);
        Box::pin(async move { verdict })
    }
}

/// A verifier that never answers.
struct Silent;

impl Verify for Silent {
    fn verify(&self, _: &RunResult) -> LocalBoxFuture<'static, Result<Verdict, String>> {
        Box::pin(std::future::pending())
    }
}

/// The built-in verifier's rule, over the accumulated calls: the last `todowrite` plan must be
/// all done (no plan passes).
fn all_todos_done(result: &RunResult) -> Result<Verdict, String> {
    let Some(call) = result
        .tool_calls
        .iter()
        .rev()
        .find(|c| c.name == "todowrite")
    else {
        return Ok(Verdict::pass());
    };
    let todos = call
        .metadata
        .as_ref()
        .and_then(|m| m.get("todos"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let open: Vec<String> = todos
        .iter()
        .filter(|t| t["completed"] != json!(true))
        .map(|t| t["text"].as_str().unwrap_or_default().to_owned())
        .collect();
    Ok(if open.is_empty() {
        Verdict::pass()
    } else {
        Verdict::fail(format!(
            "{} item(s) still open: {}",
            open.len(),
            open.join("; ")
        ))
    })
}

/// A `todowrite` whose result carries its plan in `metadata.todos`, as the built-in's does.
fn todowrite() -> SharedTool {
    common::agent::FnTool::new("todowrite", json!({"type": "object"}), |args, _| {
        let mut metadata = Map::new();
        metadata.insert("todos".into(), args["todos"].clone());
        let result = ToolResult {
            metadata: Some(metadata),
            ..ToolResult::ok("plan updated")
        };
        Box::pin(async move { result })
    })
}

fn gated(name: &str, model: &str, tools: &[&str], verify: Rc<dyn Verify>, max: u32) -> AgentDef {
    AgentDef {
        completion: Some(Completion::new(verify, max)),
        ..def(name, "does gated work", model, tools, &[])
    }
}

fn spawn(bed: &Bed, parent: Handle, name: &str) -> Handle {
    bed.rt.spawn(parent, name, None).unwrap()
}

fn run(bed: &Bed, h: Handle, prompt: &str) -> TaskResult {
    bed.rt.wake(h, Some(prompt)).unwrap();
    bed.block_on(bed.rt.wait(h, WaitOptions::default()))
}

/// The last user message of every model request, in order.
fn asked(models: &Models) -> Vec<String> {
    models
        .bodies
        .borrow()
        .iter()
        .map(|b| {
            let messages = b["messages"].as_array().cloned().unwrap_or_default();
            let user = messages.iter().rev().find(|m| m["role"] == json!("user"));
            user.and_then(|m| m["content"].as_str())
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

/// "first try" to the first ask, "fixed" to a re-ask.
fn fixer() -> Vec<Rule> {
    vec![
        Rule::text(When::LastUserContains(RETRY.into()), "fixed"),
        Rule::text(When::Always, "first try"),
    ]
}

#[test]
fn a_failed_verdict_asks_again_with_the_reason_on_the_same_conversation() {
    let verify = Recorder::new(|r| {
        Ok(if r.text == "first try" {
            Verdict::fail("no proof")
        } else {
            Verdict::pass()
        })
    });
    let models = Models::new(vec![("m-w", fixer())]);
    let bed = Bed::new(
        vec![gated("w", "m-w", &[], verify.clone(), 3)],
        &[],
        models,
        |_| {},
    );
    let w = spawn(&bed, bed.rt.root(), "w");
    let r = run(&bed, w, "write it");
    assert_eq!(
        (r.status, r.text.as_str(), r.is_error),
        (TaskStatus::Done, "fixed", false)
    );
    assert_eq!((r.turns, r.total_tokens), (2, 80), "both attempts count");
    assert_eq!(
        asked(&bed.models),
        [
            "write it",
            "Your work did not verify: no proof. Fix it and finish."
        ]
    );
    // The re-ask continues the conversation: the first exchange is in its request.
    let second = bed.models.bodies.borrow()[1]["messages"].clone();
    assert!(second
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["content"] == json!("first try")));
    assert_eq!(verify.seen.borrow().len(), 2);
    assert_eq!(bed.rt.inspect(w).turns, 2);
    assert_eq!(bed.rt.inspect(bed.rt.root()).tokens, 80);
    assert_eq!(
        bed.rt.trace()[1..],
        [
            "root/w.1: idle→running (wake)",
            "root/w.1: running→idle (done, turns=2, tokens=80)",
        ]
    );
}

#[test]
fn exhausting_max_attempts_ends_the_turn_incomplete_with_the_reference_text() {
    let verify = Recorder::new(|_| Ok(Verdict::fail("always red")));
    let models = Models::new(vec![("m-w", fixer())]);
    let bed = Bed::new(
        vec![gated("w", "m-w", &[], verify.clone(), 2)],
        &[],
        models,
        |_| {},
    );
    let w = spawn(&bed, bed.rt.root(), "w");
    let r = run(&bed, w, "go");
    assert_eq!(r.status, TaskStatus::Incomplete);
    assert_eq!(r.limit.as_deref(), Some("completion"));
    assert_eq!(r.text, "completion.verify failed 2×: always red");
    assert!(r.is_error);
    assert_eq!((r.turns, r.total_tokens), (2, 80));
    assert_eq!(
        bed.models.bodies.borrow().len(),
        2,
        "bounded by maxAttempts"
    );
    assert_eq!(bed.rt.state(w), HandleState::Idle);
    assert!(bed
        .rt
        .trace()
        .contains(&"root/w.1: running→idle (incomplete: completion)".to_owned()));
    // A verdict without a reason says "unspecified"; one attempt allowed means no re-ask.
    let quiet = Recorder::new(|_| {
        Ok(Verdict {
            ok: false,
            reason: None,
        })
    });
    let models = Models::new(vec![("m-w", fixer())]);
    let bed = Bed::new(vec![gated("w", "m-w", &[], quiet, 1)], &[], models, |_| {});
    let w = spawn(&bed, bed.rt.root(), "w");
    let r = run(&bed, w, "go");
    assert_eq!(r.text, "completion.verify failed 1×: unspecified");
    assert_eq!(bed.models.bodies.borrow().len(), 1);
}

#[test]
fn the_gate_judges_the_calls_of_every_attempt_so_a_retry_cannot_drop_its_plan() {
    let verify: Rc<dyn Verify> = Rc::new(all_todos_done);
    let models = Models::new(vec![(
        "m-plan",
        vec![
            // A re-ask answers without re-declaring the plan.
            Rule::text(
                When::LastUserContains(RETRY.into()),
                "I am finished, honest",
            ),
            Rule::calls(
                When::ToolMsgs(0),
                vec![(
                    "todowrite",
                    json!({"todos": [{"id": "1", "text": "ship it", "completed": false}]}),
                )],
            ),
            Rule::text(When::ToolMsgsAtLeast(1), "done, I think"),
        ],
    )]);
    let bed = Bed::new(
        vec![gated("planner", "m-plan", &["todowrite"], verify, 2)],
        &[todowrite()],
        models,
        |_| {},
    );
    let p = spawn(&bed, bed.rt.root(), "planner");
    let r = run(&bed, p, "plan and ship");
    assert_eq!(r.status, TaskStatus::Incomplete);
    assert_eq!(
        r.text,
        "completion.verify failed 2×: 1 item(s) still open: ship it"
    );
    assert_eq!(
        asked(&bed.models).last().unwrap(),
        "Your work did not verify: 1 item(s) still open: ship it. Fix it and finish."
    );

    // The same gate passes once the plan is closed on the re-ask.
    let models = Models::new(vec![(
        "m-plan",
        vec![
            Rule::calls(
                When::ToolMsgs(0),
                vec![(
                    "todowrite",
                    json!({"todos": [{"id": "1", "text": "ship it", "completed": false}]}),
                )],
            ),
            Rule::text(When::ToolMsgs(2), "all done"),
            Rule::calls(
                When::LastUserContains(RETRY.into()),
                vec![(
                    "todowrite",
                    json!({"todos": [{"id": "1", "text": "ship it", "completed": true}]}),
                )],
            ),
            Rule::text(When::ToolMsgs(1), "I think I am finished"),
        ],
    )]);
    let verify: Rc<dyn Verify> = Rc::new(all_todos_done);
    let bed = Bed::new(
        vec![gated("planner", "m-plan", &["todowrite"], verify, 3)],
        &[todowrite()],
        models,
        |_| {},
    );
    let p = spawn(&bed, bed.rt.root(), "planner");
    let r = run(&bed, p, "plan and ship");
    assert_eq!((r.status, r.text.as_str()), (TaskStatus::Done, "all done"));
    assert_eq!((r.turns, bed.models.bodies.borrow().len()), (4, 4));
}

#[test]
fn a_suspended_turn_is_not_judged_and_its_resume_is() {
    let verify = Recorder::new(|_| Ok(Verdict::pass()));
    let (runs, approved) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let models = Models::new(vec![(
        "m-ask",
        vec![
            Rule::calls(When::ToolMsgs(0), vec![("check_secret", json!({}))]),
            Rule::text(When::ToolMsgsAtLeast(1), "got <first tool msg content>"),
        ],
    )]);
    let bed = Bed::new(
        vec![gated(
            "asker",
            "m-ask",
            &["check_secret"],
            verify.clone(),
            2,
        )],
        &[check_secret(runs.clone(), approved.clone())],
        models,
        |_| {},
    );
    let a = spawn(&bed, bed.rt.root(), "asker");
    let r = run(&bed, a, "get the secret");
    assert_eq!(r.status, TaskStatus::Pending);
    assert!(
        verify.seen.borrow().is_empty(),
        "a suspension is not judged"
    );
    let id = r.pending.unwrap().id;
    let done = bed
        .block_on(bed.rt.resume(json!({"id": id, "ok": true})))
        .unwrap();
    assert_eq!(
        (done.status, done.text.as_str()),
        (TaskStatus::Done, "got secret-token")
    );
    assert_eq!(verify.seen.borrow().len(), 1, "the resumed turn is judged");
    assert_eq!(approved.get(), 1);
}

#[test]
fn a_verifier_that_fails_is_an_error_result_and_the_runtime_keeps_serving() {
    let verify = Recorder::new(|_| Err("threw: verifier exploded".into()));
    let models = Models::new(vec![("m-w", fixer())]);
    let bed = Bed::new(
        vec![
            gated("w", "m-w", &[], verify, 3),
            def("plain", "ungated", "m-w", &[], &[]),
        ],
        &[],
        models,
        |_| {},
    );
    let w = spawn(&bed, bed.rt.root(), "w");
    let r = run(&bed, w, "go");
    assert_eq!(r.status, TaskStatus::Error);
    assert_eq!(r.text, "completion.verify threw: verifier exploded");
    assert_eq!(
        (r.turns, r.total_tokens),
        (1, 40),
        "the run it judged was spent"
    );
    assert_eq!(bed.rt.state(w), HandleState::Idle);
    assert!(bed.rt.trace().contains(
        &"root/w.1: running→idle (error: completion.verify threw: verifier exploded)".to_owned()
    ));
    let p = spawn(&bed, bed.rt.root(), "plain");
    assert_eq!(run(&bed, p, "go").status, TaskStatus::Done);
}

#[test]
fn an_interrupt_while_the_verifier_is_out_ends_the_turn_and_the_clock_bounds_it() {
    let models = Models::new(vec![("m-w", fixer())]);
    let bed = Bed::new(
        vec![gated("w", "m-w", &[], Rc::new(Silent), 2)],
        &[],
        models,
        |_| {},
    );
    let w = spawn(&bed, bed.rt.root(), "w");
    bed.rt.wake(w, Some("go")).unwrap();
    let waiting = bed.rt.wait(w, WaitOptions::default());
    bed.settle();
    assert_eq!(
        bed.rt.state(w),
        HandleState::Running,
        "the verdict is awaited"
    );
    bed.rt.interrupt(w);
    let r = bed.block_on(waiting);
    assert_eq!(r.status, TaskStatus::Interrupted);
    assert_eq!(bed.rt.state(w), HandleState::Idle);

    // With a wall-clock budget, a verdict that never comes ends the turn at the deadline.
    let budget = Budget {
        max_wall_ms: Some(1_000.0),
        ..Budget::default()
    };
    let w2 = bed.rt.spawn(bed.rt.root(), "w", Some(&budget)).unwrap();
    bed.rt.wake(w2, Some("go")).unwrap();
    let waiting = bed.rt.wait(w2, WaitOptions::default());
    bed.settle();
    bed.advance(1_000.0);
    let r = bed.block_on(waiting);
    assert_eq!(
        (r.status, r.limit.as_deref()),
        (TaskStatus::Incomplete, Some("maxWallMs"))
    );
}

/// A handle of an agent whose verifier always fails (5 attempts allowed) under `budget`.
fn never_verified(budget: Budget) -> (Bed, Handle) {
    let red: Rc<dyn Verify> = Recorder::new(|_| Ok(Verdict::fail("red")));
    let models = Models::new(vec![("m-w", fixer())]);
    let def = AgentDef {
        budget,
        ..gated("w", "m-w", &[], red, 5)
    };
    let bed = Bed::new(vec![def], &[], models, |_| {});
    let w = spawn(&bed, bed.rt.root(), "w");
    (bed, w)
}

#[test]
fn every_attempt_is_spent_from_the_budgets_and_a_spent_budget_stops_the_re_asks() {
    // 40 tokens a reply: 40, 80 (< 100, ask again), 120 (exhausted: no fourth ask).
    let (bed, w) = never_verified(Budget {
        max_tokens: Some(100.0),
        ..Budget::default()
    });
    let r = run(&bed, w, "go");
    assert_eq!(
        (r.status, r.limit.as_deref()),
        (TaskStatus::Incomplete, Some("maxTokens"))
    );
    assert_eq!(
        r.text,
        "budget exhausted (maxTokens); partial work preserved"
    );
    assert_eq!((r.turns, r.total_tokens), (3, 120));
    assert_eq!(
        bed.rt.inspect(bed.rt.root()).tokens,
        120,
        "rolled up the tree"
    );
    assert_eq!(bed.models.bodies.borrow().len(), 3);

    // The lifetime turn cap: two model calls, then no re-ask.
    let (bed, w) = never_verified(Budget {
        max_turns: Some(2.0),
        ..Budget::default()
    });
    let r = run(&bed, w, "go");
    assert_eq!(
        (r.status, r.limit.as_deref(), r.text.as_str()),
        (
            TaskStatus::Incomplete,
            Some("maxTurns"),
            "hit maxTurns without a final answer"
        )
    );
    assert_eq!(bed.rt.inspect(w).turns, 2);
    assert_eq!(bed.models.bodies.borrow().len(), 2);
}

#[test]
fn a_delegated_child_runs_through_its_own_gate() {
    let verify = Recorder::new(|_| Ok(Verdict::fail("tests fail")));
    let models = Models::new(vec![
        (
            "m-lead",
            vec![
                Rule::calls(
                    When::ToolMsgs(0),
                    vec![("task", json!({"agent": "w", "prompt": "build it"}))],
                ),
                Rule::text(
                    When::ToolMsgsAtLeast(1),
                    "lead saw: <first tool msg content>",
                ),
            ],
        ),
        ("m-w", fixer()),
    ]);
    let bed = Bed::new(
        vec![
            def("lead", "delegates", "m-lead", &[], &["w"]),
            gated("w", "m-w", &[], verify.clone(), 2),
        ],
        &[],
        models,
        |_| {},
    );
    let lead = spawn(&bed, bed.rt.root(), "lead");
    let r = run(&bed, lead, "ship");
    assert_eq!(r.status, TaskStatus::Done);
    assert!(
        r.text.contains("completion.verify failed 2×: tests fail"),
        "the child's gate result reaches its parent: {}",
        r.text
    );
    assert_eq!(verify.seen.borrow().len(), 2);
    let child = bed.rt.find("root/lead.1/w.1").unwrap();
    assert_eq!(bed.rt.inspect(child).turns, 2);
    assert!(bed
        .rt
        .trace()
        .contains(&"root/lead.1/w.1: running→idle (incomplete: completion)".to_owned()));
}

#[test]
fn the_registry_refuses_a_gate_of_no_attempts() {
    let verify: Rc<dyn Verify> = Rc::new(|_: &RunResult| Ok(Verdict::pass()));
    let err = Registry::new(vec![gated("w", "m-w", &[], verify, 0)], &[])
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "agent \"w\": completion.maxAttempts must be an integer >= 1 (got 0)"
    );
}
