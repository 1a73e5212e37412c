//! The fake server's response bodies: bytes in chunks, a pause until the client answers a
//! server request, or a stream that never ends.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::task::{Poll, Waker};
use toolnexus::core::json::value::Value;

use toolnexus::core::host::{ByteStream, HttpError, LocalBoxFuture};

/// The client's answers to server requests, by request id.
#[derive(Default)]
pub struct Replies {
    pub got: RefCell<HashMap<String, Value>>,
    pub wakers: RefCell<Vec<Waker>>,
}

pub type Then = Box<dyn FnOnce(&Value) -> Vec<u8>>;

pub enum Part {
    Bytes(Vec<u8>),
    /// Waits for the client's answer to server request `id`, then sends `then(answer)`.
    Await(String, Then),
    /// Waits for this (a virtual-clock sleep), then goes on.
    Sleep(LocalBoxFuture<'static, ()>),
    Hang,
}

pub struct Script {
    pub parts: VecDeque<Part>,
    pub replies: Rc<Replies>,
}

impl ByteStream for Script {
    fn next_chunk(&mut self) -> LocalBoxFuture<'_, Option<Result<Vec<u8>, HttpError>>> {
        Box::pin(std::future::poll_fn(move |cx| loop {
            if let Some(Part::Sleep(sleep)) = self.parts.front_mut() {
                match sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        self.parts.pop_front();
                        continue;
                    }
                    Poll::Pending => return Poll::Pending,
                }
            }
            return match self.parts.front() {
                None => Poll::Ready(None),
                Some(Part::Sleep(_)) => unreachable!(),
                Some(Part::Hang) => Poll::Pending,
                Some(Part::Bytes(_)) => match self.parts.pop_front() {
                    Some(Part::Bytes(b)) => Poll::Ready(Some(Ok(b))),
                    _ => unreachable!(),
                },
                Some(Part::Await(id, _)) => {
                    let answer = self.replies.got.borrow().get(id).cloned();
                    match answer {
                        Some(answer) => match self.parts.pop_front() {
                            Some(Part::Await(_, then)) => {
                                Poll::Ready(Some(Ok(then(&answer["result"]))))
                            }
                            _ => unreachable!(),
                        },
                        None => {
                            self.replies.wakers.borrow_mut().push(cx.waker().clone());
                            Poll::Pending
                        }
                    }
                }
            };
        }))
    }
}
