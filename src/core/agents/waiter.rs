//! A waiter on a handle's next result: a slot the runtime fills when the turn settles.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use super::data::TaskResult;

/// One registered waiter.
#[derive(Default)]
pub struct Slot {
    result: RefCell<Option<TaskResult>>,
    waker: RefCell<Option<Waker>>,
}

impl Slot {
    /// An empty slot.
    pub fn new() -> Rc<Slot> {
        Rc::new(Slot::default())
    }

    /// Fills the slot (the first result wins) and wakes its waiter.
    pub fn fill(&self, result: TaskResult) {
        let mut held = self.result.borrow_mut();
        if held.is_none() {
            *held = Some(result);
            if let Some(waker) = self.waker.borrow_mut().take() {
                waker.wake();
            }
        }
    }
}

/// Completes with the slot's result.
///
/// ```
/// # use toolnexus::core::agents::{waiter::{Slot, Waiting}, data::{TaskResult, TaskStatus}};
/// let slot = Slot::new();
/// slot.fill(TaskResult::settled("closed", TaskStatus::Closed, 0, 0));
/// let r = futures_executor::block_on(Waiting(slot));
/// assert_eq!(r.status, TaskStatus::Closed);
/// ```
pub struct Waiting(pub Rc<Slot>);

impl Future for Waiting {
    type Output = TaskResult;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<TaskResult> {
        if let Some(result) = self.0.result.borrow_mut().take() {
            return Poll::Ready(result);
        }
        *self.0.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}
