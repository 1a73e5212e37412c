//! The runtime's plain data (SPEC §7D): a handle's state, an inbox item, a turn's result, the
//! read-only view of a handle. Each is a record, so it crosses (and is saved) as JSON.

use crate::core::json::value::Value;
use crate::core::types::{Request, ToolResult};

crate::word! {
    /// Where a handle is in its state machine: `idle → running → (idle | suspended | closed)`,
    /// `suspended → running` only through the Answer to its pending request.
    pub enum HandleState as "enum HandleState" {
        /// Alive, no turn in flight.
        Idle = "idle",
        /// A turn is in flight.
        Running = "running",
        /// A turn halted on a pending request; only its Answer moves it on.
        Suspended = "suspended",
        /// Closed for good; its last state stays readable.
        Closed = "closed",
    }
}

crate::word! {
    /// How a turn (or a wait on one) ended: the closed vocabulary every port shares.
    pub enum TaskStatus as "enum TaskStatus" {
        /// The agent gave a final answer.
        Done = "done",
        /// A tool suspended and nothing in the chain answered: `pending` holds the request.
        Pending = "pending",
        /// A limit stopped it: `limit` names which.
        Incomplete = "incomplete",
        /// `interrupt` aborted the turn; the handle is idle and alive.
        Interrupted = "interrupted",
        /// The handle was closed.
        Closed = "closed",
        /// A `wait` deadline passed; the handle keeps running.
        Timeout = "timeout",
        /// The run failed; a failure crosses a handle boundary as this result, never a throw.
        Error = "error",
    }
}

crate::word! {
    /// Why a handle was closed (what `onClose` is told).
    pub enum CloseReason as "enum CloseReason" {
        /// A graceful close.
        Closed = "closed",
        /// A forced close, which aborted a running turn.
        Interrupted = "interrupted",
        /// A budget ran out.
        Budget = "budget",
        /// The run failed.
        Error = "error",
    }
}

crate::record! {
    /// An unsolicited inbox item: it reaches the agent only in a fresh turn's coalesced drain,
    /// rendered with its provenance.
    pub struct InboxItem as "struct InboxItem" {
        /// The sender's handle path, or `"external"` / `"clock"`.
        pub from: String = "from",
        /// The channel: `"peer"`, `"timer"`, `"external"`, ….
        pub channel: String = "channel",
        /// The content.
        pub text: String = "text",
    }
}

crate::record! {
    /// The result of one turn (or of waiting for one), as waiters and the `task` tool see it.
    pub struct TaskResult as "struct TaskResult" {
        /// The final text (the error or limit sentence when there is no answer).
        pub text: String = "text",
        /// Whether it is a failure the parent's model should judge.
        pub is_error: bool = "isError",
        /// How it ended.
        pub status: TaskStatus = "status",
        /// Present iff `status` is `"pending"`; `data.path` names the suspended handle.
        pub pending: Option<Request> = "pending",
        /// Model calls of the run.
        pub turns: u32 = "turns",
        /// Tokens of the run.
        pub total_tokens: u64 = "totalTokens",
        /// The limit that stopped it, when `status` is `"incomplete"`.
        pub limit: Option<String> = "limit",
    }
}

impl TaskResult {
    /// A result carrying no run: `text` with `status`, the handle's counts so far.
    ///
    /// ```
    /// # use toolnexus::core::agents::data::{TaskResult, TaskStatus};
    /// let r = TaskResult::settled("closed", TaskStatus::Closed, 2, 80);
    /// assert!(r.is_error && r.turns == 2);
    /// ```
    pub fn settled(text: impl Into<String>, status: TaskStatus, turns: u32, tokens: u64) -> Self {
        TaskResult {
            text: text.into(),
            is_error: status != TaskStatus::Done && status != TaskStatus::Pending,
            status,
            pending: None,
            turns,
            total_tokens: tokens,
            limit: None,
        }
    }
}

crate::record! {
    /// A read-only row of `list()`.
    pub struct HandleView as "struct HandleView" {
        /// The deterministic id path (`root/coordinator.1/explore.2`).
        pub id: String = "id",
        /// The state.
        pub state: HandleState = "state",
        /// Tokens attributed to it (its own and its descendants').
        pub tokens: u64 = "tokens",
        /// Items waiting in its inbox.
        pub inbox: usize = "inbox",
    }
}

crate::record! {
    /// What `inspect()` tells of one handle: its row and more.
    pub struct HandleDetail as "struct HandleDetail" {
        /// The deterministic id path.
        pub id: String = "id",
        /// The state.
        pub state: HandleState = "state",
        /// Tokens attributed to it (its own and its descendants').
        pub tokens: u64 = "tokens",
        /// Items waiting in its inbox.
        pub inbox: usize = "inbox",
        /// Model calls it made itself, over its life.
        pub turns: u32 = "turns",
        /// What is left of its token pool (`None`: unlimited).
        pub pool_tokens: Option<f64> = "poolTokens",
        /// Its unanswered request while suspended.
        pub pending: Option<Request> = "pending",
    }
}

crate::record! {
    /// The tool call a suspended chain halted on, at its deepest handle: what a page shows
    /// beside the request ("researcher → browser wants to run `fetch_page({url})`"). The
    /// request itself stays the tool's own, unchanged but for `data.path`.
    pub struct HaltedCall as "struct HaltedCall" {
        /// The id of the handle whose own tool asked.
        pub handle: String = "handle",
        /// The tool's name.
        pub tool: String = "tool",
        /// The arguments it was called with.
        pub args: Value = "args" as "Record<string, unknown>",
    }
}

crate::record! {
    /// A tool call a halted turn completed (or halted on): its replay from the checkpoint is
    /// answered with this result instead of running the tool again.
    pub struct RecordedCall as "struct RecordedCall" {
        /// The tool's name.
        pub tool: String = "tool",
        /// The arguments it ran with.
        pub args: Value = "args" as "Record<string, unknown>",
        /// What it returned (for the halted call, its suspension).
        pub result: ToolResult = "result",
    }
}
