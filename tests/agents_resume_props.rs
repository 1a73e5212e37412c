//! Properties of escalation-free durable resume over random trees and random answer orders: a
//! lead delegates in parallel to leaves and relaying mids whose leaves all suspend; the host
//! answers the suspended requests in any order, approving or declining each, sometimes
//! reloading the runtime from its saved state between answers. Every leaf gets exactly one
//! result, a decline never breaks a sibling, every stored transcript keeps exactly one
//! `tool_result` per `tool_use`, nothing is spawned twice, and each tool runs once to ask and
//! once more only for an approval.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agents::*;
use proptest::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use toolnexus::core::agents::data::{HandleState, TaskStatus};
use toolnexus::core::agents::registry::AgentDef;
use toolnexus::core::agents::runtime::WaitOptions;
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::json::value::Value;
use toolnexus::core::tool::SharedTool;
use toolnexus::json;

/// One branch of the lead: a leaf, or a mid relaying to its leaf.
#[derive(Debug, Clone, Copy)]
enum Branch {
    Leaf,
    Mid,
}

struct World {
    defs: Vec<AgentDef>,
    tools: Vec<SharedTool>,
    approved: Vec<Rc<Cell<u32>>>,
    runs: Vec<Rc<Cell<u32>>>,
    models: Rc<Models>,
    store: Rc<InMemoryStore>,
}

fn world(branches: &[Branch]) -> World {
    let mut defs = Vec::new();
    let mut tools = Vec::new();
    let mut approved = Vec::new();
    let mut all_runs = Vec::new();
    let mut scripts: Vec<(String, Vec<Rule>)> = Vec::new();
    let mut team = Vec::new();
    let mut calls = Vec::new();
    for (i, branch) in branches.iter().enumerate() {
        let (leaf, tool) = (format!("leaf{i}"), format!("check{i}"));
        let runs = Rc::new(Cell::new(0));
        let ok = Rc::new(Cell::new(0));
        tools.push(check_secret_named(
            &tool,
            &format!("approve {i}?"),
            runs.clone(),
            ok.clone(),
        ));
        approved.push(ok);
        all_runs.push(runs);
        defs.push(def(
            &leaf,
            "needs approval",
            &format!("m-{leaf}"),
            &[&tool],
            &[],
        ));
        scripts.push((
            format!("m-{leaf}"),
            vec![
                Rule::text(When::ToolMsgContains("secret-token".into()), "approved"),
                Rule::text(When::ToolMsgContains("declined".into()), "refused"),
                Rule::calls(When::Always, vec![(tool.as_str(), json!({}))]),
            ],
        ));
        let top = match branch {
            Branch::Leaf => leaf,
            Branch::Mid => {
                let mid = format!("mid{i}");
                defs.push(def(&mid, "relays", &format!("m-{mid}"), &[], &[&leaf]));
                scripts.push((
                    format!("m-{mid}"),
                    vec![
                        Rule::calls(
                            When::ToolMsgs(0),
                            vec![("task", json!({"agent": leaf, "prompt": "go"}))],
                        ),
                        Rule::text(When::ToolMsgsAtLeast(1), "<last tool msg content>"),
                    ],
                ));
                mid
            }
        };
        calls.push(("task".to_owned(), json!({"agent": top, "prompt": "go"})));
        team.push(top);
    }
    let team: Vec<&str> = team.iter().map(String::as_str).collect();
    defs.push(def("lead", "leads", "m-lead", &[], &team));
    let n = branches.len();
    scripts.push((
        "m-lead".into(),
        vec![
            Rule {
                when: When::ToolMsgs(0),
                answer: Answer::Calls(calls),
                blocks: false,
            },
            Rule::text(
                When::ToolMsgsAtLeast(n),
                "<join all tool msg contents with ' + '>",
            ),
        ],
    ));
    let models = Models::new(Vec::new());
    *models.scripts.borrow_mut() = scripts;
    World {
        defs,
        tools,
        approved,
        runs: all_runs,
        models,
        store: Rc::new(InMemoryStore::default()),
    }
}

impl World {
    fn configure(&self) -> impl FnOnce(&mut toolnexus::core::agents::runtime::RuntimeOptions) {
        let store: Rc<dyn Store> = self.store.clone();
        move |o| o.store = Some(store)
    }
}

/// Every `tool_use` in `messages` has exactly one `tool_result`, and every result its call.
fn balanced(messages: &[Value]) -> Result<(), String> {
    let mut calls: Vec<String> = Vec::new();
    let mut results: Vec<String> = Vec::new();
    for m in messages {
        if let Some(list) = m["tool_calls"].as_array() {
            calls.extend(list.iter().map(|c| c["id"].as_str().unwrap().to_owned()));
        }
        if let Some(id) = m["tool_call_id"].as_str() {
            results.push(id.to_owned());
        }
    }
    for c in &calls {
        let n = results.iter().filter(|r| *r == c).count();
        if n != 1 {
            return Err(format!("call {c} has {n} results"));
        }
    }
    match results.iter().find(|r| !calls.contains(r)) {
        Some(r) => Err(format!("result {r} has no call")),
        None => Ok(()),
    }
}

fn branches() -> impl Strategy<Value = Vec<Branch>> {
    prop::collection::vec(prop_oneof![Just(Branch::Leaf), Just(Branch::Mid)], 1..=3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn parallel_suspensions_each_get_exactly_one_result_in_any_answer_order(
        branches in branches(),
        picks in prop::collection::vec(any::<usize>(), 3),
        oks in prop::collection::vec(any::<bool>(), 3),
        reloads in prop::collection::vec(any::<bool>(), 3),
    ) {
        let w = world(&branches);
        let mut bed = Bed::new(w.defs.clone(), &w.tools, w.models.clone(), w.configure());
        let lead = bed.rt.spawn(bed.rt.root(), "lead", None).unwrap();
        bed.rt.wake(lead, Some("do it")).unwrap();
        let first = bed.block_on(bed.rt.wait(lead, WaitOptions::default()));
        prop_assert_eq!(first.status, TaskStatus::Pending);
        let spawned = branches.len() + branches.iter().filter(|b| matches!(b, Branch::Mid)).count() + 1;
        // Which leaf each answer went to, and whether it approved.
        let mut given: Vec<Option<bool>> = vec![None; branches.len()];
        for step in 0..branches.len() {
            if reloads[step] {
                let state: Value = serde_json::from_str(&bed.rt.saved_state().to_string()).unwrap();
                bed = Bed::restored(w.defs.clone(), &w.tools, w.models.clone(), w.configure(), &state).unwrap();
            }
            let waiting = bed.rt.suspended();
            // Each branch's leaf waits on its own request; its ancestors on the one surfaced.
            let mut leaves: Vec<(usize, String)> = waiting
                .iter()
                .filter_map(|(h, r)| {
                    let id = bed.rt.id(*h);
                    let name = id.rsplit('/').next().unwrap();
                    let i = name.strip_prefix("leaf")?.split('.').next()?.parse().ok()?;
                    Some((i, r.id.clone()))
                })
                .collect();
            leaves.sort();
            let open: Vec<usize> = (0..branches.len()).filter(|i| given[*i].is_none()).collect();
            prop_assert_eq!(leaves.iter().map(|(i, _)| *i).collect::<Vec<_>>(), open.clone());
            let (leaf, id) = leaves[picks[step] % leaves.len()].clone();
            given[leaf] = Some(oks[step]);
            let r = bed.block_on(bed.rt.resume(json!({"id": id, "ok": oks[step]}))).unwrap();
            let last = step + 1 == branches.len();
            prop_assert_eq!(r.status, if last { TaskStatus::Done } else { TaskStatus::Pending }, "{:?}", r);
        }
        let done = bed.block_on(bed.rt.wait(bed.rt.find("root/lead.1").unwrap(), WaitOptions::default()));
        prop_assert_eq!(done.status, TaskStatus::Done);
        let expected: Vec<&str> = given
            .iter()
            .map(|g| if *g == Some(true) { "approved" } else { "refused" })
            .collect();
        prop_assert_eq!(done.text, expected.join(" + "));
        for (i, ok) in given.iter().enumerate() {
            prop_assert_eq!(w.approved[i].get(), u32::from(*ok == Some(true)));
            // The halt, then only the approved retry: replays answer from the checkpoint.
            prop_assert_eq!(w.runs[i].get(), 1 + u32::from(*ok == Some(true)));
        }
        let trace = bed.rt.trace();
        prop_assert_eq!(trace.iter().filter(|l| l.contains(": spawned")).count(), spawned);
        for v in bed.rt.list() {
            let expected = if v.id == "root/lead.1" { HandleState::Idle } else { HandleState::Closed };
            prop_assert_eq!(v.state, expected, "{}", v.id);
            let saved = bed.block_on(w.store.get(&v.id)).unwrap().unwrap_or_default();
            let values: Vec<Value> = saved.iter().map(|m| m.value().clone()).collect();
            if let Err(why) = balanced(&values) {
                prop_assert!(false, "{}: {}", v.id, why);
            }
        }
    }
}

/// Approves request "approve {i}?" when `oks[i]`.
struct ByBranch(Vec<bool>);

impl toolnexus::core::client::hooks::WaitFor for ByBranch {
    fn wait_for(
        &self,
        request: &toolnexus::core::types::Request,
    ) -> toolnexus::core::host::LocalBoxFuture<'static, Result<Value, String>> {
        let i: usize = request
            .prompt
            .trim_start_matches("approve ")
            .trim_end_matches('?')
            .parse()
            .unwrap();
        let answer = json!({"id": request.id.clone(), "ok": self.0[i]});
        Box::pin(async move { Ok(answer) })
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn parallel_suspensions_answered_inline_each_get_exactly_one_result(
        branches in branches(),
        oks in prop::collection::vec(any::<bool>(), 3),
    ) {
        let w = world(&branches);
        let mut defs = w.defs.clone();
        let lead = defs.iter_mut().find(|d| d.name == "lead").unwrap();
        lead.wait_for = Some(Rc::new(ByBranch(oks.clone())));
        let bed = Bed::new(defs, &w.tools, w.models.clone(), w.configure());
        let h = bed.rt.spawn(bed.rt.root(), "lead", None).unwrap();
        bed.rt.wake(h, Some("do it")).unwrap();
        let done = bed.block_on(bed.rt.wait(h, WaitOptions::default()));
        prop_assert_eq!(done.status, TaskStatus::Done);
        let expected: Vec<String> = (0..branches.len())
            .map(|i| if oks[i] { "approved".to_owned() } else { format!("declined/expired: approve {i}?") })
            .collect();
        prop_assert_eq!(done.text, expected.join(" + "));
        prop_assert!(bed.rt.suspended().is_empty());
        for (i, ok) in oks.iter().enumerate().take(branches.len()) {
            prop_assert_eq!(w.approved[i].get(), u32::from(*ok));
            prop_assert_eq!(w.runs[i].get(), 1 + u32::from(*ok));
        }
        for v in bed.rt.list() {
            let saved = bed.block_on(w.store.get(&v.id)).unwrap().unwrap_or_default();
            let values: Vec<Value> = saved.iter().map(|m| m.value().clone()).collect();
            if let Err(why) = balanced(&values) {
                prop_assert!(false, "{}: {}", v.id, why);
            }
        }
    }
}
