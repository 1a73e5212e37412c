//! The global turn gate (SPEC §7D gate 3): at most `maxConcurrentTurns` model calls in flight
//! across the whole tree. It wraps only the HTTP call, never a run (holding it across a run
//! would deadlock a parent against its child), and a slot is released when its holder is
//! dropped: a run that dies (aborted, interrupted) cannot starve the tree. A freed slot goes to
//! the longest waiter.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::core::host::{
    ByteStream, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture, StreamResponse,
};

/// A FIFO counting gate.
///
/// ```
/// # use toolnexus::core::agents::gate::TurnGate;
/// let gate = TurnGate::new(1);
/// let held = futures_executor::block_on(gate.acquire());
/// assert_eq!(gate.in_flight(), 1);
/// drop(held);
/// assert_eq!(gate.in_flight(), 0);
/// assert_eq!(gate.max_observed(), 1);
/// ```
pub struct TurnGate {
    free: Cell<usize>,
    queue: RefCell<VecDeque<Rc<Ticket>>>,
    in_flight: Cell<usize>,
    max_observed: Cell<usize>,
}

#[derive(Default)]
struct Ticket {
    granted: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

/// A held slot; dropping it frees the slot (to the next waiter first).
pub struct Permit(Rc<TurnGate>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.in_flight.set(self.0.in_flight.get() - 1);
        self.0.release();
    }
}

/// Waits for a slot; dropped while waiting, it leaves the queue (and passes on a slot it was
/// granted but never took).
pub struct Acquire {
    gate: Rc<TurnGate>,
    ticket: Option<Rc<Ticket>>,
}

impl TurnGate {
    /// A gate of `slots` (0 is taken as 1; the runtime refuses 0 before).
    pub fn new(slots: usize) -> Rc<TurnGate> {
        Rc::new(TurnGate {
            free: Cell::new(slots.max(1)),
            queue: RefCell::new(VecDeque::new()),
            in_flight: Cell::new(0),
            max_observed: Cell::new(0),
        })
    }

    /// Takes a slot, waiting in line when none is free.
    pub fn acquire(self: &Rc<Self>) -> Acquire {
        Acquire {
            gate: self.clone(),
            ticket: None,
        }
    }

    /// Model calls in flight now.
    pub fn in_flight(&self) -> usize {
        self.in_flight.get()
    }

    /// The most model calls ever in flight at once.
    pub fn max_observed(&self) -> usize {
        self.max_observed.get()
    }

    fn release(&self) {
        let next = self.queue.borrow_mut().pop_front();
        match next {
            // The slot transfers: the waiter holds it from now.
            Some(ticket) => {
                ticket.granted.set(true);
                if let Some(waker) = ticket.waker.borrow_mut().take() {
                    waker.wake();
                }
            }
            None => self.free.set(self.free.get() + 1),
        }
    }

    fn permit(self: &Rc<Self>) -> Permit {
        let n = self.in_flight.get() + 1;
        self.in_flight.set(n);
        self.max_observed.set(self.max_observed.get().max(n));
        Permit(self.clone())
    }
}

impl Future for Acquire {
    type Output = Permit;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit> {
        let gate = self.gate.clone();
        match self.ticket.clone() {
            None => {
                if gate.free.get() > 0 && gate.queue.borrow().is_empty() {
                    gate.free.set(gate.free.get() - 1);
                    return Poll::Ready(gate.permit());
                }
                let ticket = Rc::new(Ticket::default());
                *ticket.waker.borrow_mut() = Some(cx.waker().clone());
                gate.queue.borrow_mut().push_back(ticket.clone());
                self.ticket = Some(ticket);
                Poll::Pending
            }
            Some(ticket) if ticket.granted.get() => {
                self.ticket = None;
                Poll::Ready(gate.permit())
            }
            Some(ticket) => {
                *ticket.waker.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

impl Drop for Acquire {
    fn drop(&mut self) {
        let Some(ticket) = self.ticket.take() else {
            return;
        };
        if ticket.granted.get() {
            self.gate.release();
        } else {
            self.gate
                .queue
                .borrow_mut()
                .retain(|t| !Rc::ptr_eq(t, &ticket));
        }
    }
}

/// The runtime's transport: every model call passes the gate.
pub struct GatedHttp {
    /// The real transport.
    pub inner: Rc<dyn Http>,
    /// The gate.
    pub gate: Rc<TurnGate>,
}

impl Http for GatedHttp {
    fn send(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let (inner, gate, request) = (self.inner.clone(), self.gate.clone(), request.clone());
        Box::pin(async move {
            let _permit = gate.acquire().await;
            inner.send(&request).await
        })
    }

    fn open(
        &self,
        request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<StreamResponse, HttpError>> {
        let (inner, gate, request) = (self.inner.clone(), self.gate.clone(), request.clone());
        Box::pin(async move {
            let permit = gate.acquire().await;
            let mut response = inner.open(&request).await?;
            // The slot is held until the body is read (or dropped).
            response.body = Box::new(HeldBody {
                body: response.body,
                _permit: permit,
            });
            Ok(response)
        })
    }
}

struct HeldBody {
    body: Box<dyn ByteStream>,
    _permit: Permit,
}

impl ByteStream for HeldBody {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>> {
        self.body.next_chunk()
    }
    fn take_whole(&mut self) -> Option<String> {
        self.body.take_whole()
    }
}
