//! Properties of the agent runtime under any sequence of verbs on any tree: it never panics or
//! hangs, every waiter gets exactly one result, a parent's running-children count is the number
//! of its running children between steps, inboxes stay within their cap, and closing the root
//! closes every handle leaf-first.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::agent::{asking, request};
use common::agents::*;
use proptest::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use toolnexus::core::agents::close::CloseOptions;
use toolnexus::core::agents::data::{CloseReason, HandleState, HandleView, InboxItem, TaskResult};
use toolnexus::core::agents::registry::OnClose;
use toolnexus::core::agents::runtime::{Handle, WaitOptions};
use toolnexus::core::host::LocalBoxFuture;
use toolnexus::json;

#[derive(Debug, Clone)]
enum Op {
    Spawn(usize, usize),
    Post(usize),
    Wake(usize),
    Wait(usize),
    Interrupt(usize),
    Close(usize, bool),
    Advance(u8),
    Release,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<usize>(), 0..AGENTS.len()).prop_map(|(p, a)| Op::Spawn(p, a)),
        2 => any::<usize>().prop_map(Op::Post),
        3 => any::<usize>().prop_map(Op::Wake),
        2 => any::<usize>().prop_map(Op::Wait),
        1 => any::<usize>().prop_map(Op::Interrupt),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(h, f)| Op::Close(h, f)),
        1 => any::<u8>().prop_map(Op::Advance),
        1 => Just(Op::Release),
    ]
}

const AGENTS: [&str; 5] = ["peer", "slow", "looper", "coordinator", "asker"];

fn bed(closed: Rc<RefCell<Vec<String>>>) -> Bed {
    let record: OnClose = Rc::new(
        move |v: &HandleView, _: CloseReason| -> LocalBoxFuture<'static, ()> {
            closed.borrow_mut().push(v.id.clone());
            Box::pin(async {})
        },
    );
    let mut defs = vec![
        def("peer", "team member", "m-peer", &[], &[]),
        def("slow", "slow worker", "m-slow", &[], &[]),
        def("looper", "never finishes", "m-loop", &["lookup"], &[]),
        def(
            "coordinator",
            "delegates",
            "m-coordinator",
            &[],
            &["peer", "asker"],
        ),
        def("asker", "needs approval", "m-asker", &["ask"], &[]),
    ];
    for d in &mut defs {
        d.on_close = Some(record.clone());
        d.budget.max_concurrent = Some(2.0);
        d.budget.max_turns = Some(2.0);
    }
    let models = Models::new(vec![
        (
            "m-peer",
            vec![Rule::text(
                When::Always,
                "processed <count of numbered inbox items in last user msg> items",
            )],
        ),
        (
            "m-slow",
            vec![Rule {
                blocks: true,
                ..Rule::text(When::Always, "slow-done")
            }],
        ),
        (
            "m-loop",
            vec![Rule::calls(
                When::Always,
                vec![("lookup", json!({"q": "again"}))],
            )],
        ),
        (
            "m-coordinator",
            vec![
                Rule::calls(
                    When::ToolMsgs(0),
                    vec![
                        ("task", json!({"agent": "peer", "prompt": "a"})),
                        ("task", json!({"agent": "asker", "prompt": "b"})),
                        ("task", json!({"agent": "peer", "prompt": "c"})),
                    ],
                ),
                Rule::text(
                    When::ToolMsgsAtLeast(1),
                    "done: <join all tool msg contents with ' + '>",
                ),
            ],
        ),
        (
            "m-asker",
            vec![
                Rule::calls(When::ToolMsgs(0), vec![("ask", json!({}))]),
                Rule::text(When::ToolMsgsAtLeast(1), "asked"),
            ],
        ),
    ]);
    let ask = asking("ask", request("r1", "approval", "may I?"), false);
    Bed::new(defs, &[lookup(), ask], models, |o| {
        o.inbox_cap = Some(3);
        o.max_concurrent_turns = Some(2);
        o.shutdown_ms = Some(50.0);
    })
}

fn check_counts(bed: &Bed) {
    let records = bed.rt.snapshot();
    for r in &records {
        let running = records
            .iter()
            .filter(|c| r.children.contains(&c.id) && c.state == HandleState::Running)
            .count();
        assert_eq!(r.running_children as usize, running, "{}", r.id);
        assert!(r.inbox.len() <= 3, "{}", r.id);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_verb_sequence_keeps_the_tree_sound(ops in prop::collection::vec(op(), 1..40)) {
        let closed = Rc::new(RefCell::new(Vec::new()));
        let bed = bed(closed.clone());
        let mut handles: Vec<Handle> = vec![bed.rt.root()];
        let results: Rc<RefCell<Vec<TaskResult>>> = Rc::default();
        let mut waits = 0;
        let closing: Rc<RefCell<u32>> = Rc::default();
        let mut closes = 0;
        for op in ops {
            let pick = |i: usize| handles[i % handles.len()];
            match op {
                Op::Spawn(p, a) => {
                    if let Ok(h) = bed.rt.spawn(pick(p), AGENTS[a], None) {
                        handles.push(h);
                    }
                }
                Op::Post(h) => {
                    let item = InboxItem { from: "external".into(), channel: "external".into(), text: "x".into() };
                    let _ = bed.rt.post(pick(h), item);
                }
                Op::Wake(h) => {
                    let _ = bed.rt.wake(pick(h), Some("go"));
                }
                Op::Wait(h) => {
                    let h = pick(h);
                    if h != bed.rt.root() {
                        waits += 1;
                        let waiting = bed.rt.wait(h, WaitOptions { timeout_ms: Some(30.0), by: None });
                        let results = results.clone();
                        bed.start(async move {
                            let r = waiting.await;
                            results.borrow_mut().push(r);
                        });
                    }
                }
                Op::Interrupt(h) => bed.rt.interrupt(pick(h)),
                Op::Close(h, force) => {
                    closes += 1;
                    let done = bed.rt.close(pick(h), CloseOptions { force, reason: None });
                    let closing = closing.clone();
                    bed.start(async move {
                        done.await;
                        *closing.borrow_mut() += 1;
                    });
                }
                Op::Advance(ms) => bed.clock.advance(f64::from(ms)),
                Op::Release => bed.models.release.fire(),
            }
            bed.settle();
            check_counts(&bed);
        }
        // Everything ends: the slow calls are released, timers run out, the root closes.
        bed.models.release.fire();
        bed.advance(1000.0);
        bed.block_on(bed.rt.close(bed.rt.root(), CloseOptions::default()));
        bed.advance(1000.0);
        prop_assert_eq!(results.borrow().len(), waits, "every waiter got exactly one result");
        prop_assert_eq!(*closing.borrow(), closes, "every close completed");
        prop_assert!(bed.rt.list().iter().all(|v| v.state == HandleState::Closed));
        // Leaf-first: a handle's onClose comes after every descendant's.
        let order = closed.borrow().clone();
        prop_assert_eq!(order.len(), bed.rt.list().len(), "onClose once per handle");
        for (i, id) in order.iter().enumerate() {
            let prefix = format!("{id}/");
            prop_assert!(order[i..].iter().all(|later| !later.starts_with(&prefix)), "{} before a descendant in {:?}", id, order);
        }
        check_counts(&bed);
    }
}
