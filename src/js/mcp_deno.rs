//! The core's [`Process`] over Deno's `Deno.Command`: stdout and stderr are pumped in the
//! background into the same line queue the Node launcher uses.

use js_sys::{Array, Function, Object, Uint8Array};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get};
use super::host::set;
use super::mcp_process::{bytes_of, call, env_object, NextLine, Shared};
use super::promise::settle;
use crate::core::host::LocalBoxFuture;
use crate::core::mcp::process::{Child, Process, SpawnSpec};

/// Deno's `Deno.Command`.
pub struct DenoProcess {
    deno: JsValue,
    base_env: Option<JsValue>,
}

impl DenoProcess {
    /// Over the `Deno` namespace; with `base_env`, children get only it plus their own
    /// variables (else Deno's environment plus theirs).
    pub fn new(deno: JsValue, base_env: Option<JsValue>) -> Self {
        DenoProcess { deno, base_env }
    }
}

struct DenoChild {
    child: JsValue,
    writer: JsValue,
    lines: Shared,
}

/// Reads `stream` to its end in the background, handing each chunk to `sink`.
fn pump(stream: JsValue, sink: impl Fn(&[u8]) + 'static, done: impl FnOnce() + 'static) {
    wasm_bindgen_futures::spawn_local(async move {
        if let Ok(reader) = call(&stream, "getReader", &[]) {
            while let Ok(promise) = call(&reader, "read", &[]) {
                match settle(promise).await {
                    Ok(step) if get(&step, "done").as_bool() != Some(true) => {
                        sink(&bytes_of(&get(&step, "value")))
                    }
                    _ => break,
                }
            }
        }
        done();
    });
}

impl Process for DenoProcess {
    fn spawn(&self, spec: &SpawnSpec) -> Result<Box<dyn Child>, String> {
        let options: JsValue = Object::new().into();
        let args: Array = spec.args.iter().map(|a| JsValue::from_str(a)).collect();
        set(&options, "args", &args);
        set(
            &options,
            "env",
            &env_object(self.base_env.as_ref(), &spec.env),
        );
        if self.base_env.is_some() {
            set(&options, "clearEnv", &true.into());
        }
        if let Some(cwd) = &spec.cwd {
            set(&options, "cwd", &cwd.as_str().into());
        }
        for stream in ["stdin", "stdout", "stderr"] {
            set(&options, stream, &"piped".into());
        }
        let constructor = get(&self.deno, "Command")
            .dyn_into::<Function>()
            .map_err(|_| "Deno.Command is not available".to_owned())?;
        let command =
            super::convert::construct(&constructor, &[JsValue::from_str(&spec.command), options])
                .map_err(|e| error_text(&e))?;
        let child = call(&command, "spawn", &[])?;
        let writer = call(&get(&child, "stdin"), "getWriter", &[])?;
        let lines: Shared = Rc::default();
        let (out, err) = (lines.clone(), lines.clone());
        pump(
            get(&child, "stderr"),
            move |b| err.borrow_mut().stderr(b),
            || {},
        );
        let (status, ended) = (get(&child, "status"), lines.clone());
        pump(
            get(&child, "stdout"),
            move |b| out.borrow_mut().push(b),
            move || {
                wasm_bindgen_futures::spawn_local(async move {
                    let reason = match settle(status).await {
                        Ok(s) => match (get(&s, "code").as_f64(), get(&s, "signal").as_string()) {
                            (_, Some(signal)) => format!("was stopped by {signal}"),
                            (Some(code), _) => {
                                format!("exited with code {}", crate::core::jsfmt::number(code))
                            }
                            _ => "exited".to_owned(),
                        },
                        Err(e) => error_text(&e),
                    };
                    ended.borrow_mut().end(reason);
                });
            },
        );
        Ok(Box::new(DenoChild {
            child,
            writer,
            lines,
        }))
    }
}

impl Child for DenoChild {
    fn write(&self, text: &str) -> LocalBoxFuture<'static, Result<(), String>> {
        let bytes = Uint8Array::from(text.as_bytes());
        let written = call(&self.writer, "write", &[bytes.into()]);
        Box::pin(async move { settle(written?).await.map(drop).map_err(|e| error_text(&e)) })
    }

    fn next_line(&self) -> LocalBoxFuture<'static, Option<String>> {
        Box::pin(NextLine(self.lines.clone()))
    }

    fn exit_reason(&self) -> Option<String> {
        self.lines.borrow().ended.clone()
    }

    fn kill(&self) {
        if self.lines.borrow().ended.is_none() {
            let _ = call(&self.child, "kill", &[]);
        }
    }
}

impl Drop for DenoChild {
    fn drop(&mut self) {
        self.kill();
    }
}
