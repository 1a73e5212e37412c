//! A virtual clock: sleeps finish only when the driver moves time forward, which it does
//! (to the next deadline) whenever every task is stuck. Timeouts are then exact and instant.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};

use futures_executor::LocalPool;
use futures_util::task::LocalSpawnExt;
use toolnexus::core::host::{Clock, LocalBoxFuture};

struct Timer {
    deadline: f64,
    fired: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

#[derive(Default)]
pub struct VirtualClock {
    now: Cell<f64>,
    timers: RefCell<Vec<Weak<Timer>>>,
}

struct Sleep(Rc<Timer>);

impl Future for Sleep {
    type Output = ();
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.0.fired.get() {
            return Poll::Ready(());
        }
        *self.0.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

impl VirtualClock {
    pub fn new() -> Rc<Self> {
        Rc::new(VirtualClock::default())
    }

    pub fn now(&self) -> f64 {
        self.now.get()
    }

    /// Moves to the next live deadline and fires it; false when no timer is waiting.
    fn advance(&self) -> bool {
        let live: Vec<Rc<Timer>> = self
            .timers
            .borrow()
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|t| !t.fired.get())
            .collect();
        let Some(next) = live.iter().map(|t| t.deadline).reduce(f64::min) else {
            return false;
        };
        self.now.set(next.max(self.now.get()));
        for timer in live.iter().filter(|t| t.deadline <= next) {
            timer.fired.set(true);
            if let Some(waker) = timer.waker.borrow_mut().take() {
                waker.wake();
            }
        }
        self.timers.borrow_mut().retain(|t| t.strong_count() > 0);
        true
    }
}

impl Clock for VirtualClock {
    fn now_ms(&self) -> f64 {
        self.now.get()
    }
    fn sleep(&self, ms: f64) -> LocalBoxFuture<'static, ()> {
        let timer = Rc::new(Timer {
            deadline: self.now.get() + ms.max(0.0),
            fired: Cell::new(false),
            waker: RefCell::new(None),
        });
        self.timers.borrow_mut().push(Rc::downgrade(&timer));
        Box::pin(Sleep(timer))
    }
}

/// The `Spawn` of [`run_spawning`]: tasks join the same pool.
pub struct PoolSpawn(futures_executor::LocalSpawner);

impl toolnexus::core::host::Spawn for PoolSpawn {
    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        self.0.spawn_local(task).unwrap();
    }
}

/// [`run`], with a `Spawn` whose tasks run in the same pool (until `future` is done).
pub fn run_spawning<T: 'static, F: Future<Output = T> + 'static>(
    clock: &Rc<VirtualClock>,
    make: impl FnOnce(Rc<dyn toolnexus::core::host::Spawn>) -> F,
) -> T {
    let mut pool = LocalPool::new();
    let spawn: Rc<dyn toolnexus::core::host::Spawn> = Rc::new(PoolSpawn(pool.spawner()));
    let future = make(spawn);
    let out: Rc<RefCell<Option<T>>> = Rc::new(RefCell::new(None));
    let slot = out.clone();
    pool.spawner()
        .spawn_local(async move {
            *slot.borrow_mut() = Some(future.await);
        })
        .unwrap();
    loop {
        pool.run_until_stalled();
        if let Some(value) = out.borrow_mut().take() {
            return value;
        }
        assert!(
            clock.advance(),
            "deadlock: every task waits and no timer is set"
        );
    }
}

/// Runs `future` to completion, moving virtual time forward whenever everything waits.
pub fn run<T: 'static>(clock: &Rc<VirtualClock>, future: impl Future<Output = T> + 'static) -> T {
    run_spawning(clock, |_| future)
}
