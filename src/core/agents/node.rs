//! One handle's record in the runtime's table. Everything but the live seams (`abort`,
//! `waiters`) is plain data, so a table can later be saved and rebuilt (durable resume).

use std::collections::VecDeque;
use std::rc::Rc;

use super::budget::{Budget, Caps, Pools};
use super::data::{
    HaltedCall, HandleDetail, HandleState, HandleView, InboxItem, RecordedCall, TaskResult,
};
use super::registry::Agent;
use super::signal::TurnAbort;
use super::waiter::Slot;
use crate::core::types::{Answer, Request};

/// Where a halted turn resumes: its exact input (prompt plus the rendered inbox drain).
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The turn's input, replayed on resume.
    pub input: String,
    /// The calls the halted turn ran, answered from here when the replay makes them again.
    pub calls: Vec<RecordedCall>,
}

/// A child's wake deferred by its parent's `maxConcurrent`.
#[derive(Debug, Clone, PartialEq)]
pub struct QueuedWake {
    /// The child's index in the table.
    pub child: usize,
    /// The wake's prompt.
    pub prompt: Option<String>,
}

/// A handle's state.
pub struct Node {
    /// `root/coordinator.1/explore.2`.
    pub id: Rc<str>,
    /// Its agent (the root's is a stand-in).
    pub agent: Rc<Agent>,
    /// The def's budget with the spawn's over it.
    pub budget: Budget,
    /// The parent's index (`None` for the root).
    pub parent: Option<usize>,
    /// The root is 0.
    pub depth: u32,
    /// Children's indexes, in spawn order.
    pub children: Vec<usize>,
    /// Buffered unsolicited items.
    pub inbox: Vec<InboxItem>,
    /// Where it is in its state machine.
    pub state: HandleState,
    /// Remaining shared pools.
    pub pools: Pools,
    /// Own caps after defaults.
    pub caps: Caps,
    /// Wall-clock deadline (clock ms) on its chain.
    pub deadline: Option<f64>,
    /// Tokens attributed to it (own and rolled up).
    pub usage_total: u64,
    /// Tool calls attributed to it (own and rolled up).
    pub tool_calls_total: u64,
    /// Model calls it made itself (never reset).
    pub turns_total: u32,
    /// The unanswered request while suspended (`data.path` stamped).
    pub pending: Option<Request>,
    /// The tool call the suspended chain halted on, at its deepest handle.
    pub halted_call: Option<HaltedCall>,
    /// The last settled result: what `wait` answers on a settled handle.
    pub last_result: Option<TaskResult>,
    /// Where a suspended turn resumes.
    pub checkpoint: Option<Checkpoint>,
    /// Items the running turn consumed; put back at the inbox's front if it aborts.
    pub drained: Vec<InboxItem>,
    /// Set when spawned by `task`: `agent:prompt`, the reattachment key.
    pub task_key: Option<String>,
    /// Children running now (the concurrency gate's count).
    pub running_children: u32,
    /// The last child number given (deterministic ids).
    pub seq: u32,
    /// Children's wakes waiting for a slot, first in first out.
    pub wake_queue: VecDeque<QueuedWake>,
    /// A `close` is under way: the handle accepts no spawn, post or wake.
    pub closing: bool,
    /// Later `close` calls waiting for the one under way.
    pub close_waiters: Vec<Rc<Slot>>,
    /// The running turn's abort seam.
    pub abort: Option<Rc<TurnAbort>>,
    /// Registered waiters.
    pub waiters: Vec<Rc<Slot>>,
    /// The Answer the next turn (a resumed one) hands to its re-raised request.
    pub one_shot: Option<OneShot>,
    /// The calls the next turn (a replay) answers from its checkpoint.
    pub replay: Vec<RecordedCall>,
}

/// The Answer a resumed turn's replay gives to the request its halted tool raises again.
#[derive(Debug, Clone, PartialEq)]
pub struct OneShot {
    /// The request the Answer answered (its id already checked).
    pub request: Request,
    /// The checked Answer.
    pub answer: Answer,
}

impl Node {
    /// A fresh idle handle.
    pub fn new(id: Rc<str>, agent: Rc<Agent>, budget: Budget, parent: Option<usize>) -> Node {
        Node {
            id,
            agent,
            caps: Caps::of(&budget),
            budget,
            parent,
            depth: 0,
            children: Vec::new(),
            inbox: Vec::new(),
            state: HandleState::Idle,
            pools: Pools::default(),
            deadline: None,
            usage_total: 0,
            tool_calls_total: 0,
            turns_total: 0,
            pending: None,
            halted_call: None,
            last_result: None,
            checkpoint: None,
            drained: Vec::new(),
            task_key: None,
            running_children: 0,
            seq: 0,
            wake_queue: VecDeque::new(),
            closing: false,
            close_waiters: Vec::new(),
            abort: None,
            waiters: Vec::new(),
            one_shot: None,
            replay: Vec::new(),
        }
    }

    /// Whether it is closed or closing (it accepts nothing new).
    pub fn shut(&self) -> bool {
        self.closing || self.state == HandleState::Closed
    }

    /// Its row in `list()`.
    pub fn view(&self) -> HandleView {
        HandleView {
            id: self.id.to_string(),
            state: self.state,
            tokens: self.usage_total,
            inbox: self.inbox.len(),
        }
    }

    /// What `inspect()` tells.
    pub fn detail(&self) -> HandleDetail {
        HandleDetail {
            id: self.id.to_string(),
            state: self.state,
            tokens: self.usage_total,
            inbox: self.inbox.len(),
            turns: self.turns_total,
            pool_tokens: self.pools.tokens,
            pending: self.pending.clone(),
        }
    }
}

/// The handle table. Indexing never panics: an index that names no handle reads and writes a
/// closed stand-in (`void`), which the verbs never reach (they check every handle first).
/// Each node is boxed: a spawn that grows the table moves pointers, not nodes.
pub struct Tree {
    // Boxed on purpose: a `Node` is large, and a growing `Vec<Node>` reallocates and moves them all.
    #[allow(clippy::vec_box)]
    nodes: Vec<Box<Node>>,
    void: Node,
}

impl Tree {
    /// A table holding `root`; `void` is the stand-in.
    pub fn new(root: Node, mut void: Node) -> Tree {
        void.state = HandleState::Closed;
        Tree {
            nodes: vec![Box::new(root)],
            void,
        }
    }

    /// How many handles there are (the root included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never: the root is always there.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds a handle; returns its index.
    pub fn push(&mut self, node: Node) -> usize {
        self.nodes.push(Box::new(node));
        self.nodes.len() - 1
    }

    /// The handles in table order.
    pub fn iter(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().map(|node| &**node)
    }
}

impl std::ops::Index<usize> for Tree {
    type Output = Node;
    fn index(&self, i: usize) -> &Node {
        self.nodes.get(i).map_or(&self.void, |node| node)
    }
}

impl std::ops::IndexMut<usize> for Tree {
    fn index_mut(&mut self, i: usize) -> &mut Node {
        match self.nodes.get_mut(i) {
            Some(node) => node,
            None => &mut self.void,
        }
    }
}
