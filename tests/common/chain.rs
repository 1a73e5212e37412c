//! The bench of the escalation and resume tests (`tests/agents_escalation.rs`,
//! `agents_resume.rs`, `agents_restore.rs`): a `lead → mid → leaf` chain whose leaf asks for
//! approval, the scripts of its models, and readers of a runtime's trace.
#![allow(dead_code, clippy::unwrap_used, clippy::indexing_slicing)]

use std::cell::Cell;
use std::rc::Rc;
use toolnexus::core::agents::data::TaskResult;
use toolnexus::core::agents::registry::AgentDef;
use toolnexus::core::agents::resume::ResumeError;
use toolnexus::core::agents::runtime::{AgentRuntime, Handle, RuntimeOptions, WaitOptions};
use toolnexus::core::client::hooks::WaitFor;
use toolnexus::core::client::store::{InMemoryStore, Store};
use toolnexus::core::json::value::Value;
use toolnexus::core::tool::SharedTool;
use toolnexus::json;

use super::agents::*;

/// A leaf's script: call `tool` until a tool message says how it went.
pub fn leaf_rules(tool: &str) -> Vec<Rule> {
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
pub fn delegate_rules(agent: &str, label: &str) -> Vec<Rule> {
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
pub struct Chain {
    pub runs: Rc<Cell<u32>>,
    pub approved: Rc<Cell<u32>>,
    pub tools: Vec<SharedTool>,
    pub store: Rc<InMemoryStore>,
    pub models: Rc<Models>,
}

impl Chain {
    pub fn new() -> Chain {
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

    pub fn defs(&self) -> Vec<AgentDef> {
        vec![
            def("lead", "leads", "m-lead", &[], &["mid"]),
            def("mid", "relays", "m-mid", &[], &["leaf"]),
            def("leaf", "needs approval", "m-leaf", &["check_secret"], &[]),
        ]
    }

    pub fn bed(
        &self,
        edit: impl FnOnce(&mut Vec<AgentDef>),
        runtime: Option<Rc<dyn WaitFor>>,
    ) -> Bed {
        let mut defs = self.defs();
        edit(&mut defs);
        let store: Rc<dyn Store> = self.store.clone();
        Bed::new(defs, &self.tools, self.models.clone(), move |o| {
            o.store = Some(store);
            o.wait_for = runtime;
        })
    }

    pub fn restored(&self, state: &Value) -> Result<Bed, ResumeError> {
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

pub fn with_wait_for(defs: &mut [AgentDef], name: &str, w: Rc<dyn WaitFor>) {
    defs.iter_mut().find(|d| d.name == name).unwrap().wait_for = Some(w);
}

pub fn run(bed: &Bed, entry: &str) -> (Handle, TaskResult) {
    let h = bed.rt.spawn(bed.rt.root(), entry, None).unwrap();
    bed.rt.wake(h, Some("do the secret thing")).unwrap();
    let waiting = bed.rt.wait(h, WaitOptions::default());
    (h, bed.block_on(waiting))
}

pub fn transitions(rt: &AgentRuntime, id: &str) -> Vec<String> {
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

pub fn path_of(r: &TaskResult) -> String {
    r.pending.as_ref().unwrap().data.as_ref().unwrap()["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect::<Vec<_>>()
        .join("/")
}

pub fn spawns(rt: &AgentRuntime) -> usize {
    rt.trace()
        .iter()
        .filter(|l| l.contains(": spawned"))
        .count()
}

/// The chain halted, its saved state's pending requests given `expires_at`, restored.
pub fn halted_then_restored_expiring(chain: &Chain, expires_at: &str) -> (TaskResult, Bed) {
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
pub type Edit = dyn Fn(&mut serde_json::Value);

pub fn json_str(s: &str) -> serde_json::Value {
    serde_json::Value::String(s.to_owned())
}

/// Defs, tools, models, and the counts of notes and approvals.
pub type NotingLeaf = (
    Vec<AgentDef>,
    Vec<SharedTool>,
    Rc<Models>,
    Rc<Cell<u32>>,
    Rc<Cell<u32>>,
);

/// A leaf that notes something, then asks for approval, in one turn: the note must not run
/// again when the halted turn is replayed.
pub fn noting_leaf() -> NotingLeaf {
    let (runs, approved, notes) = (
        Rc::new(Cell::new(0)),
        Rc::new(Cell::new(0)),
        Rc::new(Cell::new(0)),
    );
    let counted = notes.clone();
    let note: SharedTool = super::agent::FnTool::new(
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

/// A classic client whose model delegates to the `lead` agent tool, over `chain`'s runtime.
pub fn classic(chain: &Chain, bed: &Bed) -> (toolnexus::core::client::run::Client, SharedTool) {
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
