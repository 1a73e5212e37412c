//! Admission and settling (SPEC §7D): a wake takes its parent's concurrency slot, flips to
//! running and drains the inbox in one step; a finished turn frees its slot and hands it to
//! the first queued sibling wake; a limit on the live chain (tokens, tool calls, wall clock,
//! the handle's own turns) refuses loudly with an `incomplete` result naming it.

use super::data::{HandleState, TaskResult, TaskStatus};
use super::inbox;
use super::node::{Node, Tree};
use super::runtime::{AgentRuntime, Handle};
use super::signal::TurnAbort;

impl AgentRuntime {
    /// Takes the parent's slot, flips to running, drains the inbox; returns the turn's input.
    pub(super) fn admit(&self, h: Handle, prompt: Option<&str>) -> String {
        let line = format!("{}: idle→running (wake)", self.id(h));
        self.admit_traced(h, prompt, line)
    }

    /// [`admit`](Self::admit) with the transition line to trace (a resume's own).
    pub(super) fn admit_traced(&self, h: Handle, prompt: Option<&str>, line: String) -> String {
        let mut tree = self.0.tree.borrow_mut();
        if let Some(p) = tree[h.0].parent {
            tree[p].running_children += 1;
        }
        let node = &mut tree[h.0];
        node.state = HandleState::Running;
        node.abort = Some(TurnAbort::new());
        let items = std::mem::take(&mut node.inbox);
        let input = format!(
            "{}{}",
            prompt.unwrap_or(""),
            inbox::render(&node.id, &items)
        );
        node.drained = items;
        drop(tree);
        self.t(line);
        input
    }

    pub(super) fn start_turn(&self, h: Handle, input: String) {
        let rt = self.clone();
        self.0
            .spawner
            .spawn(Box::pin(async move { rt.execute_turn(h, input).await }));
    }

    /// A limit stop is loud: the waiters get an `incomplete` result naming it.
    pub(super) fn settle_refused(&self, h: Handle, limit: &str) -> String {
        let text = format!("budget exhausted ({limit}); partial work preserved");
        let (turns, tokens) = self.counts(h);
        let mut result = TaskResult::settled(text.clone(), TaskStatus::Incomplete, turns, tokens);
        result.limit = Some(limit.to_owned());
        self.settle(h, result);
        text
    }

    /// Records `result` as the handle's last and hands it to every waiter.
    pub(super) fn settle(&self, h: Handle, result: TaskResult) {
        let waiters = {
            let mut tree = self.0.tree.borrow_mut();
            let node = &mut tree[h.0];
            node.last_result = Some(result.clone());
            std::mem::take(&mut node.waiters)
        };
        for slot in waiters {
            slot.fill(result.clone());
        }
    }

    pub(super) fn counts(&self, h: Handle) -> (u32, u64) {
        let tree = self.0.tree.borrow();
        (tree[h.0].turns_total, tree[h.0].usage_total)
    }

    /// Frees the finished turn's slot at its parent and hands it to queued sibling wakes, in
    /// order, checking each one's budget at that moment.
    pub(super) fn release_child_slot(&self, h: Handle) {
        let Some(p) = self.0.tree.borrow()[h.0].parent else {
            return;
        };
        self.0.tree.borrow_mut()[p].running_children -= 1;
        loop {
            let next = {
                let mut tree = self.0.tree.borrow_mut();
                let parent = &tree[p];
                if f64::from(parent.running_children) >= parent.caps.max_concurrent {
                    break;
                }
                match tree[p].wake_queue.pop_front() {
                    Some(next) => next,
                    None => break,
                }
            };
            let child = self.handle(next.child);
            let now = self.0.clock.now_ms();
            let limit = {
                let tree = self.0.tree.borrow();
                if tree[child.0].state != HandleState::Idle || tree[child.0].closing {
                    continue;
                }
                pool_limit(&tree, child.0, now).or_else(|| turn_cap(&tree[child.0]))
            };
            if let Some(limit) = limit {
                self.settle_refused(child, limit);
                continue;
            }
            self.t(format!(
                "{}: DEQUEUED wake (slot transferred)",
                self.id(child)
            ));
            let input = self.admit(child, next.prompt.as_deref());
            self.start_turn(child, input);
        }
    }
}

/// The first exhausted limit on the live chain from `i` up to the root.
pub(super) fn pool_limit(tree: &Tree, i: usize, now: f64) -> Option<&'static str> {
    let mut at = Some(i);
    while let Some(a) = at {
        let node = &tree[a];
        if let Some(limit) = node.pools.exhausted() {
            return Some(limit);
        }
        if node.deadline.is_some_and(|d| now >= d) {
            return Some("maxWallMs");
        }
        at = node.parent;
    }
    None
}

/// The handle's own lifetime turn cap, when reached.
pub(super) fn turn_cap(node: &Node) -> Option<&'static str> {
    (f64::from(node.turns_total) >= node.caps.max_turns).then_some("maxTurns")
}
