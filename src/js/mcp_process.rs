//! The core's [`Process`] over Node's `child_process.spawn` (Deno's is in `mcp_deno`), for
//! local MCP servers. Output arrives as events into one line queue, so reading a line is safe
//! to abandon.

use js_sys::{Array, Function, Object, Uint8Array};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get};
use super::host::set;
use crate::core::host::LocalBoxFuture;
use crate::core::mcp::process::{Child, Process, SpawnSpec};

/// How much of stderr is kept for the exit reason.
const STDERR_TAIL: usize = 2000;

#[derive(Default)]
pub(super) struct Lines {
    partial: Vec<u8>,
    lines: VecDeque<String>,
    pub(super) ended: Option<String>,
    stderr: String,
    wakers: Vec<Waker>,
}

pub(super) type Shared = Rc<RefCell<Lines>>;

impl Lines {
    pub(super) fn push(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if byte == b'\n' {
                let mut line = std::mem::take(&mut self.partial);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.lines
                    .push_back(crate::core::text::from_utf8_lossy(&line));
            } else {
                self.partial.push(byte);
            }
        }
        self.wake();
    }

    pub(super) fn stderr(&mut self, bytes: &[u8]) {
        self.stderr
            .push_str(&crate::core::text::from_utf8_lossy(bytes));
        let extra = self.stderr.len().saturating_sub(STDERR_TAIL);
        if extra > 0 {
            let cut = (extra..self.stderr.len())
                .find(|i| self.stderr.is_char_boundary(*i))
                .unwrap_or(0);
            self.stderr.drain(..cut);
        }
    }

    pub(super) fn end(&mut self, reason: String) {
        if self.ended.is_none() {
            if !self.partial.is_empty() {
                let line = std::mem::take(&mut self.partial);
                self.lines
                    .push_back(crate::core::text::from_utf8_lossy(&line));
            }
            let tail = self.stderr.trim();
            let tail = tail.rsplit('\n').next().unwrap_or(tail).trim();
            self.ended = Some(if tail.is_empty() {
                reason
            } else {
                format!("{reason}: {tail}")
            });
        }
        self.wake();
    }

    fn wake(&mut self) {
        for waker in self.wakers.drain(..) {
            waker.wake();
        }
    }
}

pub(super) struct NextLine(pub(super) Shared);

impl Future for NextLine {
    type Output = Option<String>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<String>> {
        let mut lines = self.0.borrow_mut();
        if let Some(line) = lines.lines.pop_front() {
            return Poll::Ready(Some(line));
        }
        if lines.ended.is_some() {
            return Poll::Ready(None);
        }
        lines.wakers.push(cx.waker().clone());
        Poll::Pending
    }
}

pub(super) fn bytes_of(chunk: &JsValue) -> Vec<u8> {
    match chunk.as_string() {
        Some(text) => text.into_bytes(),
        None => Uint8Array::new(chunk).to_vec(),
    }
}

pub(super) fn call(object: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let f = get(object, method)
        .dyn_into::<Function>()
        .map_err(|_| format!("{method} is not a function"))?;
    super::convert::apply(&f, object, args).map_err(|e| error_text(&e))
}

/// Listens to `event` on `target` for as long as the target lives (the listener is owned by
/// JavaScript, so it can never run after Rust freed it).
fn on(target: &JsValue, event: &str, f: impl FnMut(JsValue, JsValue) + 'static) {
    let listener = Closure::<dyn FnMut(JsValue, JsValue)>::new(f).into_js_value();
    let _ = call(target, "on", &[event.into(), listener]);
}

pub(super) fn env_object(base: Option<&JsValue>, extra: &[(String, String)]) -> JsValue {
    let env = Object::new();
    if let Some(base) = base.filter(|b| b.is_object()) {
        let _ = Object::assign(&env, &Object::from(base.clone()));
    }
    let env: JsValue = env.into();
    for (name, value) in extra {
        set(&env, name, &value.as_str().into());
    }
    env
}

/// Node's `child_process`.
pub struct NodeProcess {
    module: JsValue,
    base_env: Option<JsValue>,
}

impl NodeProcess {
    /// Over the `node:child_process` module; children get `base_env` (else `process.env`)
    /// plus their own variables.
    pub fn new(module: JsValue, base_env: Option<JsValue>) -> Self {
        NodeProcess { module, base_env }
    }
}

struct NodeChild {
    child: JsValue,
    lines: Shared,
}

impl Process for NodeProcess {
    fn spawn(&self, spec: &SpawnSpec) -> Result<Box<dyn Child>, String> {
        let process_env = get(&get(&js_sys::global(), "process"), "env");
        let base = self.base_env.as_ref().unwrap_or(&process_env);
        let options: JsValue = Object::new().into();
        set(&options, "env", &env_object(Some(base), &spec.env));
        if let Some(cwd) = &spec.cwd {
            set(&options, "cwd", &cwd.as_str().into());
        }
        let stdio: Array = ["pipe", "pipe", "pipe"]
            .iter()
            .map(|s| JsValue::from_str(s))
            .collect();
        set(&options, "stdio", &stdio);
        let args: Array = spec.args.iter().map(|a| JsValue::from_str(a)).collect();
        let child = call(
            &self.module,
            "spawn",
            &[spec.command.as_str().into(), args.into(), options],
        )?;
        let lines: Shared = Rc::default();
        let (out, err, close, error) = (lines.clone(), lines.clone(), lines.clone(), lines.clone());
        on(&get(&child, "stdout"), "data", move |chunk, _| {
            out.borrow_mut().push(&bytes_of(&chunk))
        });
        on(&get(&child, "stderr"), "data", move |chunk, _| {
            err.borrow_mut().stderr(&bytes_of(&chunk))
        });
        on(&get(&child, "stdin"), "error", |_, _| {});
        on(&child, "error", move |e, _| {
            error.borrow_mut().end(error_text(&e))
        });
        on(&child, "close", move |code, signal| {
            let reason = match (code.as_f64(), signal.as_string()) {
                (Some(code), _) => format!("exited with code {}", crate::core::jsfmt::number(code)),
                (None, Some(signal)) => format!("was stopped by {signal}"),
                _ => "exited".to_owned(),
            };
            close.borrow_mut().end(reason);
        });
        Ok(Box::new(NodeChild { child, lines }))
    }
}

impl Child for NodeChild {
    fn write(&self, text: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        let stdin = get(&self.child, "stdin");
        let written = if get(&stdin, "writable").as_bool() == Some(true) {
            call(&stdin, "write", &[text.into()]).map(drop)
        } else {
            Err("the server process does not accept input".into())
        };
        Box::pin(async move { written })
    }

    fn next_line(&self) -> LocalBoxFuture<'static, Option<String>> {
        Box::pin(NextLine(self.lines.clone()))
    }

    fn exit_reason(&self) -> Option<String> {
        self.lines.borrow().ended.clone()
    }

    fn kill(&self) {
        if get(&self.child, "exitCode").is_null() && get(&self.child, "signalCode").is_null() {
            let _ = call(&self.child, "kill", &[]);
        }
    }
}

impl Drop for NodeChild {
    fn drop(&mut self) {
        self.kill();
    }
}
