//! A runtime's state saved as JSON and rebuilt (SPEC §7D durable resume) on the project's own
//! data: a fresh runtime resumes from it, through the store too; expiry checked as a single
//! client checks it; a corrupt, foreign or mid-turn state refused with nothing saved lost.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agents::*;
use common::chain::*;
use std::rc::Rc;
use toolnexus::core::agents::data::{HandleState, TaskStatus};
use toolnexus::core::agents::resume::ResumeError;
use toolnexus::core::agents::runtime::{AgentRuntime, RuntimeOptions};
use toolnexus::core::client::store::Store;
use toolnexus::core::json::value::Value;
use toolnexus::json;

#[test]
fn a_saved_state_rebuilds_a_runtime_in_a_fresh_process_that_resumes() {
    let chain = Chain::new();
    let first = chain.bed(|_| {}, None);
    let (_, r1) = run(&first, "lead");
    let id = r1.pending.unwrap().id;
    // Saved as text, as a page would; the first runtime is gone.
    let text = first.rt.saved_state().to_string();
    let model_calls = chain.models.bodies.borrow().len();
    drop(first);
    let state: Value = serde_json::from_str(&text).unwrap();
    let second = chain.restored(&state).unwrap();
    assert!(second
        .rt
        .list()
        .iter()
        .all(|v| v.state == HandleState::Suspended));
    assert_eq!(second.rt.halted_call(&id).unwrap().tool, "check_secret");
    // Read back equal: the rebuilt runtime saves the state it was given.
    assert_eq!(second.rt.saved_state(), state);
    let done = second
        .block_on(second.rt.resume(json!({"id": id, "ok": true})))
        .unwrap();
    assert_eq!(
        (done.status, done.text.as_str()),
        (TaskStatus::Done, "lead: mid: leaf: secret-token")
    );
    // Replays only: the leaf's halted turn (2 calls), then each parent's (2 calls each).
    assert_eq!(chain.models.bodies.borrow().len() - model_calls, 6);
    assert_eq!((chain.approved.get(), spawns(&second.rt)), (1, 3));
    let lead = second.rt.find("root/lead.1").unwrap();
    assert_eq!(second.rt.state(lead), HandleState::Idle);
    // The trace continues the first runtime's.
    assert_eq!(
        second.rt.trace()[0],
        "root/lead.1: spawned (depth 1, tokens Infinity)"
    );
}

#[test]
fn state_saved_through_the_store_restores() {
    let chain = Chain::new();
    let first = chain.bed(|_| {}, None);
    let (_, r1) = run(&first, "lead");
    first.block_on(first.rt.save_state("runtime")).unwrap();
    drop(first);
    let store: Rc<dyn Store> = chain.store.clone();
    let pool = futures_executor::LocalPool::new();
    let registry =
        toolnexus::core::agents::registry::Registry::new(chain.defs(), &chain.tools).unwrap();
    let mut options = RuntimeOptions::new(
        registry,
        Rc::new(ModelsHttp(chain.models.clone())),
        Rc::new(VirtualClock::default()),
        Rc::new(PoolSpawner(pool.spawner())),
    );
    options.store = Some(store);
    let mut pool = pool;
    let rt = pool
        .run_until(AgentRuntime::restore_from_store(options, "runtime"))
        .unwrap();
    let done = pool
        .run_until(rt.resume(json!({"id": r1.pending.unwrap().id, "ok": true})))
        .unwrap();
    assert_eq!(done.status, TaskStatus::Done);
}

#[test]
fn an_expired_answer_reaches_the_tool_as_declined() {
    let chain = Chain::new();
    let (r1, second) = halted_then_restored_expiring(&chain, "2000-01-01T00:00:00Z");
    // The virtual clock starts at the epoch: move it past the request's expiry.
    second.clock.advance(946_684_800_001.0);
    let id = r1.pending.unwrap().id;
    let done = second
        .block_on(second.rt.resume(json!({"id": id, "ok": true})))
        .unwrap();
    assert_eq!(done.text, "lead: mid: leaf: refused");
    assert_eq!(chain.approved.get(), 0);
    assert!(second
        .rt
        .trace()
        .iter()
        .any(|l| l.contains("resume with Answer(ok=false)")));
}

#[test]
fn an_unreadable_expiry_in_a_saved_request_is_refused() {
    let chain = Chain::new();
    let (r1, second) = halted_then_restored_expiring(&chain, "soon");
    let before = second.rt.saved_state();
    let e = second
        .block_on(
            second
                .rt
                .resume(json!({"id": r1.pending.unwrap().id, "ok": true})),
        )
        .unwrap_err();
    assert_eq!(e.to_string(), "the pending request's expiresAt \"soon\" is not an ISO 8601 date-time (such as \"2030-01-02T03:04:05Z\")");
    assert_eq!(second.rt.saved_state(), before);
}

#[test]
fn a_corrupt_or_foreign_state_is_refused_precisely_and_the_saved_state_survives() {
    let chain = Chain::new();
    let first = chain.bed(|_| {}, None);
    let (_, r1) = run(&first, "lead");
    first.block_on(first.rt.save_state("runtime")).unwrap();
    let good: serde_json::Value =
        serde_json::from_str(&first.rt.saved_state().to_string()).unwrap();
    let refused = |edit: &Edit| -> ResumeError {
        let mut state = good.clone();
        edit(&mut state);
        chain
            .restored(&serde_json::from_value(state).unwrap())
            .err()
            .unwrap()
    };
    let cases: Vec<(&Edit, &str)> = vec![
        (&|s| *s = serde_json::json!([1, 2]), "saved runtime state refused: it has no format (a saved state's is \"toolnexus-agent-runtime/v1\")"),
        (&|s| s["format"] = json_str("other/v9"), "saved runtime state refused: its format is \"other/v9\", not \"toolnexus-agent-runtime/v1\""),
        (&|s| s["handles"] = serde_json::json!([]), "saved runtime state refused: it has no handles"),
        (&|s| s["handles"][1]["state"] = json_str("running"), "saved runtime state refused: handle \"root/lead.1\" was saved mid-turn (running); save between turns"),
        (&|s| s["handles"][1]["pending"] = serde_json::Value::Null, "saved runtime state refused: handle \"root/lead.1\" is suspended without a pending request"),
        (&|s| s["handles"][2]["agent"] = json_str("ghost"), "saved runtime state refused: handle \"root/lead.1/mid.1\" does not fit under its parent \"root/lead.1\""),
        (&|s| { s["handles"][2]["agent"] = json_str("ghost"); s["handles"][2]["id"] = json_str("root/lead.1/ghost.1"); s["handles"][1]["children"] = serde_json::json!(["root/lead.1/ghost.1"]); s["handles"][3]["parent"] = json_str("root/lead.1/ghost.1"); s["handles"][3]["id"] = json_str("root/lead.1/ghost.1/leaf.1"); s["handles"][2]["children"] = serde_json::json!(["root/lead.1/ghost.1/leaf.1"]); },
            "saved runtime state refused: it names agent \"ghost\", which this registry does not have (known: lead, leaf, mid)"),
        (&|s| s["handles"][2]["id"] = json_str("root/lead.1"), "saved runtime state refused: handle \"root/lead.1\" is saved twice"),
        (&|s| s["handles"][1]["children"] = serde_json::json!(["root/x.1"]), "saved runtime state refused: handle \"root/lead.1\": unknown child \"root/x.1\""),
    ];
    for (edit, expected) in cases {
        let e = refused(edit);
        assert_eq!(
            (e.code(), e.to_string().as_str()),
            ("invalid_argument", expected)
        );
    }
    let e = refused(&|s| s["handles"][1]["budget"] = serde_json::json!({"maxTurns": -1}));
    assert_eq!(
        e.to_string(),
        "saved runtime state refused: handle \"root/lead.1\": budget.maxTurns must be a positive number (got -1)"
    );
    // Same names, another registry: the lead's team no longer has the mid it delegated to.
    let other = vec![
        def("lead", "leads", "m-lead", &[], &["leaf"]),
        def("mid", "relays", "m-mid", &[], &["leaf"]),
        def("leaf", "needs approval", "m-leaf", &["check_secret"], &[]),
    ];
    let state: Value = serde_json::from_value(good.clone()).unwrap();
    let e = Bed::restored(other, &chain.tools, chain.models.clone(), |_| {}, &state)
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "saved runtime state refused: handle \"root/lead.1/mid.1\" was delegated by `task`, but \"mid\" is not in its parent's team"
    );
    let e = refused(&|s| s["handles"][1]["turnsTotal"] = json_str("many"));
    assert!(
        e.to_string().starts_with("saved runtime state refused: "),
        "{e}"
    );
    // Nothing saved was lost: the store still holds the state, and it restores and resumes.
    let store: Rc<dyn Store> = chain.store.clone();
    let saved = first.block_on(store.get("runtime")).unwrap().unwrap();
    let state = saved[0].value()["state"].clone();
    let second = chain.restored(&state).unwrap();
    let done = second
        .block_on(
            second
                .rt
                .resume(json!({"id": r1.pending.unwrap().id, "ok": true})),
        )
        .unwrap();
    assert_eq!(done.status, TaskStatus::Done);
}

#[test]
fn a_save_while_a_turn_runs_is_refused_and_keeps_the_last_saved_state() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (_, r1) = run(&bed, "lead");
    bed.block_on(bed.rt.save_state("runtime")).unwrap();
    let saved = bed.block_on(chain.store.get("runtime")).unwrap();
    // A resume under way: the leaf runs (its model reply has not come back yet).
    let resuming = bed
        .rt
        .resume(json!({"id": r1.pending.unwrap().id, "ok": true}));
    let (done, refused) = bed.block_on(async {
        let mut resuming = Box::pin(resuming);
        // Poll once: the leaf is admitted and its turn spawned, not yet run.
        let first = futures_util::FutureExt::now_or_never(resuming.as_mut());
        assert!(first.is_none());
        assert_eq!(
            bed.rt.running().as_deref(),
            Some("root/lead.1/mid.1/leaf.1")
        );
        let refused = bed.rt.save_state("runtime").await.unwrap_err();
        (resuming.await.unwrap(), refused)
    });
    assert_eq!(
        (refused.code(), refused.to_string().as_str()),
        ("invalid_argument", "the state is not saved while a turn runs (handle \"root/lead.1/mid.1/leaf.1\"); save between turns")
    );
    assert_eq!(bed.block_on(chain.store.get("runtime")).unwrap(), saved);
    assert_eq!(done.status, TaskStatus::Done);
    assert_eq!(bed.rt.running(), None);
}
