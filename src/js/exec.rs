//! The core's [`Exec`] over JavaScript: the host's `exec(command, {workdir, timeout})`
//! function, or Node's `child_process` when the host opts in with `exec: "node"`.

use js_sys::{Function, Object};
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get};
use super::host::set;
use super::promise::{call2, settle};
use crate::core::builtins::{Exec, ExecOutput};
use crate::core::host::LocalBoxFuture;

/// `exec(command, {workdir, timeout}) → {output, exitCode, timedOut?}` (or a Promise of it).
pub struct JsExec {
    run: Function,
}

impl JsExec {
    /// Over a host function.
    pub fn new(run: Function) -> Self {
        JsExec { run }
    }
}

fn decode(value: &JsValue) -> Result<ExecOutput, String> {
    if !value.is_object() {
        return Err("exec must resolve to {output, exitCode}".into());
    }
    let output = get(value, "output").as_string().unwrap_or_default();
    let code = get(value, "exitCode");
    let exit_code = code.as_f64().map(|c| c as i64);
    if exit_code.is_none() && !(code.is_null() || code.is_undefined()) {
        return Err("exec: exitCode must be a number or null".into());
    }
    Ok(ExecOutput {
        output,
        exit_code,
        timed_out: get(value, "timedOut").is_truthy(),
    })
}

impl Exec for JsExec {
    fn run(
        &self,
        command: &str,
        workdir: Option<&str>,
        timeout_ms: f64,
    ) -> LocalBoxFuture<'static, Result<ExecOutput, String>> {
        let run = self.run.clone();
        let command = JsValue::from_str(command);
        let options: JsValue = Object::new().into();
        if let Some(dir) = workdir {
            set(&options, "workdir", &dir.into());
        }
        set(&options, "timeout", &timeout_ms.into());
        Box::pin(async move {
            let value = call2(&run, &JsValue::UNDEFINED, &command, &options)
                .await
                .map_err(|e| error_text(&e))?;
            decode(&value)
        })
    }
}

/// Node's `child_process.exec` through `/bin/sh`, stdout and stderr merged in order
/// (`{ command\n} 2>&1`), killed with `SIGKILL` at the timeout.
pub struct NodeExec {
    child_process: JsValue,
}

impl NodeExec {
    /// Over the `node:child_process` module.
    pub fn new(child_process: JsValue) -> Self {
        NodeExec { child_process }
    }
}

impl Exec for NodeExec {
    fn run(
        &self,
        command: &str,
        workdir: Option<&str>,
        timeout_ms: f64,
    ) -> LocalBoxFuture<'static, Result<ExecOutput, String>> {
        let module = self.child_process.clone();
        let script = JsValue::from_str(&format!("{{ {command}\n}} 2>&1"));
        let options: JsValue = Object::new().into();
        if let Some(dir) = workdir {
            set(&options, "cwd", &dir.into());
        }
        set(&options, "timeout", &timeout_ms.max(1.0).into());
        set(&options, "killSignal", &"SIGKILL".into());
        set(
            &options,
            "maxBuffer",
            &JsValue::from_f64(64.0 * 1024.0 * 1024.0),
        );
        Box::pin(async move {
            let exec = get(&module, "exec")
                .dyn_into::<Function>()
                .map_err(|_| "child_process.exec is missing".to_owned())?;
            let mut call_error = None;
            let promise = super::promise::made(|resolve, _reject| {
                let done = Closure::once_into_js(move |err: JsValue, stdout: JsValue| {
                    let pair: js_sys::Array = [err, stdout].iter().collect();
                    let _ = resolve.call1(&JsValue::UNDEFINED, &pair);
                });
                let args = [script.clone(), options.clone(), done];
                if let Err(e) = super::convert::apply(&exec, &module, &args) {
                    call_error = Some(error_text(&e));
                }
            });
            if let Some(e) = call_error {
                return Err(e);
            }
            let pair = settle(promise.into()).await.map_err(|e| error_text(&e))?;
            let pair = js_sys::Array::from(&pair);
            let (err, stdout) = (pair.get(0), pair.get(1));
            let output = stdout.as_string().unwrap_or_default();
            if err.is_null() || err.is_undefined() {
                return Ok(ExecOutput {
                    output,
                    exit_code: Some(0),
                    timed_out: false,
                });
            }
            let killed = get(&err, "killed").is_truthy();
            match get(&err, "code").as_f64() {
                Some(code) => Ok(ExecOutput {
                    output,
                    exit_code: Some(code as i64),
                    timed_out: false,
                }),
                None if killed => Ok(ExecOutput {
                    output,
                    exit_code: None,
                    timed_out: true,
                }),
                None => Err(error_text(&err)),
            }
        })
    }
}
