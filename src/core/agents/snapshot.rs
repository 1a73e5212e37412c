//! The handle table as records: everything a handle is at rest, as plain JSON, so a runtime's
//! state can be saved and inspected (and, with durable resume, rebuilt). A running turn's live
//! seams (its abort, its waiters, the items it drained) are not in it: a snapshot describes
//! the tree between turns.

use super::budget::Budget;
use super::data::{HaltedCall, HandleState, InboxItem, RecordedCall, TaskResult};
use super::node::Tree;
use super::runtime::AgentRuntime;
use crate::core::types::Request;

crate::record! {
    /// A child's wake waiting for its parent's concurrency slot.
    pub struct QueuedWakeRecord as "struct QueuedWakeRecord" {
        /// The child's id.
        pub child: String = "child",
        /// The wake's prompt.
        pub prompt: Option<String> = "prompt",
    }
}

crate::record! {
    /// One handle at rest.
    pub struct HandleRecord as "struct HandleRecord" {
        /// Its id path.
        pub id: String = "id",
        /// Its agent's name.
        pub agent: String = "agent",
        /// Its parent's id (`None` for the root).
        pub parent: Option<String> = "parent",
        /// Its depth (the root is 0).
        pub depth: u32 = "depth",
        /// Its children's ids, in spawn order.
        pub children: Vec<String> = "children",
        /// Its state.
        pub state: HandleState = "state",
        /// Its buffered inbox.
        pub inbox: Vec<InboxItem> = "inbox",
        /// Its budget (the def's with the spawn's over it).
        pub budget: Budget = "budget",
        /// Tokens left in its pool (`None`: unlimited).
        pub pool_tokens: Option<f64> = "poolTokens",
        /// Tool calls left in its pool.
        pub pool_tool_calls: Option<f64> = "poolToolCalls",
        /// Children it may still have.
        pub pool_children: Option<f64> = "poolChildren",
        /// Its wall-clock deadline (clock ms).
        pub deadline: Option<f64> = "deadline",
        /// Tokens attributed to it (own and rolled up).
        pub usage_total: u64 = "usageTotal",
        /// Tool calls attributed to it (own and rolled up).
        pub tool_calls_total: u64 = "toolCallsTotal",
        /// Model calls it made itself.
        pub turns_total: u32 = "turnsTotal",
        /// Its unanswered request while suspended.
        pub pending: Option<Request> = "pending",
        /// The tool call its suspended chain halted on, at the deepest handle.
        pub halted_call: Option<HaltedCall> = "haltedCall",
        /// Its last settled result.
        pub last_result: Option<TaskResult> = "lastResult",
        /// The input its suspended turn replays on resume.
        pub checkpoint: Option<String> = "checkpoint",
        /// The calls its halted turn ran, answered from here on the replay.
        pub checkpoint_calls: Vec<RecordedCall> = "checkpointCalls",
        /// `agent:prompt` when `task` spawned it.
        pub task_key: Option<String> = "taskKey",
        /// Its children running now.
        pub running_children: u32 = "runningChildren",
        /// The last child number it gave.
        pub seq: u32 = "seq",
        /// Its children's queued wakes, in order.
        pub wake_queue: Vec<QueuedWakeRecord> = "wakeQueue",
    }
}

impl AgentRuntime {
    /// Every handle, the root first, in table order.
    pub fn snapshot(&self) -> Vec<HandleRecord> {
        let tree = self.0.tree.borrow();
        tree.iter().map(|node| record(&tree, node)).collect()
    }
}

fn record(tree: &Tree, node: &super::node::Node) -> HandleRecord {
    let id_of = |i: usize| tree[i].id.to_string();
    HandleRecord {
        id: node.id.to_string(),
        agent: node.agent.def.name.clone(),
        parent: node.parent.map(id_of),
        depth: node.depth,
        children: node.children.iter().map(|&c| id_of(c)).collect(),
        state: node.state,
        inbox: node.inbox.clone(),
        budget: node.budget.clone(),
        pool_tokens: node.pools.tokens,
        pool_tool_calls: node.pools.tool_calls,
        pool_children: node.pools.children,
        deadline: node.deadline,
        usage_total: node.usage_total,
        tool_calls_total: node.tool_calls_total,
        turns_total: node.turns_total,
        pending: node.pending.clone(),
        halted_call: node.halted_call.clone(),
        last_result: node.last_result.clone(),
        checkpoint: node.checkpoint.as_ref().map(|c| c.input.clone()),
        checkpoint_calls: node
            .checkpoint
            .as_ref()
            .map(|c| c.calls.clone())
            .unwrap_or_default(),
        task_key: node.task_key.clone(),
        running_children: node.running_children,
        seq: node.seq,
        wake_queue: node
            .wake_queue
            .iter()
            .map(|q| QueuedWakeRecord {
                child: id_of(q.child),
                prompt: q.prompt.clone(),
            })
            .collect(),
    }
}
