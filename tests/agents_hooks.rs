//! SPEC §7D "The §8 seams on an agent run": the runtime hands `hooks` and `onMetric` to the
//! client it builds for each handle, the def's over the runtime's (each field on its own,
//! replacing, never merged). Scenarios H1–H6 of `../shared/conformance/agent-hooks` (their
//! expectations read from the fixture; ignored without it), and the same on the project's data.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use crate::common;

use common::agent::{asking, request, FakeHooks};
use common::agents::*;
use serde_json::Value as Json;
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use toolnexus::core::agents::data::TaskStatus;
use toolnexus::core::agents::registry::AgentDef;
use toolnexus::core::agents::runtime::{Handle, RuntimeOptions, WaitOptions};
use toolnexus::core::client::hooks::{Hooks, LlmOverride};
use toolnexus::core::client::telemetry::MetricSink;
use toolnexus::core::json::build::AsJson;
use toolnexus::core::message::Message;
use toolnexus::core::metrics::MetricEvent;
use toolnexus::{core::json::value::Value, json};

/// A `beforeLLM` that appends a system message `text` and counts its calls.
fn injecting(text: &'static str, fired: Rc<Cell<u32>>) -> Rc<dyn Hooks> {
    Rc::new(FakeHooks {
        before_llm: Some(Box::new(move |messages, _, _| {
            fired.set(fired.get() + 1);
            let mut messages = messages.to_vec();
            messages.push(json!({"role": "system", "content": text}));
            Ok(LlmOverride {
                messages: Some(messages),
                tools: None,
            })
        })),
        ..FakeHooks::default()
    })
}

/// Records every metric event's name.
#[derive(Default)]
struct Names(RefCell<Vec<String>>);

impl MetricSink for Names {
    fn emit(&self, event: &MetricEvent) {
        let name = event.as_json()["event"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        self.0.borrow_mut().push(name);
    }
}

fn agent(name: &str) -> AgentDef {
    def(name, "an agent", "m-ok", &[], &[])
}

fn models() -> Rc<Models> {
    Models::new(vec![
        (
            "m-ok",
            vec![
                Rule::text(When::ToolMsgs(0), "ok"),
                Rule::text(When::ToolMsgsAtLeast(1), "ok"),
            ],
        ),
        (
            "m-ask",
            vec![
                Rule::calls(When::ToolMsgs(0), vec![("ask", json!({}))]),
                Rule::text(When::ToolMsgsAtLeast(1), "ok"),
            ],
        ),
    ])
}

fn turn(bed: &Bed, name: &str) -> (Handle, toolnexus::core::agents::data::TaskResult) {
    let h = bed.rt.spawn(bed.rt.root(), name, None).unwrap();
    bed.rt.wake(h, Some("go")).unwrap();
    let r = bed.block_on(bed.rt.wait(h, WaitOptions::default()));
    (h, r)
}

fn wire_text(bed: &Bed) -> String {
    bed.models
        .bodies
        .borrow()
        .iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn fixture() -> Json {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance/agent-hooks/fixture.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is not readable: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn scenario(fx: &Json, id: &str) -> Json {
    fx["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id)
        .unwrap()
        .clone()
}

// ---- H1–H4 ----------------------------------------------------------------------------------

struct H1to4 {
    /// H1: the runtime hook ran and its rewrite reached the wire.
    hook_ran: bool,
    wire_contains_injected: bool,
    /// H2: the runtime sink's events.
    events: Vec<String>,
    /// H3: A's own hook fired once, the runtime's once (for B only).
    agent_a_fired: u32,
    runtime_fired: u32,
    /// H4: A used its def hooks and the runtime's onMetric.
    a_used_def_hooks: bool,
    a_used_runtime_metric: bool,
}

fn h1_to_h4() -> H1to4 {
    // H1 + H2: runtime-wide hooks and onMetric reach an agent with neither.
    let runtime_fired = Rc::new(Cell::new(0));
    let sink = Rc::new(Names::default());
    let bed = Bed::new(
        vec![agent("plain")],
        &[],
        models(),
        |o: &mut RuntimeOptions| {
            o.hooks = Some(injecting("INJECTED-BY-HOOK", runtime_fired.clone()));
            o.on_metric = Some(sink.clone());
        },
    );
    let (_, r) = turn(&bed, "plain");
    assert_eq!(r.status, TaskStatus::Done);
    let hook_ran = runtime_fired.get() == 1;
    let wire_contains_injected = wire_text(&bed).contains("INJECTED-BY-HOOK");
    let events = sink.0.borrow().clone();

    // H3 + H4: A sets its own hooks (replacing the runtime's), B sets none; the runtime's
    // onMetric still reaches A.
    let a_fired = Rc::new(Cell::new(0));
    let rt_fired = Rc::new(Cell::new(0));
    let sink = Rc::new(Names::default());
    let a = AgentDef {
        hooks: Some(injecting("FROM-A", a_fired.clone())),
        ..agent("a")
    };
    let bed = Bed::new(
        vec![a, agent("b")],
        &[],
        models(),
        |o: &mut RuntimeOptions| {
            o.hooks = Some(injecting("FROM-RUNTIME", rt_fired.clone()));
            o.on_metric = Some(sink.clone());
        },
    );
    turn(&bed, "a");
    let a_wire = wire_text(&bed);
    let a_events = sink.0.borrow().clone();
    let a_fired_after_a = a_fired.get();
    let rt_fired_after_a = rt_fired.get();
    turn(&bed, "b");
    assert_eq!(
        rt_fired_after_a, 0,
        "the runtime hook does not also run for A"
    );
    assert_eq!(
        a_fired.get(),
        a_fired_after_a,
        "A's hook does not run for B"
    );
    H1to4 {
        hook_ran,
        wire_contains_injected,
        events,
        agent_a_fired: a_fired.get(),
        runtime_fired: rt_fired.get(),
        a_used_def_hooks: a_wire.contains("FROM-A") && !a_wire.contains("FROM-RUNTIME"),
        a_used_runtime_metric: a_events == ["llm", "run"],
    }
}

#[test]
fn runtime_and_def_hooks_and_metrics_reach_agent_runs_def_over_runtime() {
    let h = h1_to_h4();
    assert!(h.hook_ran && h.wire_contains_injected);
    assert_eq!(h.events, ["llm", "run"]);
    assert_eq!((h.agent_a_fired, h.runtime_fired), (1, 1));
    assert!(h.a_used_def_hooks && h.a_used_runtime_metric);
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn agent_hooks_h1_to_h4() {
    let fx = fixture();
    let h = h1_to_h4();
    let h1 = scenario(&fx, "H1");
    assert_eq!(Json::Bool(h.hook_ran), h1["expect"]["hookRan"]);
    let injected = h1["expect"]["wireTranscriptContains"].as_str().unwrap();
    assert_eq!(
        injected, "INJECTED-BY-HOOK",
        "the text the runtime hook injects"
    );
    assert!(h.wire_contains_injected);
    let h2 = scenario(&fx, "H2");
    let expected: Vec<String> = h2["expect"]["eventsReceived"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(h.events, expected);
    let h3 = scenario(&fx, "H3");
    assert_eq!(
        u64::from(h.agent_a_fired),
        h3["expect"]["agentAHookFired"].as_u64().unwrap()
    );
    assert_eq!(
        u64::from(h.runtime_fired),
        h3["expect"]["runtimeHookFired"].as_u64().unwrap()
    );
    let h4 = scenario(&fx, "H4");
    assert_eq!(Json::Bool(h.a_used_def_hooks), h4["expect"]["usesDefHooks"]);
    assert_eq!(
        Json::Bool(h.a_used_runtime_metric),
        h4["expect"]["usesRuntimeOnMetric"]
    );
}

// ---- H5, H6: a compactor attached per agent -------------------------------------------------

/// H5's seeded transcript: a leading system message, then `pairs` user/assistant pairs.
fn seeded(soul: &str, pairs: usize, q: &str, a: &str) -> Vec<Message> {
    let mut out = vec![Message::role_content("system", soul)];
    for _ in 0..pairs {
        out.push(Message::role_content("user", q));
        out.push(Message::role_content("assistant", a));
    }
    out
}

/// A test-side compactor over the transcript a `beforeLLM` hook is handed (the package's own
/// `agents.compactor` is JavaScript, `src/js/agents.js`; this one keeps its shape): over
/// `max_tokens` (JSON length / 4), the leading system message stays verbatim, the head becomes
/// one `[Summary of earlier conversation]` system message, and a tail of at most `keep_tail`
/// tokens is kept, starting at a user turn.
fn compactor(
    max_tokens: usize,
    keep_tail: usize,
    summary: &'static str,
    fired: Rc<Cell<u32>>,
) -> Rc<dyn Hooks> {
    Rc::new(FakeHooks {
        before_llm: Some(Box::new(move |messages, _, _| {
            fired.set(fired.get() + 1);
            let tokens = |m: &Value| m.to_string().len() / 4;
            if messages.iter().map(tokens).sum::<usize>() <= max_tokens {
                return Ok(LlmOverride::default());
            }
            let (lead, rest) = messages.split_first().unwrap();
            let mut start = rest.len();
            let mut kept = 0;
            while start > 0 && kept + tokens(&rest[start - 1]) <= keep_tail {
                kept += tokens(&rest[start - 1]);
                start -= 1;
            }
            while start < rest.len() && rest[start]["role"] != json!("user") {
                start += 1;
            }
            let summary = format!("[Summary of earlier conversation]\n{summary}");
            let mut out = vec![lead.clone(), json!({"role": "system", "content": summary})];
            out.extend_from_slice(&rest[start..]);
            Ok(LlmOverride {
                messages: Some(out),
                tools: None,
            })
        })),
        ..FakeHooks::default()
    })
}

struct H5 {
    pre_run: usize,
    wire_len: usize,
    first_wire: Value,
    wire_contains_summary: bool,
}

fn h5(generator: &Json, options: &Json) -> H5 {
    let q = "q".repeat(200);
    let a = "a".repeat(200);
    let soul = generator["leading"]["content"].as_str().unwrap();
    let pairs = generator["pairs"].as_u64().unwrap() as usize;
    let max_tokens = options["maxTokens"].as_u64().unwrap() as usize;
    let keep_tail = options["keepTail"].as_u64().unwrap() as usize;
    let fired = Rc::new(Cell::new(0));
    let compacting = AgentDef {
        hooks: Some(compactor(
            max_tokens,
            keep_tail,
            "SUMMARY-OF-HEAD",
            fired.clone(),
        )),
        ..agent("persona")
    };
    let bed = Bed::new(vec![compacting], &[], models(), |_| {});
    let store = bed.rt.store();
    bed.block_on(store.save("root/persona.1", &seeded(soul, pairs, &q, &a)))
        .unwrap();
    let pre_run = bed
        .block_on(store.get("root/persona.1"))
        .unwrap()
        .unwrap()
        .len();
    let (_, r) = turn(&bed, "persona");
    assert_eq!(r.status, TaskStatus::Done);
    assert_eq!(fired.get(), 1);
    let body = bed.models.bodies.borrow()[0].clone();
    let wire = body["messages"].as_array().unwrap().clone();
    H5 {
        pre_run,
        wire_len: wire.len(),
        first_wire: wire[0]["content"].clone(),
        wire_contains_summary: body.to_string().contains("SUMMARY-OF-HEAD"),
    }
}

fn h6(generator: &Json, options: &Json) -> (TaskStatus, usize) {
    let q = "q".repeat(200);
    let a = "a".repeat(200);
    let soul = generator["leading"]["content"].as_str().unwrap();
    let pairs = generator["pairs"].as_u64().unwrap() as usize;
    let fired = Rc::new(Cell::new(0));
    let hooks = compactor(
        options["maxTokens"].as_u64().unwrap() as usize,
        options["keepTail"].as_u64().unwrap() as usize,
        "SUMMARY-OF-HEAD",
        fired.clone(),
    );
    let suspending = AgentDef {
        hooks: Some(hooks),
        ..def("persona", "asks", "m-ask", &["ask"], &[])
    };
    let tool = asking("ask", request("r1", "approval", "may I?"), false);
    let bed = Bed::new(vec![suspending], &[tool], models(), |_| {});
    let store = bed.rt.store();
    bed.block_on(store.save("root/persona.1", &seeded(soul, pairs, &q, &a)))
        .unwrap();
    let (_, r) = turn(&bed, "persona");
    assert!(fired.get() >= 1, "the turn compacted before it suspended");
    let after = bed.block_on(store.get("root/persona.1")).unwrap().unwrap();
    // The full pre-turn transcript, not the compacted head.
    assert_eq!(after, seeded(soul, pairs, &q, &a));
    (r.status, after.len())
}

fn generator() -> (Json, Json) {
    let generator =
        json_of(r#"{"leading": {"role": "system", "content": "SOUL-VERBATIM"}, "pairs": 40}"#);
    let options = json_of(r#"{"maxTokens": 200, "keepTail": 80}"#);
    (generator, options)
}

fn json_of(text: &str) -> Json {
    serde_json::from_str(text).unwrap()
}

#[test]
fn a_compactor_on_a_def_compacts_its_runs_and_a_suspended_turn_is_rewound_whole() {
    let (generator, options) = generator();
    let h = h5(&generator, &options);
    assert_eq!(h.pre_run, 81);
    assert!(h.wire_len < h.pre_run);
    assert_eq!(h.first_wire, json!("SOUL-VERBATIM"));
    assert!(h.wire_contains_summary);
    assert_eq!(h6(&generator, &options), (TaskStatus::Pending, 81));
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn agent_hooks_h5_h6() {
    let fx = fixture();
    let s5 = scenario(&fx, "H5");
    let given = &s5["given"];
    let generator = &given["generator"];
    assert_eq!(generator["group"][0]["content"], "<repeat 'q' 200 times>");
    assert_eq!(generator["group"][1]["content"], "<repeat 'a' 200 times>");
    assert_eq!(
        given["compactorOptions"]["summarize"],
        "returns the literal string 'SUMMARY-OF-HEAD'"
    );
    let h = h5(generator, &given["compactorOptions"]);
    let expect = &s5["expect"];
    assert_eq!(
        h.pre_run as u64,
        expect["preRunStoredMessages"].as_u64().unwrap()
    );
    assert_eq!(
        Json::Bool(h.wire_len < h.pre_run),
        expect["wireTranscriptSmallerThanPreRun"]
    );
    assert_eq!(
        h.first_wire,
        json!(expect["firstWireMessageContent"].as_str().unwrap())
    );
    assert_eq!(expect["wireTranscriptContains"], "SUMMARY-OF-HEAD");
    assert!(h.wire_contains_summary);
    let s6 = scenario(&fx, "H6");
    let (status, stored) = h6(generator, &given["compactorOptions"]);
    assert_eq!(status.as_str(), s6["expect"]["status"].as_str().unwrap());
    assert_eq!(
        stored as u64,
        s6["expect"]["storedMessagesAfter"].as_u64().unwrap()
    );
}

// ---- into delegated children; unset is byte-identical ---------------------------------------

fn fanout_models() -> Rc<Models> {
    Models::new(vec![
        (
            "m-coordinator",
            vec![
                Rule::calls(
                    When::ToolMsgs(0),
                    vec![("task", json!({"agent": "explore", "prompt": "find A"}))],
                ),
                Rule::text(
                    When::ToolMsgsAtLeast(1),
                    "synthesis: <first tool msg content>",
                ),
            ],
        ),
        (
            "m-explore",
            vec![
                Rule::calls(When::ToolMsgs(0), vec![("lookup", json!({"q": "x"}))]),
                Rule::text(When::ToolMsgsAtLeast(1), "found:<first tool msg content>"),
            ],
        ),
    ])
}

#[test]
fn hooks_and_metrics_reach_a_delegated_child_and_a_childs_def_replaces_them_for_it_alone() {
    let runtime_fired = Rc::new(Cell::new(0));
    let child_fired = Rc::new(Cell::new(0));
    let sink = Rc::new(Names::default());
    let explore = AgentDef {
        hooks: Some(injecting("FROM-EXPLORE", child_fired.clone())),
        ..def("explore", "research", "m-explore", &["lookup"], &[])
    };
    let coordinator = def(
        "coordinator",
        "delegates",
        "m-coordinator",
        &[],
        &["explore"],
    );
    let bed = Bed::new(
        vec![coordinator, explore],
        &[lookup()],
        fanout_models(),
        |o: &mut RuntimeOptions| {
            o.hooks = Some(injecting("FROM-RUNTIME", runtime_fired.clone()));
            o.on_metric = Some(sink.clone());
        },
    );
    let (_, r) = turn(&bed, "coordinator");
    assert_eq!(r.text, "synthesis: found:data(x)");
    assert_eq!((runtime_fired.get(), child_fired.get()), (2, 2));
    for body in bed.models.bodies.borrow().iter() {
        let text = body.to_string();
        let child = body["model"] == json!("m-explore");
        assert_eq!(text.contains("FROM-EXPLORE"), child, "{text}");
        assert_eq!(text.contains("FROM-RUNTIME"), !child, "{text}");
    }
    // The runtime's sink saw both runs: 4 model calls, the tool call, 2 runs (child first).
    let events = sink.0.borrow().clone();
    assert_eq!(events.iter().filter(|e| *e == "llm").count(), 4);
    assert_eq!(events.iter().filter(|e| *e == "run").count(), 2);
}

#[test]
fn with_no_hooks_anywhere_an_agent_turn_sends_what_a_bare_client_sends() {
    let soulful = AgentDef {
        soul: "You are terse.".into(),
        ..def("explore", "research", "m-explore", &["lookup"], &[])
    };
    let bed = Bed::new(vec![soulful], &[lookup()], fanout_models(), |_| {});
    let (_, r) = turn(&bed, "explore");
    assert_eq!(r.text, "found:data(x)");
    let agent_bodies = bed.models.bodies.borrow().clone();

    let bare = fanout_models();
    let client = bare_client(
        bare.clone(),
        bed.clock.clone(),
        "m-explore",
        "You are terse.",
    );
    let input = run_input(vec![lookup()], "go");
    let bare_result = bed.block_on(client.run(input)).unwrap();
    assert_eq!(bare_result.text, r.text);
    assert_eq!(*bare.bodies.borrow(), agent_bodies);
    let stored = bed
        .block_on(bed.rt.store().get("root/explore.1"))
        .unwrap()
        .unwrap();
    assert_eq!(stored, bare_result.messages);
}
