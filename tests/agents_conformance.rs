//! The shared sub-agent fixtures (`../shared/conformance/subagent-*`), read at run time and
//! played natively: the fixture's registry and tools, its `mockLLM` scripts as scripted models
//! keyed by model name, its steps as verbs, its expectations asserted as written. Without
//! `../shared/conformance` these tests are ignored (`build.rs`); `agents_runtime.rs` tests the
//! same behaviour on the project's own data. Fixtures played: shared/conformance/subagent-fanout,
//! shared/conformance/subagent-lifecycle, shared/conformance/subagent-budgets,
//! shared/conformance/subagent-escalation, shared/conformance/subagent-durable-resume and
//! shared/conformance/agent-hooks.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use common::agents::*;
use serde_json::Value as Json;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use toolnexus::core::agents::budget::Budget;
use toolnexus::core::agents::close::CloseOptions;
use toolnexus::core::agents::data::{CloseReason, HandleState, HandleView, InboxItem, TaskResult};
use toolnexus::core::agents::registry::{AgentDef, OnClose};
use toolnexus::core::agents::runtime::{AgentRuntime, Handle, RuntimeOptions, WaitOptions};
use toolnexus::core::client::hooks::WaitFor;
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::json::value::Value;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance")
}

fn fixture(name: &str) -> Json {
    let path = dir().join(name).join("fixture.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is not readable: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// `{"$ref": "../other/fixture.json#/json/pointer"}` resolved from `name`'s directory.
fn resolve(name: &str, value: &Json) -> Json {
    let Some(reference) = value.get("$ref").and_then(Json::as_str) else {
        return value.clone();
    };
    let (file, pointer) = reference.split_once('#').unwrap();
    let path = dir().join(name).join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is not readable: {e}", path.display()));
    let target: Json = serde_json::from_str(&text).unwrap();
    target
        .pointer(pointer)
        .unwrap_or_else(|| panic!("{reference} points nowhere"))
        .clone()
}

fn to_value(json: &Json) -> Value {
    serde_json::from_value(json.clone()).unwrap()
}

/// The fixture's `mockLLM` as scripted models.
fn models_of(name: &str, fx: &Json) -> Rc<Models> {
    let llm = &fx["mockLLM"];
    assert_eq!(llm["style"], "openai", "the scripted models speak openai");
    let usage = &llm["usagePerCall"];
    assert_eq!(
        (
            usage["prompt_tokens"].as_u64(),
            usage["completion_tokens"].as_u64()
        ),
        (Some(30), Some(10)),
        "the scripted models cost 30 + 10 per call"
    );
    let mut scripts = Vec::new();
    for (model, rules) in llm["scripts"].as_object().unwrap() {
        let rules = resolve(name, rules);
        let rules: Vec<Rule> = rules.as_array().unwrap().iter().map(rule_of).collect();
        scripts.push((model.clone(), rules));
    }
    let models = Models::new(Vec::new());
    *models.scripts.borrow_mut() = scripts;
    models
}

fn rule_of(json: &Json) -> Rule {
    let when = if json["always"] == Json::Bool(true) {
        When::Always
    } else if let Some(t) = json["whenToolMsgContains"].as_str() {
        When::ToolMsgContains(t.to_owned())
    } else if let Some(t) = json["whenNoToolMsgContains"].as_str() {
        When::NoToolMsgContains(t.to_owned())
    } else {
        match &json["whenToolMsgs"] {
            Json::Number(n) => When::ToolMsgs(n.as_u64().unwrap() as usize),
            Json::String(s) => {
                When::ToolMsgsAtLeast(s.strip_prefix(">=").unwrap().parse().unwrap())
            }
            other => panic!("unknown rule condition {other}"),
        }
    };
    let answer = if let Some(calls) = json["toolCalls"].as_array() {
        Answer::Calls(
            calls
                .iter()
                .map(|c| (c["name"].as_str().unwrap().to_owned(), to_value(&c["args"])))
                .collect(),
        )
    } else {
        Answer::Text(json["text"].as_str().unwrap().to_owned())
    };
    let blocks = match json.get("blocksUntil") {
        None => false,
        Some(Json::String(s)) if s == "released-or-aborted" => true,
        Some(other) => panic!("unknown blocksUntil {other}"),
    };
    Rule {
        when,
        answer,
        blocks,
    }
}

/// The fixture's registry (with `registryOverride` over it) as defs.
fn defs_of(fx: &Json, over: Option<&Json>) -> Vec<AgentDef> {
    let mut defs = Vec::new();
    for (name, entry) in fx["registry"].as_object().unwrap() {
        let mut entry = entry.clone();
        if let Some(o) = over.and_then(|o| o.get(name)) {
            for (k, v) in o.as_object().unwrap() {
                entry[k] = v.clone();
            }
        }
        let strings = |key: &str| -> Vec<String> {
            entry[key]
                .as_array()
                .map(|a| a.iter().map(|s| s.as_str().unwrap().to_owned()).collect())
                .unwrap_or_default()
        };
        defs.push(AgentDef {
            model: entry["model"].as_str().map(str::to_owned),
            tools: strings("tools"),
            team: strings("team"),
            budget: budget_of(entry.get("budget")),
            wait_for: wait_for_of(entry.get("waitFor")),
            ..AgentDef::new(name.as_str(), entry["does"].as_str().unwrap())
        });
    }
    defs
}

/// A registry entry's `waitFor`, known by its behaviour text.
fn wait_for_of(json: Option<&Json>) -> Option<Rc<dyn WaitFor>> {
    let behavior = json?["behavior"].as_str().unwrap();
    assert!(
        behavior.starts_with("auto-approve"),
        "unknown waitFor behavior {behavior}"
    );
    Some(Approver::new(true))
}

fn budget_of(json: Option<&Json>) -> Budget {
    match json {
        Some(b) => Budget::from_json(to_value(b)).unwrap(),
        None => Budget::default(),
    }
}

thread_local! {
    /// `check_secret`'s runs and approved runs, on this test's thread.
    static SECRET: (Rc<Cell<u32>>, Rc<Cell<u32>>) = Default::default();
}

/// `check_secret`'s (runs, approved runs) so far on this thread.
fn secret_counts() -> (u32, u32) {
    SECRET.with(|(runs, approved)| (runs.get(), approved.get()))
}

/// The fixture's tools; each behaviour the fixtures use is known here by its text.
fn tools_of(fx: &Json) -> Vec<toolnexus::core::tool::SharedTool> {
    fx["tools"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, t)| match (name.as_str(), t["behavior"].as_str()) {
            ("lookup", Some("returns \"data(<q>)\"")) => lookup(),
            ("check_secret", Some(b)) if b.starts_with("without ctx.answer → pending") => {
                SECRET.with(|(runs, approved)| check_secret(runs.clone(), approved.clone()))
            }
            other => panic!("unknown fixture tool {other:?}"),
        })
        .collect()
}

fn bed_of(
    name: &str,
    fx: &Json,
    scenario: Option<&Json>,
    edit: impl FnOnce(&mut Vec<AgentDef>),
) -> Bed {
    let mut defs = defs_of(fx, scenario.and_then(|s| s.get("registryOverride")));
    edit(&mut defs);
    let runtime = scenario.and_then(|s| s.get("runtime")).cloned();
    Bed::new(
        defs,
        &tools_of(fx),
        models_of(name, fx),
        move |o: &mut RuntimeOptions| {
            if let Some(r) = runtime {
                if let Some(cap) = r.get("inboxCap") {
                    o.inbox_cap = Some(cap.as_u64().unwrap() as usize);
                }
                if let Some(n) = r.get("maxConcurrentTurns") {
                    o.max_concurrent_turns = Some(n.as_u64().unwrap() as usize);
                }
            }
        },
    )
}

/// Runs `{entry, prompt}` and returns the entry handle and its result.
fn run_entry(bed: &Bed, run: &Json) -> (Handle, TaskResult) {
    let h = bed
        .rt
        .spawn(bed.rt.root(), run["entry"].as_str().unwrap(), None)
        .unwrap();
    bed.rt.wake(h, run["prompt"].as_str()).unwrap();
    let waiting = bed.rt.wait(h, WaitOptions::default());
    (h, bed.block_on(waiting))
}

const TRANSITIONS: [&str; 8] = [
    "idle→running",
    "running→suspended",
    "suspended→running",
    "suspended→idle",
    "running→idle",
    "idle→closed",
    "suspended→closed",
    "running→closed",
];

fn transitions_of(rt: &AgentRuntime, id: &str) -> Vec<String> {
    let prefix = format!("{id}: ");
    rt.trace()
        .iter()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|rest| {
            TRANSITIONS
                .iter()
                .find(|t| rest.starts_with(**t))
                .map(|t| (*t).to_owned())
        })
        .collect()
}

/// Fixture arrows are stateful (`idle→closed`) or bare (`→closed`): suffix-matched.
fn assert_transitions(rt: &AgentRuntime, id: &str, expected: &Json) {
    let actual = transitions_of(rt, id);
    let expected: Vec<&str> = expected
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(
        actual.len(),
        expected.len(),
        "transitions of {id}: {actual:?} vs {expected:?}"
    );
    for (a, e) in actual.iter().zip(&expected) {
        assert!(
            a == e || a.ends_with(e),
            "transitions of {id}: {actual:?} vs {expected:?}"
        );
    }
}

fn status(r: &TaskResult) -> &'static str {
    r.status.as_str()
}

// ---- subagent-fanout ------------------------------------------------------------------------

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_fanout() {
    let fx = fixture("subagent-fanout");
    let bed = bed_of("subagent-fanout", &fx, None, |_| {});
    let (coord, r) = run_entry(&bed, &fx["run"]);
    let expect = &fx["expect"];
    assert_eq!(status(&r), expect["status"]);
    for s in expect["textContains"].as_array().unwrap() {
        assert!(r.text.contains(s.as_str().unwrap()), "{}", r.text);
    }
    for (needle, n) in expect["textOccurrences"].as_object().unwrap() {
        assert_eq!(
            r.text.matches(needle.as_str()).count() as u64,
            n.as_u64().unwrap(),
            "{}",
            r.text
        );
    }
    assert_eq!(u64::from(r.turns), expect["parentTurns"].as_u64().unwrap());
    let trace = bed.rt.trace();
    for id in expect["childIds"].as_array().unwrap() {
        let spawned = format!("{}: spawned", id.as_str().unwrap());
        assert!(
            trace.iter().any(|l| l.starts_with(&spawned)),
            "missing spawn of {id}"
        );
    }
    assert!(
        bed.rt.max_observed_concurrent_turns() as u64
            >= expect["concurrentTurnsObservedAtLeast"].as_u64().unwrap()
    );
    assert_eq!(
        bed.rt.inspect(coord).tokens,
        expect["parentUsageTotal"].as_u64().unwrap()
    );
    if expect["childrenClosedAfterTask"] == Json::Bool(true) {
        let coord_id = bed.rt.id(coord);
        assert!(bed
            .rt
            .list()
            .iter()
            .all(|v| v.id == coord_id || v.state == HandleState::Closed));
    }
    for (id, expected) in expect["transitions"].as_object().unwrap() {
        assert_transitions(&bed.rt, id, expected);
    }
}

// ---- subagent-lifecycle ---------------------------------------------------------------------

fn lifecycle() -> Json {
    fixture("subagent-lifecycle")
}

/// A step's handle: a full id, or a path of agent names from the root (each segment the first
/// child of that agent, spawned when missing).
fn handle(bed: &Bed, path: &str) -> Handle {
    if let Some(h) = bed.rt.find(path) {
        return h;
    }
    let mut at = bed.rt.root();
    for segment in path.split('/') {
        let existing = bed
            .rt
            .children(at)
            .into_iter()
            .find(|&c| bed.rt.agent_name(c) == segment);
        at = existing.unwrap_or_else(|| bed.rt.spawn(at, segment, None).unwrap());
    }
    at
}

fn post_item(post: &Json) -> InboxItem {
    InboxItem {
        from: post["from"].as_str().unwrap_or("x").into(),
        channel: post["channel"].as_str().unwrap_or("peer").into(),
        text: post["text"].as_str().unwrap().into(),
    }
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_lifecycle_coalesced_drain() {
    let fx = lifecycle();
    let sc = &fx["scenarios"]["coalescedDrain"];
    let bed = bed_of("subagent-lifecycle", &fx, Some(sc), |_| {});
    let mut result = None;
    for step in sc["steps"].as_array().unwrap() {
        if let Some(post) = step.get("post") {
            let h = handle(&bed, post["handle"].as_str().unwrap());
            bed.rt.post(h, post_item(post)).unwrap();
        } else if let Some(ww) = step.get("wakeWait") {
            let h = handle(&bed, ww["handle"].as_str().unwrap());
            bed.rt.wake(h, ww["prompt"].as_str()).unwrap();
            result = Some(bed.block_on(bed.rt.wait(h, WaitOptions::default())));
        } else {
            panic!("unknown step {step}");
        }
    }
    let r = result.unwrap();
    assert_eq!(u64::from(r.turns), sc["expect"]["turns"].as_u64().unwrap());
    assert_eq!(r.text, sc["expect"]["text"].as_str().unwrap());
    // The note: provenance rendered, external marked untrusted.
    let sent = bed.models.bodies.borrow()[0]["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        sent.contains(
            "[from=external channel=external UNTRUSTED] <untrusted>webhook payload</untrusted>"
        ),
        "{sent}"
    );
    assert!(
        sent.contains("[from=clock channel=timer] tick (x3 coalesced)"),
        "{sent}"
    );
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_lifecycle_inbox_gate() {
    let fx = lifecycle();
    let sc = &fx["scenarios"]["inboxGate"];
    let bed = bed_of("subagent-lifecycle", &fx, Some(sc), |_| {});
    for step in sc["steps"].as_array().unwrap() {
        let post = &step["post"];
        let h = handle(&bed, post["handle"].as_str().unwrap());
        let outcome = bed.rt.post(h, post_item(post));
        match step.get("expect") {
            Some(expect) => {
                assert_eq!(expect["rejected"], Json::Bool(true));
                let err = outcome.unwrap_err();
                assert!(
                    err.0.contains(expect["errorContains"].as_str().unwrap()),
                    "{}",
                    err.0
                );
            }
            None => outcome.unwrap(),
        }
    }
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_lifecycle_concurrency_gate() {
    let fx = lifecycle();
    let sc = &fx["scenarios"]["concurrencyGate"];
    let bed = bed_of("subagent-lifecycle", &fx, Some(sc), |_| {});
    let (_, r) = run_entry(&bed, &sc["run"]);
    assert_eq!(status(&r), sc["expect"]["status"]);
    let trace = bed.rt.trace();
    for s in sc["expect"]["traceContains"].as_array().unwrap() {
        assert!(
            trace.iter().any(|l| l.contains(s.as_str().unwrap())),
            "missing {s} in {trace:#?}"
        );
    }
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_lifecycle_turn_gate() {
    let fx = lifecycle();
    let sc = &fx["scenarios"]["turnGate"];
    let bed = bed_of("subagent-lifecycle", &fx, Some(sc), |_| {});
    let (_, r) = run_entry(&bed, &sc["run"]);
    assert_eq!(status(&r), sc["expect"]["status"]);
    assert_eq!(
        bed.rt.max_observed_concurrent_turns() as u64,
        sc["expect"]["maxObservedConcurrentTurns"].as_u64().unwrap()
    );
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_lifecycle_interrupt() {
    let fx = lifecycle();
    let sc = &fx["scenarios"]["interrupt"];
    let bed = bed_of("subagent-lifecycle", &fx, Some(sc), |_| {});
    let mut waiter = None;
    let mut last = None;
    for step in sc["steps"].as_array().unwrap() {
        if let Some(post) = step.get("post") {
            let h = handle(&bed, post["handle"].as_str().unwrap());
            bed.rt.post(h, post_item(post)).unwrap();
        } else if let Some(wake) = step.get("wake") {
            let h = handle(&bed, wake["handle"].as_str().unwrap());
            bed.rt.wake(h, wake["prompt"].as_str()).unwrap();
            last = Some(h);
        } else if let Some(wait) = step.get("awaitState") {
            let h = handle(&bed, wait["handle"].as_str().unwrap());
            bed.settle();
            assert_eq!(bed.rt.state(h).as_str(), wait["state"].as_str().unwrap());
            waiter = Some(bed.rt.wait(h, WaitOptions::default()));
        } else if let Some(i) = step.get("interrupt") {
            bed.rt
                .interrupt(handle(&bed, i["handle"].as_str().unwrap()));
        } else {
            panic!("unknown step {step}");
        }
    }
    let r = bed.block_on(waiter.unwrap());
    let h = last.unwrap();
    let expect = &sc["expect"];
    assert!(r.is_error);
    assert_eq!(status(&r), expect["waiterStatus"]);
    assert_eq!(
        bed.rt.state(h).as_str(),
        expect["finalState"].as_str().unwrap()
    );
    assert_eq!(
        bed.rt.inbox(h).len() as u64,
        expect["inboxLen"].as_u64().unwrap()
    );
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_lifecycle_close_cascade() {
    let fx = lifecycle();
    let sc = &fx["scenarios"]["closeCascade"];
    let order = Rc::new(RefCell::new(Vec::<String>::new()));
    let record: OnClose = {
        let order = order.clone();
        Rc::new(
            move |v: &HandleView, _: CloseReason| -> LocalBoxFuture<'static, ()> {
                order.borrow_mut().push(v.id.clone());
                Box::pin(async {})
            },
        )
    };
    let bed = bed_of("subagent-lifecycle", &fx, Some(sc), |defs| {
        for d in defs.iter_mut() {
            d.on_close = Some(record.clone());
        }
    });
    let tree: Vec<Handle> = sc["tree"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| handle(&bed, p.as_str().unwrap()))
        .collect();
    assert_eq!(tree.len(), 3);
    for step in sc["steps"].as_array().unwrap() {
        if step.get("closeRoot") == Some(&Json::Bool(true)) {
            bed.block_on(bed.rt.close(bed.rt.root(), CloseOptions::default()));
        } else if let Some(post) = step.get("post") {
            let h = handle(&bed, post["handle"].as_str().unwrap());
            let err = bed.rt.post(h, post_item(post)).unwrap_err();
            assert_eq!(step["expect"]["rejected"], Json::Bool(true));
            assert!(
                err.0
                    .contains(step["expect"]["errorContains"].as_str().unwrap()),
                "{}",
                err.0
            );
        } else {
            panic!("unknown step {step}");
        }
    }
    // "grandchild, child, parent (leaf-first)"
    assert_eq!(
        sc["expect"]["onCloseOrder"],
        "grandchild, child, parent (leaf-first)"
    );
    let ids: Vec<String> = tree.iter().rev().map(|&h| bed.rt.id(h)).collect();
    assert_eq!(*order.borrow(), ids);
    assert_eq!(sc["expect"]["allStates"], "closed");
    assert!(bed.rt.list().iter().all(|v| v.state == HandleState::Closed));
}

// ---- subagent-budgets -----------------------------------------------------------------------

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_budgets() {
    let fx = fixture("subagent-budgets");
    let mut bed = bed_of("subagent-budgets", &fx, None, |_| {});
    let mut checked = 0;
    let mut max_turns: Option<(Handle, f64)> = None;
    for step in fx["steps"].as_array().unwrap() {
        let expect = step.get("expect");
        if let Some(spawn) = step.get("spawn") {
            // The fixture names the looper `root/looper.1` after `root/coordinator.1`: ids
            // count a parent's children (SPEC §7D, every port), so, as the reference's own
            // test does, a second top-level spawn starts on a fresh runtime.
            if spawn["parent"] == "root" && !bed.rt.children(bed.rt.root()).is_empty() {
                bed = bed_of("subagent-budgets", &fx, None, |_| {});
            }
            let parent = handle(&bed, spawn["parent"].as_str().unwrap());
            let budget = spawn.get("budget").map(|b| budget_of(Some(b)));
            let outcome = bed
                .rt
                .spawn(parent, spawn["def"].as_str().unwrap(), budget.as_ref());
            if let (Ok(h), Some(turns)) = (&outcome, budget.as_ref().and_then(|b| b.max_turns)) {
                max_turns = Some((*h, turns));
            }
            match expect {
                Some(e) if e.get("isError").is_some() => {
                    let err = outcome.unwrap_err();
                    assert!(err.0.contains(e["isError"].as_str().unwrap()), "{}", err.0);
                    checked += 1;
                }
                Some(e) => {
                    let h = outcome.unwrap();
                    if let Some(t) = e.get("effectiveTokens") {
                        assert_eq!(bed.rt.inspect(h).pool_tokens, t.as_f64());
                        checked += 1;
                    }
                }
                None => {
                    outcome.unwrap();
                }
            }
        } else if let Some(ww) = step.get("wakeWait") {
            let h = handle(&bed, ww["handle"].as_str().unwrap());
            let _refused = bed.rt.wake(h, ww["prompt"].as_str());
            let r = bed.block_on(bed.rt.wait(h, WaitOptions::default()));
            let e = expect.unwrap();
            assert_eq!(status(&r), e["status"], "{}: {}", step, r.text);
            if let Some((capped, turns)) = max_turns {
                if capped == h {
                    // "maxTurns cap is loud": it ran its whole allowance, then stopped.
                    assert_eq!(f64::from(r.turns), turns);
                    assert_eq!(r.limit.as_deref(), Some("maxTurns"));
                }
            }
            checked += 1;
            if let Some(s) = e.get("errorContains") {
                assert!(r.text.contains(s.as_str().unwrap()), "{}", r.text);
            }
            if let Some(pool) = e.get("parentPoolAfter") {
                let parent = bed.rt.find("root/coordinator.1").unwrap();
                assert_eq!(bed.rt.inspect(parent).pool_tokens, pool.as_f64());
            }
        } else {
            panic!("unknown step {step}");
        }
    }
    assert_eq!(checked, 6, "every expectation of the fixture was checked");
}

// ---- subagent-escalation --------------------------------------------------------------------

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_escalation() {
    let fx = fixture("subagent-escalation");
    let bed = bed_of("subagent-escalation", &fx, None, |_| {});
    let (_, r) = run_entry(&bed, &fx["run"]);
    let expect = &fx["expect"];
    assert_eq!(status(&r), expect["status"], "{r:?}");
    for s in expect["textContains"].as_array().unwrap() {
        assert!(r.text.contains(s.as_str().unwrap()), "{}", r.text);
    }
    let trace = bed.rt.trace();
    let answered_by = expect["escalation"]["answeredBy"].as_str().unwrap();
    let escalated = format!("escalate → {answered_by} answers");
    assert!(
        trace.iter().any(|l| l.contains(&escalated)),
        "{}",
        trace.join("\n")
    );
    for step in expect["escalation"]["childTrace"].as_array().unwrap() {
        let step = step.as_str().unwrap();
        assert!(
            trace.iter().any(|l| l.contains(step)),
            "{}",
            trace.join("\n")
        );
    }
    for (id, expected) in expect["transitions"].as_object().unwrap() {
        assert_transitions(&bed.rt, id, expected);
    }
    // The approved call ran once with the answer.
    assert_eq!(secret_counts().1, 1);
}

// ---- subagent-durable-resume ----------------------------------------------------------------

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn subagent_durable_resume() {
    let name = "subagent-durable-resume";
    let mut fx = fixture(name);
    fx["mockLLM"] = resolve(name, &fx["mockLLM"]);
    let bed = bed_of(name, &fx, None, |_| {});
    let (parent, r1) = run_entry(&bed, &fx["run"]);
    let phase1 = &fx["phase1_expect"];
    assert_eq!(status(&r1), phase1["status"], "{r1:?}");
    let pending = r1.pending.clone().unwrap();
    assert_eq!(pending.kind, phase1["pendingKind"]);
    let path: Vec<String> = pending.data.as_ref().unwrap()["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    assert!(
        phase1["pendingDataPathEndsWithin"]
            .as_str()
            .unwrap()
            .contains(&path.join("/")),
        "{path:?}"
    );
    let wire = toolnexus::core::json::record::Record::to_json_value(&pending);
    assert!(wire.get("path").is_none(), "path rides data.path only");
    assert_eq!(phase1["allHandles"], "suspended");
    assert!(bed
        .rt
        .list()
        .iter()
        .all(|v| v.state == HandleState::Suspended));
    let asker_tokens = |bed: &Bed| {
        bed.rt
            .list()
            .iter()
            .find(|v| v.id.contains("asker"))
            .unwrap()
            .tokens
    };
    let tokens_before = asker_tokens(&bed);
    let spawns = |bed: &Bed| {
        bed.rt
            .trace()
            .iter()
            .filter(|l| l.contains(": spawned"))
            .count()
    };
    let spawns_before = spawns(&bed);

    let mut answer = fx["resume"]["answer"].clone();
    answer["id"] = Json::String(pending.id.clone());
    let answer = to_value(&answer);
    let resumed = bed.block_on(bed.rt.resume(answer)).unwrap();
    assert_eq!(resumed.status.as_str(), "done", "{resumed:?}");

    let phase2 = &fx["phase2_expect"];
    let trace = bed.rt.trace().join("\n");
    if phase2["leafResumedAtCheckpoint"] == Json::Bool(true) {
        assert!(
            trace.contains("resume with Answer(ok=true) at checkpoint"),
            "{trace}"
        );
    }
    for s in phase2["traceContains"].as_array().unwrap() {
        assert!(trace.contains(s.as_str().unwrap()), "{trace}");
    }
    if phase2["noDuplicateChildIds"] == Json::Bool(true) {
        assert_eq!(spawns(&bed), spawns_before, "{trace}");
    }
    if phase2["leafUsageGrewNotReset"] == Json::Bool(true) {
        assert!(asker_tokens(&bed) > tokens_before, "{trace}");
    }
    assert_eq!(
        bed.rt.state(parent).as_str(),
        phase2["finalParentState"].as_str().unwrap()
    );
    for (id, expected) in phase2["transitions"].as_object().unwrap() {
        assert_transitions(&bed.rt, id, expected);
    }
    let (_, approved) = secret_counts();
    assert_eq!(approved, 1, "the approved call ran once");
}
