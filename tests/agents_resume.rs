//! Escalation and durable resume of the agent runtime (SPEC §7D, the §10 agent addendum) on the
//! project's own data: the nearest interpreter answers, one hop at a time; with none, the root
//! is `pending` and `resume` routes the Answer to the deepest suspended handle; a runtime's
//! state saved as JSON rebuilds a runtime that resumes; bad answers and bad states are refused
//! precisely with nothing lost.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use crate::common;

use common::agents::*;
use std::cell::Cell;
use std::rc::Rc;
use toolnexus::core::agents::data::{HandleState, TaskResult, TaskStatus};
use toolnexus::core::agents::registry::AgentDef;
use toolnexus::core::agents::resume::ResumeError;
use toolnexus::core::agents::runtime::{AgentRuntime, Handle, RuntimeOptions, WaitOptions};
use toolnexus::core::client::hooks::WaitFor;
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::json::value::Value;
use toolnexus::core::tool::SharedTool;
use toolnexus::json;

/// A leaf's script: call `tool` until a tool message says how it went.
fn leaf_rules(tool: &str) -> Vec<Rule> {
    vec![
        Rule::text(
            When::ToolMsgContains("secret-token".into()),
            "leaf: secret-token",
        ),
        Rule::text(When::ToolMsgContains("declined".into()), "leaf: refused"),
        Rule::calls(When::Always, vec![(tool, json!({}))]),
    ]
}

/// A delegating agent's script: one `task` to `agent`, then its result.
fn delegate_rules(agent: &str, label: &str) -> Vec<Rule> {
    vec![
        Rule::calls(
            When::ToolMsgs(0),
            vec![("task", json!({"agent": agent, "prompt": "get the secret"}))],
        ),
        Rule::text(
            When::ToolMsgsAtLeast(1),
            &format!("{label}: <last tool msg content>"),
        ),
    ]
}

/// `lead → mid → leaf`, the leaf holding `check_secret`; `runs`/`approved` count its calls.
struct Chain {
    runs: Rc<Cell<u32>>,
    approved: Rc<Cell<u32>>,
    tools: Vec<SharedTool>,
    store: Rc<InMemoryStore>,
    models: Rc<Models>,
}

impl Chain {
    fn new() -> Chain {
        let (runs, approved) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
        Chain {
            tools: vec![check_secret(runs.clone(), approved.clone())],
            runs,
            approved,
            store: Rc::new(InMemoryStore::default()),
            models: Models::new(vec![
                ("m-lead", delegate_rules("mid", "lead")),
                ("m-mid", delegate_rules("leaf", "mid")),
                ("m-leaf", leaf_rules("check_secret")),
            ]),
        }
    }

    fn defs(&self) -> Vec<AgentDef> {
        vec![
            def("lead", "leads", "m-lead", &[], &["mid"]),
            def("mid", "relays", "m-mid", &[], &["leaf"]),
            def("leaf", "needs approval", "m-leaf", &["check_secret"], &[]),
        ]
    }

    fn bed(&self, edit: impl FnOnce(&mut Vec<AgentDef>), runtime: Option<Rc<dyn WaitFor>>) -> Bed {
        let mut defs = self.defs();
        edit(&mut defs);
        let store: Rc<dyn Store> = self.store.clone();
        Bed::new(defs, &self.tools, self.models.clone(), move |o| {
            o.store = Some(store);
            o.wait_for = runtime;
        })
    }

    fn restored(&self, state: &Value) -> Result<Bed, ResumeError> {
        let store: Rc<dyn Store> = self.store.clone();
        Bed::restored(
            self.defs(),
            &self.tools,
            self.models.clone(),
            move |o| o.store = Some(store),
            state,
        )
    }
}

fn with_wait_for(defs: &mut [AgentDef], name: &str, w: Rc<dyn WaitFor>) {
    defs.iter_mut().find(|d| d.name == name).unwrap().wait_for = Some(w);
}

fn run(bed: &Bed, entry: &str) -> (Handle, TaskResult) {
    let h = bed.rt.spawn(bed.rt.root(), entry, None).unwrap();
    bed.rt.wake(h, Some("do the secret thing")).unwrap();
    let waiting = bed.rt.wait(h, WaitOptions::default());
    (h, bed.block_on(waiting))
}

fn transitions(rt: &AgentRuntime, id: &str) -> Vec<String> {
    let prefix = format!("{id}: ");
    rt.trace()
        .iter()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter(|rest| {
            rest.contains('→') && !rest.contains("REATTACH") && !rest.contains("escalate")
        })
        .map(|rest| rest.split(' ').next().unwrap().to_owned())
        .collect()
}

fn path_of(r: &TaskResult) -> String {
    r.pending.as_ref().unwrap().data.as_ref().unwrap()["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect::<Vec<_>>()
        .join("/")
}

fn spawns(rt: &AgentRuntime) -> usize {
    rt.trace()
        .iter()
        .filter(|l| l.contains(": spawned"))
        .count()
}

// ---- escalation -------------------------------------------------------------------------------

#[test]
fn a_grandchilds_request_climbs_one_hop_at_a_time_to_the_nearest_interpreter() {
    let chain = Chain::new();
    let approver = Approver::new(true);
    let bed = chain.bed(|d| with_wait_for(d, "lead", approver.clone()), None);
    let (_, r) = run(&bed, "lead");
    assert_eq!(
        (r.status, r.text.as_str()),
        (TaskStatus::Done, "lead: mid: leaf: secret-token")
    );
    // The lead saw the inner tool's own request, its path stamped by the relaying level.
    let asked = approver.asked.borrow();
    assert_eq!(asked.len(), 1);
    assert_eq!(
        (asked[0].kind.as_str(), asked[0].prompt.as_str()),
        ("approval", "approve secret access?")
    );
    let path = asked[0].data.as_ref().unwrap()["path"].clone();
    assert_eq!(path, json!(["root", "lead.1", "mid.1"]));
    let trace = bed.rt.trace();
    assert!(
        trace.contains(
            &"root/lead.1/mid.1: escalate → root/lead.1 answers (\"nearest interpreter\")"
                .to_owned()
        ),
        "{trace:#?}"
    );
    assert_eq!(
        transitions(&bed.rt, "root/lead.1/mid.1/leaf.1"),
        [
            "idle→running",
            "running→suspended",
            "suspended→running",
            "running→idle",
            "idle→closed"
        ]
    );
    assert_eq!(
        transitions(&bed.rt, "root/lead.1/mid.1"),
        [
            "idle→running",
            "running→suspended",
            "suspended→running",
            "running→idle",
            "idle→closed"
        ]
    );
    assert_eq!(
        transitions(&bed.rt, "root/lead.1"),
        ["idle→running", "running→idle"]
    );
    // One approved run of the tool; one spawn per level.
    assert_eq!(chain.approved.get(), 1);
    assert_eq!(spawns(&bed.rt), 3);
}

#[test]
fn the_nearest_interpreter_wins_over_a_farther_one() {
    let chain = Chain::new();
    let (near, far) = (Approver::new(true), Approver::new(true));
    let bed = chain.bed(
        |d| {
            with_wait_for(d, "lead", far.clone());
            with_wait_for(d, "mid", near.clone());
        },
        None,
    );
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.status, TaskStatus::Done);
    assert_eq!(
        (near.asked.borrow().len(), far.asked.borrow().len()),
        (1, 0)
    );
    assert!(bed.rt.trace().iter().any(|l| l == "root/lead.1/mid.1/leaf.1: escalate → root/lead.1/mid.1 answers (\"nearest interpreter\")"));
}

#[test]
fn an_agent_with_its_own_wait_for_answers_its_own_tools() {
    let chain = Chain::new();
    let own = Approver::new(true);
    let bed = chain.bed(|d| with_wait_for(d, "leaf", own.clone()), None);
    let (_, r) = run(&bed, "leaf");
    assert_eq!(
        (r.status, r.text.as_str()),
        (TaskStatus::Done, "leaf: secret-token")
    );
    assert!(bed
        .rt
        .trace()
        .iter()
        .any(|l| l == "root/leaf.1: escalate → root/leaf.1 answers (\"nearest interpreter\")"));
    assert_eq!(
        transitions(&bed.rt, "root/leaf.1"),
        ["idle→running", "running→idle"]
    );
}

#[test]
fn the_runtimes_wait_for_is_the_last_hop() {
    let chain = Chain::new();
    let runtime = Approver::new(true);
    let bed = chain.bed(|_| {}, Some(runtime.clone()));
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.status, TaskStatus::Done, "{r:?}");
    assert_eq!(runtime.asked.borrow().len(), 1);
    assert!(bed
        .rt
        .trace()
        .iter()
        .any(|l| l == "root/lead.1/mid.1: escalate → root answers (\"nearest interpreter\")"));
}

#[test]
fn a_declining_interpreter_gives_the_parent_the_declined_result() {
    let chain = Chain::new();
    let no = Approver::new(false);
    let bed = chain.bed(|d| with_wait_for(d, "mid", no.clone()), None);
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.status, TaskStatus::Done);
    assert_eq!(
        r.text,
        "lead: mid: declined/expired: approve secret access?"
    );
    assert_eq!(chain.approved.get(), 0);
    // Nothing below the refusing level stays parked: the leaf is told too.
    assert!(bed.rt.suspended().is_empty());
    assert_eq!(
        transitions(&bed.rt, "root/lead.1/mid.1/leaf.1"),
        [
            "idle→running",
            "running→suspended",
            "suspended→idle",
            "idle→closed"
        ]
    );
    let leaf = bed.rt.find("root/lead.1/mid.1/leaf.1").unwrap();
    let r = bed.block_on(bed.rt.wait(leaf, WaitOptions::default()));
    assert_eq!(r.text, "declined/expired: approve secret access?");
    assert!(bed.rt.trace().contains(
        &"root/lead.1/mid.1/leaf.1: suspended→idle (Answer ok=false, declined)".to_owned()
    ));
}

// ---- durable resume ---------------------------------------------------------------------------

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

/// The chain halted, its saved state's pending requests given `expires_at`, restored.
fn halted_then_restored_expiring(chain: &Chain, expires_at: &str) -> (TaskResult, Bed) {
    let first = chain.bed(|_| {}, None);
    let (_, r1) = run(&first, "lead");
    let mut state: serde_json::Value =
        serde_json::from_str(&first.rt.saved_state().to_string()).unwrap();
    for h in state["handles"].as_array_mut().unwrap() {
        if h["pending"].is_object() {
            h["pending"]["expiresAt"] = json_str(expires_at);
        }
    }
    let second = chain
        .restored(&serde_json::from_value(state).unwrap())
        .unwrap();
    (r1, second)
}

/// An edit of a saved state.
type Edit = dyn Fn(&mut serde_json::Value);

fn json_str(s: &str) -> serde_json::Value {
    serde_json::Value::String(s.to_owned())
}

// ---- bad input --------------------------------------------------------------------------------

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

/// Defs, tools, models, and the counts of notes and approvals.
type NotingLeaf = (
    Vec<AgentDef>,
    Vec<SharedTool>,
    Rc<Models>,
    Rc<Cell<u32>>,
    Rc<Cell<u32>>,
);

/// A leaf that notes something, then asks for approval, in one turn: the note must not run
/// again when the halted turn is replayed.
fn noting_leaf() -> NotingLeaf {
    let (runs, approved, notes) = (
        Rc::new(Cell::new(0)),
        Rc::new(Cell::new(0)),
        Rc::new(Cell::new(0)),
    );
    let counted = notes.clone();
    let note: SharedTool = common::agent::FnTool::new(
        "note",
        json!({"type": "object", "properties": {"q": {"type": "string"}}}),
        move |args, _| {
            counted.set(counted.get() + 1);
            let q = args["q"].as_str().unwrap_or_default().to_owned();
            Box::pin(async move { toolnexus::core::types::ToolResult::ok(format!("noted({q})")) })
        },
    );
    let models = Models::new(vec![
        ("m-lead", delegate_rules("leaf", "lead")),
        (
            "m-leaf",
            vec![
                Rule::text(
                    When::ToolMsgContains("secret-token".into()),
                    "<join all tool msg contents with ' + '>",
                ),
                Rule::calls(When::ToolMsgs(0), vec![("note", json!({"q": "x"}))]),
                Rule::calls(When::Always, vec![("check_secret", json!({}))]),
            ],
        ),
    ]);
    let defs = vec![
        def("lead", "leads", "m-lead", &[], &["leaf"]),
        def(
            "leaf",
            "notes then asks",
            "m-leaf",
            &["note", "check_secret"],
            &[],
        ),
    ];
    let tools = vec![note, check_secret(runs, approved.clone())];
    (defs, tools, models, notes, approved)
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

#[test]
fn an_inline_resume_does_not_run_completed_tools_again_either() {
    let (mut defs, tools, models, notes, approved) = noting_leaf();
    with_wait_for(&mut defs, "lead", Approver::new(true));
    let bed = Bed::new(defs, &tools, models, |_| {});
    let (_, r) = run(&bed, "lead");
    assert_eq!(r.text, "lead: noted(x) + secret-token");
    assert_eq!((notes.get(), approved.get()), (1, 1));
}

// ---- an agent as a tool in a classic run ------------------------------------------------------

/// A classic client whose model delegates to the `lead` agent tool, over `chain`'s runtime.
fn classic(chain: &Chain, bed: &Bed) -> (toolnexus::core::client::run::Client, SharedTool) {
    use toolnexus::core::agents::as_tool::{AgentTool, RuntimeFactory};
    chain.models.scripts.borrow_mut().push((
        "m-classic".into(),
        vec![
            Rule::calls(When::ToolMsgs(0), vec![("lead", json!({"prompt": "go"}))]),
            Rule::text(When::ToolMsgsAtLeast(1), "classic: <last tool msg content>"),
        ],
    ));
    let (defs, tools, models, clock) = (
        chain.defs(),
        chain.tools.clone(),
        chain.models.clone(),
        bed.clock.clone(),
    );
    let spawner = bed.pool.borrow().spawner();
    let factory: RuntimeFactory = Rc::new(move || {
        let registry =
            toolnexus::core::agents::registry::Registry::new(defs.clone(), &tools).unwrap();
        AgentRuntime::new(RuntimeOptions::new(
            registry,
            Rc::new(ModelsHttp(models.clone())),
            clock.clone(),
            Rc::new(PoolSpawner(spawner.clone())),
        ))
        .unwrap()
    });
    let tool: SharedTool = Rc::new(AgentTool::new("lead", "leads", factory).unwrap());
    let client = bare_client(chain.models.clone(), bed.clock.clone(), "m-classic", "");
    (client, tool)
}

#[test]
fn an_approval_deep_inside_an_agent_tool_reaches_the_classic_clients_wait_for() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (mut client, tool) = classic(&chain, &bed);
    let approver = Approver::new(true);
    client.wait_for = Some(approver.clone());
    let r = bed
        .block_on(client.run(run_input(vec![tool], "do it")))
        .unwrap();
    assert_eq!(r.text, "classic: lead: mid: leaf: secret-token");
    // The classic host saw the inner tool's own request, and approved it once.
    let asked = approver.asked.borrow();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].prompt, "approve secret access?");
    assert_eq!(chain.approved.get(), 1);
}

#[test]
fn a_classic_durable_halt_inside_an_agent_tool_resumes_the_parked_run() {
    let chain = Chain::new();
    let bed = chain.bed(|_| {}, None);
    let (client, tool) = classic(&chain, &bed);
    let halted = bed
        .block_on(client.run(run_input(vec![tool.clone()], "do it")))
        .unwrap();
    let pending = halted.pending.clone().unwrap();
    assert_eq!(pending.prompt, "approve secret access?");
    // The classic client's durable resume retries the agent tool with the Answer.
    let mut input = run_input(vec![tool.clone()], "");
    input.history = halted.messages.clone();
    input.resume = Some(toolnexus::core::client::run::Resume {
        pending: pending.clone(),
        answer: json!({"id": pending.id.clone(), "ok": true}),
    });
    let done = bed.block_on(client.run(input)).unwrap();
    assert_eq!(done.text, "classic: lead: mid: leaf: secret-token");
    assert_eq!(chain.approved.get(), 1);
    // A retry whose run is gone is an error result the model reads, not a fresh run.
    let ctx = toolnexus::core::tool::Context {
        answer: Some(toolnexus::core::types::Answer {
            id: pending.id.clone(),
            ok: true,
            data: None,
            reason: None,
        }),
        ..Default::default()
    };
    let r = bed.block_on(tool.execute(json!({"prompt": "go"}), ctx));
    assert!(r.is_error);
    assert_eq!(
        r.output,
        format!("no run of agent \"lead\" waits on request \"{}\" (it ended, or ran in another process)", pending.id)
    );
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
