//! Durable resume in the agent runtime (SPEC §7D) on the project's own data: with no
//! interpreter the root is `pending`, `resume` routes the Answer by request id to the deepest
//! suspended handle and cascades up, reattaching by task key; a replay never runs a completed
//! tool again; answers that fit no suspended handle are refused with nothing changed.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agents::*;
use common::chain::*;
use std::rc::Rc;
use toolnexus::core::agents::data::{HandleState, TaskStatus};
use toolnexus::core::agents::runtime::WaitOptions;
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::json::value::Value;
use toolnexus::core::tool::SharedTool;
use toolnexus::json;

#[test]
fn with_no_interpreter_the_root_is_pending_and_resume_reattaches_up_the_chain() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (lead, r1) = run(&bed, "lead");
    assert_eq!(r1.status, TaskStatus::Pending);
    assert_eq!(path_of(&r1), "root/lead.1");
    assert!(bed
        .rt
        .list()
        .iter()
        .all(|v| v.state == HandleState::Suspended));
    // Rewound: no halted turn stays in any transcript.
    for v in bed.rt.list() {
        let saved = bed
            .block_on(chain.store.get(&v.id))
            .unwrap()
            .unwrap_or_default();
        assert!(saved.is_empty(), "{}: {saved:?}", v.id);
    }
    let leaf = bed.rt.find("root/lead.1/mid.1/leaf.1").unwrap();
    let leaf_tokens = bed.rt.inspect(leaf).tokens;
    let id = r1.pending.unwrap().id;
    // What the page shows beside the request: the inner tool's own call, not `task`.
    let halted = bed.rt.halted_call(&id).unwrap();
    assert_eq!(
        (
            halted.handle.as_str(),
            halted.tool.as_str(),
            halted.args.clone()
        ),
        ("root/lead.1/mid.1/leaf.1", "check_secret", json!({}))
    );
    let lead_row = bed
        .rt
        .snapshot()
        .into_iter()
        .find(|r| r.id == "root/lead.1")
        .unwrap();
    assert_eq!(lead_row.halted_call, Some(halted));
    let done = bed
        .block_on(bed.rt.resume(json!({"id": id.clone(), "ok": true})))
        .unwrap();
    assert_eq!(bed.rt.halted_call(&id), None);
    assert_eq!(
        (done.status, done.text.as_str()),
        (TaskStatus::Done, "lead: mid: leaf: secret-token")
    );
    assert_eq!(bed.rt.state(lead), HandleState::Idle);
    assert!(
        bed.rt.inspect(leaf).tokens > leaf_tokens,
        "usage grew, never reset"
    );
    assert_eq!(spawns(&bed.rt), 3, "no duplicate child");
    // The tool ran twice: the halt, and the approved retry (the replay's call of it was
    // answered from the checkpoint with its suspension, then with the Answer).
    assert_eq!((chain.runs.get(), chain.approved.get()), (2, 1));
    let trace = bed.rt.trace();
    for line in [
        "root/lead.1/mid.1/leaf.1: resume with Answer(ok=true) at checkpoint (turns so far: 1)",
        "root/lead.1/mid.1: cascade resume (reattaching delegated work)",
        "root/lead.1/mid.1: task replay → REATTACH to root/lead.1/mid.1/leaf.1 (state idle)",
        "root/lead.1: task replay → REATTACH to root/lead.1/mid.1 (state idle)",
    ] {
        assert!(trace.contains(&line.to_owned()), "{line}\n{trace:#?}");
    }
    assert_eq!(
        transitions(&bed.rt, "root/lead.1/mid.1/leaf.1"),
        [
            "idle→running",
            "running→suspended",
            "suspended→idle",
            "idle→running",
            "running→idle",
            "idle→closed"
        ]
    );
    // The replayed turn, with the real task result, is what the lead's transcript keeps.
    let lead_saved = bed
        .block_on(chain.store.get("root/lead.1"))
        .unwrap()
        .unwrap();
    assert!(lead_saved.iter().any(|m| m.value()["role"] == json!("tool")
        && m.text().contains("mid: leaf: secret-token")
        || m.value()["content"]
            .as_str()
            .is_some_and(|c| c == "mid: leaf: secret-token")));
}

#[test]
fn an_answer_that_fits_no_suspended_handle_is_refused_and_nothing_changes() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (_, r1) = run(&bed, "lead");
    let id = r1.pending.unwrap().id;
    let before = bed.rt.saved_state();
    let refuse = |answer: Value, path: Option<&[String]>| {
        bed.block_on(bed.rt.resume_within(path, answer))
            .unwrap_err()
    };
    let e = refuse(json!({"id": "nope", "ok": true}), None);
    assert_eq!(e.code(), "invalid_resume");
    assert_eq!(
        e.to_string(),
        format!("no suspended handle waits on a request with id \"nope\" (root/lead.1 waits on \"{id}\"; root/lead.1/mid.1 waits on \"{id}\"; root/lead.1/mid.1/leaf.1 waits on \"{id}\")")
    );
    assert_eq!(
        refuse(json!("yes"), None).to_string(),
        "the answer is not an Answer object ({id, ok, data?, reason?}): \"yes\""
    );
    assert_eq!(
        refuse(json!({"ok": true}), None).to_string(),
        "the answer has no id; it must echo the pending request's id"
    );
    assert_eq!(
        refuse(json!({"id": 7, "ok": true}), None).to_string(),
        "the answer's id must be a string (got 7)"
    );
    assert!(refuse(json!({"id": id.clone(), "ok": "yes"}), None)
        .to_string()
        .starts_with("the answer is not an Answer: "));
    let elsewhere = vec!["root".to_owned(), "other.1".to_owned()];
    assert_eq!(
        refuse(json!({"id": id.clone(), "ok": true}), Some(&elsewhere)).to_string(),
        "no handle at path \"root/other.1\" to resume"
    );
    assert_eq!(bed.rt.saved_state(), before, "nothing changed");
    // The runtime keeps serving: the right answer, scoped by the request's path, resumes.
    let path = vec!["root".to_owned(), "lead.1".to_owned()];
    let done = bed
        .block_on(
            bed.rt
                .resume_within(Some(&path), json!({"id": id.clone(), "ok": true})),
        )
        .unwrap();
    assert_eq!(done.status, TaskStatus::Done);
    // And once nothing waits, a resume says so.
    assert_eq!(
        refuse(json!({"id": id, "ok": true}), None).to_string(),
        "no suspended handle to resume"
    );
}

#[test]
fn a_suspended_handle_buffers_posts_and_ignores_wakes_until_its_answer() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (lead, r1) = run(&bed, "lead");
    bed.rt
        .post(
            lead,
            toolnexus::core::agents::data::InboxItem {
                from: "external".into(),
                channel: "external".into(),
                text: "nudge".into(),
            },
        )
        .unwrap();
    bed.rt.wake(lead, Some("hurry up")).unwrap();
    assert_eq!(
        (bed.rt.state(lead), bed.rt.inbox(lead).len()),
        (HandleState::Suspended, 1)
    );
    bed.block_on(
        bed.rt
            .resume(json!({"id": r1.pending.unwrap().id, "ok": true})),
    )
    .unwrap();
    assert_eq!(bed.rt.state(lead), HandleState::Idle);
}

#[test]
fn a_second_answer_to_a_request_being_resumed_is_refused() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (_, r1) = run(&bed, "lead");
    let id = r1.pending.unwrap().id;
    let first = bed.rt.resume(json!({"id": id.clone(), "ok": true}));
    let second = bed.rt.resume(json!({"id": id.clone(), "ok": true}));
    let (a, b) = bed.block_on(futures_util::future::join(first, second));
    assert_eq!(a.unwrap().status, TaskStatus::Done);
    assert_eq!(
        b.unwrap_err().to_string(),
        format!("the request \"{id}\" is already being resumed")
    );
    assert_eq!((chain.approved.get(), spawns(&bed.rt)), (1, 3));
    // Once done, the id waits nowhere.
    let late = bed.block_on(bed.rt.resume(json!({"id": id, "ok": true})));
    assert_eq!(
        late.unwrap_err().to_string(),
        "no suspended handle to resume"
    );
}

#[test]
fn requests_with_one_id_in_two_subtrees_are_told_apart_by_path() {
    // Two parallel leaves whose tools mint the same id.
    let fixed = |name: &str| -> SharedTool {
        common::agent::FnTool::new(
            name,
            json!({"type": "object", "properties": {}}),
            |_, ctx| {
                let result = match ctx.answer {
                    Some(a) if a.ok => toolnexus::core::types::ToolResult::ok("secret-token"),
                    _ => toolnexus::core::types::pending(toolnexus::core::types::Request {
                        id: "same".into(),
                        kind: "approval".into(),
                        prompt: "approve?".into(),
                        url: None,
                        data: None,
                        expires_at: None,
                    }),
                };
                Box::pin(async move { result })
            },
        )
    };
    let models = Models::new(vec![
        (
            "m-lead",
            vec![
                Rule::calls(
                    When::ToolMsgs(0),
                    vec![
                        ("task", json!({"agent": "a", "prompt": "go"})),
                        ("task", json!({"agent": "b", "prompt": "go"})),
                    ],
                ),
                Rule::text(
                    When::ToolMsgsAtLeast(2),
                    "<join all tool msg contents with ' + '>",
                ),
            ],
        ),
        ("m-a", leaf_rules("tool_a")),
        ("m-b", leaf_rules("tool_b")),
    ]);
    let defs = vec![
        def("lead", "leads", "m-lead", &[], &["a", "b"]),
        def("a", "a", "m-a", &["tool_a"], &[]),
        def("b", "b", "m-b", &["tool_b"], &[]),
    ];
    let bed = Bed::new(defs, &[fixed("tool_a"), fixed("tool_b")], models, |_| {});
    let (_, r1) = run(&bed, "lead");
    assert_eq!(r1.status, TaskStatus::Pending);
    // b first, by its path; then the one left, by id alone.
    let b: Vec<String> = ["root", "lead.1", "b.2"].map(String::from).to_vec();
    let r2 = bed
        .block_on(
            bed.rt
                .resume_within(Some(&b), json!({"id": "same", "ok": false})),
        )
        .unwrap();
    assert_eq!(r2.status, TaskStatus::Pending);
    assert_eq!(bed.rt.suspended().len(), 2, "a and the lead still wait");
    let r3 = bed
        .block_on(bed.rt.resume(json!({"id": "same", "ok": true})))
        .unwrap();
    assert_eq!(
        (r3.status, r3.text.as_str()),
        (TaskStatus::Done, "leaf: secret-token + leaf: refused")
    );
}

#[test]
fn an_interrupted_leaf_leaves_its_relays_a_result_to_reattach_to() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (_, r1) = run(&bed, "lead");
    let leaf = bed.rt.find("root/lead.1/mid.1/leaf.1").unwrap();
    bed.rt.interrupt(leaf);
    let r = bed.block_on(bed.rt.wait(leaf, WaitOptions::default()));
    assert_eq!(r.status, TaskStatus::Interrupted);
    // The Answer now goes to the deepest handle still waiting on the request: the mid, whose
    // replayed `task` reattaches to the interrupted leaf.
    let done = bed
        .block_on(
            bed.rt
                .resume(json!({"id": r1.pending.unwrap().id, "ok": true})),
        )
        .unwrap();
    assert_eq!(
        (done.status, done.text.as_str()),
        (
            TaskStatus::Done,
            "lead: mid: [interrupted] interrupt cancelled pending \"approval\""
        )
    );
    assert_eq!((chain.approved.get(), spawns(&bed.rt)), (0, 3));
}

#[test]
fn a_closed_suspended_handle_answers_closed_not_its_old_request() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (lead, _) = run(&bed, "lead");
    bed.block_on(bed.rt.close(lead, Default::default()));
    for v in bed.rt.list() {
        let h = bed.rt.find(&v.id).unwrap();
        let r = bed.block_on(bed.rt.wait(h, WaitOptions::default()));
        assert_eq!(
            (v.state, r.status),
            (HandleState::Closed, TaskStatus::Closed),
            "{}",
            v.id
        );
    }
    assert!(bed.rt.suspended().is_empty());
}

#[test]
fn a_replayed_turn_does_not_run_its_completed_tools_again() {
    let (defs, tools, models, notes, approved) = noting_leaf();
    let store: Rc<dyn Store> = Rc::new(InMemoryStore::default());
    let kept = store.clone();
    let first = Bed::new(defs.clone(), &tools, models.clone(), move |o| {
        o.store = Some(kept)
    });
    let (_, r1) = run(&first, "lead");
    assert_eq!((r1.status, notes.get()), (TaskStatus::Pending, 1));
    let state: Value = serde_json::from_str(&first.rt.saved_state().to_string()).unwrap();
    drop(first);
    let second =
        Bed::restored(defs, &tools, models, move |o| o.store = Some(store), &state).unwrap();
    let done = second
        .block_on(
            second
                .rt
                .resume(json!({"id": r1.pending.unwrap().id, "ok": true})),
        )
        .unwrap();
    assert_eq!(done.text, "lead: noted(x) + secret-token");
    assert_eq!((notes.get(), approved.get()), (1, 1), "the note ran once");
}
