//! `close`: stop accepting, close the children leaf-first, let a running turn finish within
//! `shutdownMs` (then abort it), run `onClose`, answer the waiters, keep the final state
//! readable. Stop-all is `close(root)`.

use super::data::{CloseReason, HandleState, TaskResult, TaskStatus};
use super::runtime::{AgentRuntime, Handle, WaitOptions};
use super::waiter::{Slot, Waiting};
use crate::core::host::LocalBoxFuture;

/// How `close` closes.
#[derive(Debug, Clone, Copy, Default)]
pub struct CloseOptions {
    /// Abort a running turn at once instead of letting it finish within `shutdownMs`.
    pub force: bool,
    /// The reason `onClose` is told (default: `interrupted` when forced, else `closed`).
    pub reason: Option<CloseReason>,
}

impl AgentRuntime {
    /// Closes `h` and its subtree (children first, leaf-first). Closing a closed handle does
    /// nothing.
    pub fn close(&self, h: Handle, options: CloseOptions) -> LocalBoxFuture<'static, ()> {
        let h = self.own(h);
        let rt = self.clone();
        Box::pin(async move { rt.close_now(h, options).await })
    }

    async fn close_now(self, h: Handle, options: CloseOptions) {
        // One close at a time: a later call waits for the one under way.
        let waiting = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            if node.state == HandleState::Closed {
                return;
            }
            if node.closing {
                let slot = Slot::new();
                node.close_waiters.push(slot.clone());
                Some(slot)
            } else {
                node.closing = true;
                None
            }
        };
        if let Some(slot) = waiting {
            Waiting(slot).await;
            return;
        }
        self.unqueue(h);
        for child in self.children(h) {
            self.close(child, options).await;
        }
        if self.state(h) == HandleState::Running {
            let settled = self.wait(h, WaitOptions::default());
            if options.force {
                self.abort_turn(h);
            } else {
                let bounded = self.wait(
                    h,
                    WaitOptions {
                        timeout_ms: Some(self.0.shutdown_ms),
                        by: None,
                    },
                );
                let r = bounded.await;
                if r.status == TaskStatus::Timeout && self.state(h) == HandleState::Running {
                    self.abort_turn(h);
                }
            }
            settled.await;
        }
        let reason = options.reason.unwrap_or(if options.force {
            CloseReason::Interrupted
        } else {
            CloseReason::Closed
        });
        let (view, on_close) = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            if node.state == HandleState::Suspended {
                node.pending = None;
                node.checkpoint = None;
                node.halted_call = None;
            }
            (node.view(), node.agent.def.on_close.clone())
        };
        if let Some(on_close) = on_close {
            on_close(&view, reason).await;
        }
        let (line, waiters, result) = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            let prev = node.state;
            node.state = HandleState::Closed;
            let result = TaskResult::settled(
                "closed",
                TaskStatus::Closed,
                node.turns_total,
                node.usage_total,
            );
            if prev == HandleState::Suspended {
                // The request died with it: what a later wait or reattach reads is the close.
                node.last_result = Some(result.clone());
            }
            let line = format!(
                "{}: {}→closed ({})",
                node.id,
                prev.as_str(),
                reason.as_str()
            );
            node.closing = false;
            let mut waiters = std::mem::take(&mut node.waiters);
            waiters.append(&mut node.close_waiters);
            (line, waiters, result)
        };
        for slot in waiters {
            slot.fill(result.clone());
        }
        self.t(line);
    }

    /// The handle's state.
    pub fn state(&self, h: Handle) -> HandleState {
        let h = self.own(h);
        self.0.tree.borrow()[h.0].state
    }

    fn abort_turn(&self, h: Handle) {
        let abort = self.0.tree.borrow()[h.0].abort.clone();
        if let Some(abort) = abort {
            abort.abort("closed");
        }
    }

    /// Drops the handle's queued wake, if any.
    fn unqueue(&self, h: Handle) {
        let mut tree = self.0.tree.borrow_mut();
        if let Some(p) = tree[h.0].parent {
            tree[p].wake_queue.retain(|q| q.child != h.0);
        }
    }
}
