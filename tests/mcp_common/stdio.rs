//! A scripted child process that acts as an MCP server over stdio. Tool `hold` is answered
//! only after tool `release` (so responses arrive out of order), `ask` elicits first, `crash`
//! ends the process, and a garbage line precedes every answer.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use std::task::{Poll, Waker};
use toolnexus::{core::json::value::Value, json};

use toolnexus::core::host::LocalBoxFuture;
use toolnexus::core::mcp::process::{Child, Process, SpawnSpec};

#[derive(Default)]
pub struct ChildState {
    out: RefCell<VecDeque<String>>,
    wakers: RefCell<Vec<Waker>>,
    ended: RefCell<Option<String>>,
    held: RefCell<Option<String>>,
    pending_ask: RefCell<Option<Value>>,
    pub written: RefCell<Vec<Value>>,
    pub killed: Cell<bool>,
}

impl ChildState {
    /// Sends `message` on the child's stdout (after a garbage line, as every message).
    pub fn emit(&self, message: Value) {
        self.out.borrow_mut().push_back("garbage, not json".into());
        self.out.borrow_mut().push_back(message.to_string());
        self.wake();
    }
    fn wake(&self) {
        for w in self.wakers.borrow_mut().drain(..) {
            w.wake();
        }
    }
    fn end(&self, why: &str) {
        *self.ended.borrow_mut() = Some(why.into());
        self.wake();
    }

    fn receive(&self, message: Value) {
        self.written.borrow_mut().push(message.clone());
        let id = message["id"].clone();
        let result = |r: Value| json!({"jsonrpc": "2.0", "id": id.clone(), "result": r});
        let text = |t: String| json!({"content": [{"type": "text", "text": t}]});
        match message["method"].as_str() {
            Some("initialize") => self.emit(result(json!({
                "protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "child"}
            }))),
            Some("tools/list") => self.emit(result(json!({"tools": [
                {"name": "hold", "inputSchema": {"type": "object"}},
                {"name": "release", "inputSchema": {"type": "object"}},
                {"name": "ask", "inputSchema": {"type": "object"}},
                {"name": "crash", "inputSchema": {"type": "object"}}
            ]}))),
            Some("tools/call") => match message["params"]["name"].as_str() {
                Some("hold") => *self.held.borrow_mut() = Some(result(text("held".into())).to_string()),
                Some("release") => {
                    self.emit(result(text("released".into())));
                    if let Some(line) = self.held.borrow_mut().take() {
                        self.out.borrow_mut().push_back(line);
                        self.wake();
                    }
                }
                Some("ask") => {
                    *self.pending_ask.borrow_mut() = Some(id.clone());
                    self.emit(json!({"jsonrpc": "2.0", "id": 99, "method": "elicitation/create",
                        "params": {"message": "Name?", "requestedSchema": {"type": "object"}}}));
                }
                Some("crash") => self.end("exited with code 1: boom"),
                _ => self.emit(result(text("?".into()))),
            },
            None if message["id"] == json!(99) => {
                let ask = self.pending_ask.borrow_mut().take().unwrap();
                let action = message["result"]["action"].as_str().unwrap_or("?").to_owned();
                self.emit(json!({"jsonrpc": "2.0", "id": ask, "result": text(format!("answered {action}"))}));
            }
            _ => {}
        }
    }
}

pub struct FakeChild(pub Rc<ChildState>);

impl Child for FakeChild {
    fn write(&self, text: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        assert!(text.ends_with('\n'), "one message per line");
        let message: Value = serde_json::from_str(text.trim_end()).unwrap();
        self.0.receive(message);
        Box::pin(async { Ok(()) })
    }

    fn next_line(&self) -> LocalBoxFuture<'static, Option<String>> {
        let state = self.0.clone();
        Box::pin(std::future::poll_fn(move |cx| {
            if let Some(line) = state.out.borrow_mut().pop_front() {
                return Poll::Ready(Some(line));
            }
            if state.ended.borrow().is_some() {
                return Poll::Ready(None);
            }
            state.wakers.borrow_mut().push(cx.waker().clone());
            Poll::Pending
        }))
    }

    fn exit_reason(&self) -> Option<String> {
        self.0.ended.borrow().clone()
    }

    fn kill(&self) {
        self.0.killed.set(true);
        self.0.end("killed");
    }
}

/// Spawns [`FakeChild`]ren, remembering each spec and state.
#[derive(Default)]
pub struct FakeProcess {
    pub spawned: RefCell<Vec<(SpawnSpec, Rc<ChildState>)>>,
}

impl Process for FakeProcess {
    fn spawn(&self, spec: &SpawnSpec) -> Result<Box<dyn Child>, String> {
        if spec.command == "missing" {
            return Err("spawn missing ENOENT".into());
        }
        let state = Rc::new(ChildState::default());
        self.spawned
            .borrow_mut()
            .push((spec.clone(), state.clone()));
        Ok(Box::new(FakeChild(state)))
    }
}
