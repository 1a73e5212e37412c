//! The agent runtime (SPEC §7D): a tree of handles driven by six verbs (`spawn`, `post`,
//! `wake`, `wait`, `interrupt`, `close`) plus the read-only `list` / `inspect`, the transition
//! trace every port is checked against, three loud gates (inbox, per-parent concurrency, the
//! global turn gate) and live hierarchical budgets. Turns run in the background through the
//! host's [`Spawn`]; a verb itself never waits (only `wait` and `close` are futures).

use std::cell::RefCell;
use std::rc::Rc;

use futures_util::future::{select, Either};

use super::admission::{pool_limit, turn_cap};
use super::budget::{carve, Budget, Caps, Pools};
use super::data::{HandleDetail, HandleState, HandleView, InboxItem, TaskResult, TaskStatus};
use super::gate::{GatedHttp, TurnGate};
use super::node::{Node, QueuedWake, Tree};
pub use super::options::{LlmSettings, RuntimeOptions};
use super::registry::{Agent, AgentDef, Registry};
use super::waiter::{Slot, Waiting};
use crate::core::client::hooks::{Hooks, WaitFor};
use crate::core::client::store::{InMemoryStore, Store};
use crate::core::client::telemetry::MetricSink;
use crate::core::host::{Clock, Http, LocalBoxFuture, Spawn};
use crate::core::jsfmt::number;
use crate::core::text::JoinWith;

/// A handle: a capability naming one agent in one runtime's tree (its index there, and the
/// runtime's serial, so a handle of another runtime is refused instead of misread).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handle(pub(super) usize, pub(super) u64);

thread_local! {
    static SERIAL: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// What a verb says about a handle of another runtime.
const FOREIGN: &str = "the handle is not of this runtime";

/// A verb refused: returned to the caller, never thrown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct VerbError(pub String);

/// How `wait` waits.
#[derive(Debug, Clone, Copy, Default)]
pub struct WaitOptions {
    /// Give up after this many milliseconds with a `timeout` result (the handle keeps running).
    pub timeout_ms: Option<f64>,
    /// The waiter: when set, only the handle's spawner may wait.
    pub by: Option<Handle>,
}

pub(super) struct Inner {
    pub(super) registry: Registry,
    pub(super) llm: LlmSettings,
    pub(super) http: Rc<dyn Http>,
    pub(super) gate: Rc<TurnGate>,
    pub(super) clock: Rc<dyn Clock>,
    pub(super) spawner: Rc<dyn Spawn>,
    pub(super) store: Rc<dyn Store>,
    pub(super) inbox_cap: usize,
    pub(super) shutdown_ms: f64,
    pub(super) hooks: Option<Rc<dyn Hooks>>,
    pub(super) on_metric: Option<Rc<dyn MetricSink>>,
    pub(super) wait_for: Option<Rc<dyn WaitFor>>,
    pub(super) tree: RefCell<Tree>,
    pub(super) serial: u64,
    pub(super) trace: RefCell<Vec<String>>,
    /// Request ids a durable resume is under way for (a second Answer to one is refused).
    pub(super) resuming: RefCell<Vec<String>>,
}

/// The runtime; cheap to clone (all clones are the same runtime).
///
/// ```
/// use std::rc::Rc;
/// use futures_executor::{LocalPool, LocalSpawner};
/// use futures_util::task::{LocalFutureObj, LocalSpawn};
/// use toolnexus::core::agents::{data::{InboxItem, TaskStatus}, registry::{AgentDef, Registry},
///     runtime::{AgentRuntime, RuntimeOptions, WaitOptions}, close::CloseOptions};
/// use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, Spawn};
///
/// /// A model that always answers "noted".
/// struct Noted;
/// impl Http for Noted {
///     fn send(&self, _: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
///         let body = r#"{"choices":[{"message":{"role":"assistant","content":"noted"}}],
///             "usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}"#;
///         Box::pin(async move { Ok(HttpResponse { status: 200, retry_after: None, body: body.into() }) })
///     }
/// }
/// struct Still;
/// impl Clock for Still {
///     fn now_ms(&self) -> f64 { 0.0 }
///     fn sleep(&self, _: f64) -> LocalBoxFuture<'static, ()> { Box::pin(std::future::pending()) }
/// }
/// struct Pool(LocalSpawner);
/// impl Spawn for Pool {
///     fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
///         self.0.spawn_local_obj(LocalFutureObj::new(task)).unwrap();
///     }
/// }
///
/// let mut pool = LocalPool::new();
/// let registry = Registry::new(vec![AgentDef::new("peer", "team member")], &[]).unwrap();
/// let rt = AgentRuntime::new(RuntimeOptions::new(
///     registry, Rc::new(Noted), Rc::new(Still), Rc::new(Pool(pool.spawner())),
/// )).unwrap();
/// let peer = rt.spawn(rt.root(), "peer", None).unwrap();
/// rt.post(peer, InboxItem { from: "external".into(), channel: "external".into(), text: "ping".into() }).unwrap();
/// rt.wake(peer, Some("read your inbox")).unwrap();
/// let result = pool.run_until(rt.wait(peer, WaitOptions::default()));
/// assert_eq!((result.status, result.text.as_str(), result.total_tokens), (TaskStatus::Done, "noted", 4));
/// assert_eq!(rt.inspect(peer).turns, 1);
/// pool.run_until(rt.close(rt.root(), CloseOptions::default()));
/// assert_eq!(rt.trace(), [
///     "root/peer.1: spawned (depth 1, tokens Infinity)",
///     "root/peer.1: idle→running (wake)",
///     "root/peer.1: running→idle (done, turns=1, tokens=4)",
///     "root/peer.1: idle→closed (closed)",
///     "root: idle→closed (closed)",
/// ]);
/// ```
#[derive(Clone)]
pub struct AgentRuntime(pub(super) Rc<Inner>);

impl AgentRuntime {
    /// A runtime with only its root handle. Refused: an `inboxCap` or `maxConcurrentTurns`
    /// below 1, a `shutdownMs` that is negative or not a number.
    pub fn new(options: RuntimeOptions) -> Result<AgentRuntime, VerbError> {
        options.check().map_err(VerbError)?;
        let gate = TurnGate::new(options.max_concurrent_turns.unwrap_or(8));
        let http: Rc<dyn Http> = Rc::new(GatedHttp {
            inner: options.http,
            gate: gate.clone(),
        });
        let root_agent = Rc::new(Agent {
            def: AgentDef {
                model: Some("none".into()),
                ..AgentDef::new("root", "runtime root")
            },
            tools: Vec::new(),
        });
        let root = Node::new("root".into(), root_agent.clone(), Budget::default(), None);
        let void = Node::new(
            "(no such handle)".into(),
            root_agent,
            Budget::default(),
            None,
        );
        let serial = SERIAL.with(|s| {
            s.set(s.get() + 1);
            s.get()
        });
        Ok(AgentRuntime(Rc::new(Inner {
            registry: options.registry,
            llm: options.llm,
            http,
            gate,
            clock: options.clock,
            spawner: options.spawner,
            store: options
                .store
                .unwrap_or_else(|| Rc::new(InMemoryStore::default())),
            inbox_cap: options.inbox_cap.unwrap_or(8),
            shutdown_ms: options.shutdown_ms.unwrap_or(200.0),
            hooks: options.hooks,
            on_metric: options.on_metric,
            wait_for: options.wait_for,
            tree: RefCell::new(Tree::new(root, void)),
            serial,
            trace: RefCell::new(Vec::new()),
            resuming: RefCell::new(Vec::new()),
        })))
    }

    /// The root handle (the parent of top-level spawns).
    pub fn root(&self) -> Handle {
        Handle(0, self.0.serial)
    }

    /// The handle of table index `i`.
    pub(super) fn handle(&self, i: usize) -> Handle {
        Handle(i, self.0.serial)
    }

    /// `h` when it is this runtime's, else a handle of the closed stand-in.
    pub(super) fn own(&self, h: Handle) -> Handle {
        if h.1 == self.0.serial {
            h
        } else {
            Handle(usize::MAX, self.0.serial)
        }
    }

    /// Refuses a handle of another runtime.
    fn check(&self, h: Handle) -> Result<Handle, VerbError> {
        if h.1 == self.0.serial {
            Ok(h)
        } else {
            Err(VerbError(FOREIGN.to_owned()))
        }
    }

    /// The handle whose id is `id`.
    pub fn find(&self, id: &str) -> Option<Handle> {
        let i = self.0.tree.borrow().iter().position(|n| &*n.id == id)?;
        Some(self.handle(i))
    }

    /// The handle's id.
    pub fn id(&self, h: Handle) -> String {
        let h = self.own(h);
        self.0.tree.borrow()[h.0].id.to_string()
    }

    /// The transition trace: the conformance artifact.
    pub fn trace(&self) -> Vec<String> {
        self.0.trace.borrow().clone()
    }

    /// The one conversation store of every handle (conversation id = handle id).
    pub fn store(&self) -> Rc<dyn Store> {
        self.0.store.clone()
    }

    /// The most model calls that were ever in flight at once.
    pub fn max_observed_concurrent_turns(&self) -> usize {
        self.0.gate.max_observed()
    }

    /// The handle's children, in spawn order.
    pub fn children(&self, h: Handle) -> Vec<Handle> {
        let h = self.own(h);
        self.0.tree.borrow()[h.0]
            .children
            .iter()
            .map(|&c| self.handle(c))
            .collect()
    }

    /// The handle's buffered inbox items.
    pub fn inbox(&self, h: Handle) -> Vec<InboxItem> {
        let h = self.own(h);
        self.0.tree.borrow()[h.0].inbox.clone()
    }

    pub(super) fn t(&self, line: String) {
        self.0.trace.borrow_mut().push(line);
    }

    // ---- spawn ---------------------------------------------------------------------------

    /// A new idle child of `parent` running agent `name`, its id `parent.id/name.N` (N counts
    /// the parent's children). `budget` overrides the def's fields; the shared pools are carved
    /// `min(own, parent remaining)`. Refused: an unknown agent, a closed parent, `maxDepth`,
    /// `maxChildren`, an exhausted pool on the live chain, a budget that is not positive.
    pub fn spawn(
        &self,
        parent: Handle,
        name: &str,
        budget: Option<&Budget>,
    ) -> Result<Handle, VerbError> {
        let parent = self.check(parent)?;
        let agent = self.0.registry.get(name).cloned().ok_or_else(|| {
            VerbError(format!(
                "unknown agent \"{name}\" (known: {})",
                self.0.registry.names().join_with(", ")
            ))
        })?;
        if let Some(b) = budget {
            b.check().map_err(VerbError)?;
        }
        let now = self.0.clock.now_ms();
        let (child, id, view) = {
            let mut tree = self.0.tree.borrow_mut();
            let p = &tree[parent.0];
            if p.shut() {
                return Err(VerbError(format!("parent closed: {}", p.id)));
            }
            if f64::from(p.depth + 1) > p.caps.max_depth {
                return Err(VerbError(format!(
                    "maxDepth {} exceeded",
                    number(p.caps.max_depth)
                )));
            }
            if let Some(cap) = p.pools.children {
                if (p.children.len() + 1) as f64 > cap {
                    return Err(VerbError(format!("maxChildren {} exceeded", number(cap))));
                }
            }
            if let Some(limit) = pool_limit(&tree, parent.0, now) {
                return Err(VerbError(format!(
                    "budget exhausted ({limit}); spawn refused"
                )));
            }
            let merged = match budget {
                Some(b) => agent.def.budget.overlaid(b),
                None => agent.def.budget.clone(),
            };
            let p = &mut tree[parent.0];
            p.seq += 1;
            let id: Rc<str> = format!("{}/{name}.{}", p.id, p.seq).into();
            let mut deadline = merged.max_wall_ms.map(|ms| now + ms);
            if let Some(pd) = p.deadline {
                deadline = Some(deadline.map_or(pd, |d| d.min(pd)));
            }
            let pools = Pools {
                tokens: carve(merged.max_tokens, p.pools.tokens),
                tool_calls: carve(merged.max_tool_calls, p.pools.tool_calls),
                children: merged.max_children,
            };
            let depth = p.depth + 1;
            let mut node = Node::new(id.clone(), agent.clone(), merged, Some(parent.0));
            node.caps = Caps::of(&node.budget);
            node.depth = depth;
            node.pools = pools;
            node.deadline = deadline;
            let view = node.view();
            let child = tree.push(node);
            tree[parent.0].children.push(child);
            (child, id, view)
        };
        let (depth, tokens) = {
            let tree = self.0.tree.borrow();
            (tree[child].depth, tree[child].pools.tokens)
        };
        let tokens = tokens.map_or("Infinity".to_owned(), number);
        self.t(format!("{id}: spawned (depth {depth}, tokens {tokens})"));
        if let Some(on_spawn) = &agent.def.on_spawn {
            on_spawn(&view);
        }
        Ok(self.handle(child))
    }

    // ---- post ----------------------------------------------------------------------------

    /// Appends to the handle's inbox, with no transition. Refused at once, loudly: a closed
    /// handle, a full inbox (`inboxCap`).
    pub fn post(&self, h: Handle, item: InboxItem) -> Result<(), VerbError> {
        let h = self.check(h)?;
        let cap = self.0.inbox_cap;
        let mut tree = self.0.tree.borrow_mut();
        let node = &mut tree[h.0];
        if node.shut() {
            return Err(VerbError(format!("inbox closed: {}", node.id)));
        }
        if node.inbox.len() >= cap {
            let id = node.id.clone();
            drop(tree);
            self.t(format!(
                "{id}: post REJECTED (inbox full, cap {cap}) from {}",
                item.from
            ));
            return Err(VerbError(format!("inbox full: {id} (cap {cap})")));
        }
        node.inbox.push(item);
        Ok(())
    }

    // ---- wake ----------------------------------------------------------------------------

    /// `idle → running`: admission (budget walk, concurrency slot, state flip, inbox drain) is
    /// one step with the verb, and the turn starts in the background. Over the parent's
    /// `maxConcurrent` the wake queues FIFO until a sibling's turn ends and hands over its
    /// slot. A running or suspended handle is left as it is (items buffer; only the Answer
    /// moves a suspended one). Refused: a closed handle; an exhausted budget, which also
    /// settles the handle's waiters with an `incomplete` result naming the limit.
    pub fn wake(&self, h: Handle, prompt: Option<&str>) -> Result<(), VerbError> {
        let h = self.check(h)?;
        let now = self.0.clock.now_ms();
        let limit = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &tree[h.0];
            if node.shut() {
                return Err(VerbError(format!("closed: {}", node.id)));
            }
            match node.state {
                HandleState::Closed => return Err(VerbError(format!("closed: {}", node.id))),
                HandleState::Suspended | HandleState::Running => return Ok(()),
                HandleState::Idle => {}
            }
            if let Some(p) = node.parent {
                let parent = &tree[p];
                if f64::from(parent.running_children) >= parent.caps.max_concurrent {
                    let line = format!(
                        "{}: wake QUEUED (parent concurrency {})",
                        node.id,
                        number(parent.caps.max_concurrent)
                    );
                    tree[p].wake_queue.push_back(QueuedWake {
                        child: h.0,
                        prompt: prompt.map(str::to_owned),
                    });
                    drop(tree);
                    self.t(line);
                    return Ok(());
                }
            }
            pool_limit(&tree, h.0, now).or_else(|| turn_cap(&tree[h.0]))
        };
        if let Some(limit) = limit {
            return Err(VerbError(self.settle_refused(h, limit)));
        }
        let input = self.admit(h, prompt);
        self.start_turn(h, input);
        Ok(())
    }

    // ---- wait ----------------------------------------------------------------------------

    /// The handle's next result, or its last one when it is settled (idle with a result,
    /// suspended with its request, closed). With `timeout_ms`, a `timeout` result when it
    /// passes (the handle keeps running). With `by`, only the spawner may wait. The waiter is
    /// registered when this is called, not when the future is first polled.
    pub fn wait(&self, h: Handle, options: WaitOptions) -> LocalBoxFuture<'static, TaskResult> {
        if h.1 != self.0.serial {
            let refused =
                TaskResult::settled(format!("wait refused: {FOREIGN}"), TaskStatus::Error, 0, 0);
            return Box::pin(async move { refused });
        }
        let slot = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &tree[h.0];
            let (turns, tokens) = (node.turns_total, node.usage_total);
            let ready = |r: TaskResult| -> LocalBoxFuture<'static, TaskResult> {
                Box::pin(async move { r })
            };
            if let Some(by) = options.by {
                if node.parent != Some(by.0) {
                    let text = format!("wait refused: only the spawner may wait on {}", node.id);
                    return ready(TaskResult::settled(text, TaskStatus::Error, turns, tokens));
                }
            }
            match node.state {
                HandleState::Closed => {
                    let closed = TaskResult::settled("closed", TaskStatus::Closed, turns, tokens);
                    return ready(node.last_result.clone().unwrap_or(closed));
                }
                HandleState::Suspended => return ready(pending_result(node)),
                HandleState::Idle if node.last_result.is_some() && !is_queued(&tree, h.0) => {
                    return ready(node.last_result.clone().unwrap_or_else(|| {
                        TaskResult::settled("", TaskStatus::Done, turns, tokens)
                    }));
                }
                _ => {}
            }
            let slot = Slot::new();
            tree[h.0].waiters.push(slot.clone());
            slot
        };
        let Some(ms) = options.timeout_ms else {
            return Box::pin(Waiting(slot));
        };
        let sleep = self.0.clock.sleep(ms);
        let rt = self.clone();
        Box::pin(async move {
            match select(Waiting(slot.clone()), sleep).await {
                Either::Left((result, _)) => result,
                Either::Right(((), waiting)) => {
                    let mut tree = rt.0.tree.borrow_mut();
                    let node = &mut tree[h.0];
                    node.waiters.retain(|s| !Rc::ptr_eq(s, &slot));
                    drop(waiting);
                    let text = format!(
                        "wait timeout after {}ms (child still {})",
                        number(ms),
                        node.state.as_str()
                    );
                    TaskResult::settled(
                        text,
                        TaskStatus::Timeout,
                        node.turns_total,
                        node.usage_total,
                    )
                }
            }
        })
    }

    // ---- interrupt -----------------------------------------------------------------------

    /// Aborts the running turn (never a kill): the handle goes back to idle with the items
    /// its turn drained restored to its inbox, and its waiters get an `interrupted` result.
    /// On a suspended handle: cancels its pending request → idle.
    pub fn interrupt(&self, h: Handle) {
        let h = self.own(h);
        let mut tree = self.0.tree.borrow_mut();
        let node = &mut tree[h.0];
        match node.state {
            HandleState::Suspended => {
                let kind = node.pending.take().map(|r| r.kind).unwrap_or_default();
                node.halted_call = None;
                node.checkpoint = None;
                node.state = HandleState::Idle;
                // Its last result is no longer the request: a reattaching `task` reads this.
                node.last_result = Some(TaskResult::settled(
                    format!("interrupt cancelled pending \"{kind}\""),
                    TaskStatus::Interrupted,
                    node.turns_total,
                    node.usage_total,
                ));
                let line = format!(
                    "{}: suspended→idle (interrupt cancelled pending \"{kind}\")",
                    node.id
                );
                drop(tree);
                self.t(line);
            }
            HandleState::Running => {
                if let Some(abort) = node.abort.clone() {
                    drop(tree);
                    abort.abort("interrupted");
                }
            }
            _ => {}
        }
    }

    // ---- views ---------------------------------------------------------------------------

    /// Every handle but the root, in tree order.
    pub fn list(&self) -> Vec<HandleView> {
        let tree = self.0.tree.borrow();
        let mut out = Vec::with_capacity(tree.len().saturating_sub(1));
        let mut stack: Vec<usize> = tree[0].children.iter().rev().copied().collect();
        while let Some(i) = stack.pop() {
            out.push(tree[i].view());
            stack.extend(tree[i].children.iter().rev());
        }
        out
    }

    /// One handle's detail.
    pub fn inspect(&self, h: Handle) -> HandleDetail {
        let h = self.own(h);
        self.0.tree.borrow()[h.0].detail()
    }

    /// The handle's agent name.
    pub fn agent_name(&self, h: Handle) -> String {
        let h = self.own(h);
        self.0.tree.borrow()[h.0].agent.def.name.clone()
    }
}

fn is_queued(tree: &Tree, i: usize) -> bool {
    tree[i]
        .parent
        .is_some_and(|p| tree[p].wake_queue.iter().any(|q| q.child == i))
}

/// A suspended handle's result: its request.
pub(super) fn pending_result(node: &Node) -> TaskResult {
    let prompt = node
        .pending
        .as_ref()
        .map(|r| r.prompt.clone())
        .unwrap_or_default();
    TaskResult {
        text: prompt,
        is_error: false,
        status: TaskStatus::Pending,
        pending: node.pending.clone(),
        turns: node.turns_total,
        total_tokens: node.usage_total,
        limit: None,
    }
}
