//! `bash`, offered only when the host supplies an [`Exec`] (a process launcher).

use futures_util::future::{select, Either};
use std::rc::Rc;

use super::args;
use super::tool::{err_with, ok_with, Builtin};
use crate::core::host::{Clock, LocalBoxFuture};

const DEFAULT_TIMEOUT_MS: f64 = 60_000.0;
/// How long past its own timeout a host's command may take before the tool gives up on it.
const GRACE_MS: f64 = 1_000.0;

/// What a finished command gave back.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecOutput {
    /// Combined stdout and stderr.
    pub output: String,
    /// The exit code; `None` when the process was killed by a signal.
    pub exit_code: Option<i64>,
    /// Whether the host killed it for running past the timeout.
    pub timed_out: bool,
}

/// Runs one shell command (the host's `exec` function in JS).
///
/// ```
/// use toolnexus::core::builtins::{Exec, ExecOutput};
/// use toolnexus::core::host::LocalBoxFuture;
/// struct Echo;
/// impl Exec for Echo {
///     fn run(&self, command: &str, _workdir: Option<&str>, _timeout_ms: f64) -> LocalBoxFuture<'static, Result<ExecOutput, String>> {
///         let output = command.trim_start_matches("echo ").to_owned() + "\n";
///         Box::pin(async move { Ok(ExecOutput { output, exit_code: Some(0), timed_out: false }) })
///     }
/// }
/// let out = futures_executor::block_on(Echo.run("echo hi", None, 1000.0)).unwrap();
/// assert_eq!(out.output, "hi\n");
/// ```
pub trait Exec {
    /// Runs `command` through a shell in `workdir` (the host's default when `None`), killing
    /// it after `timeout_ms`. `Err` when it could not be started at all.
    fn run(
        &self,
        command: &str,
        workdir: Option<&str>,
        timeout_ms: f64,
    ) -> LocalBoxFuture<'static, Result<ExecOutput, String>>;
}

/// `bash {command, workdir?, timeout?, description?}`.
pub fn tool(exec: Rc<dyn Exec>, clock: Rc<dyn Clock>) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "command": {"type": "string", "description": "The shell command to run"},
            "workdir": {"type": "string", "description": "Working directory (default: process cwd)"},
            "timeout": {"type": "number", "description": "Timeout in milliseconds (default 60000)"},
            "description": {"type": "string", "description": "Human-readable description of the command"}
        },
        "required": ["command"],
        "additionalProperties": false
    }"#;
    let description = "Runs a shell command and returns what it printed (stdout and stderr \
                       together). A non-zero exit status is reported as an error.";
    Builtin::new("bash", description, schema, move |args, _ctx| {
        let (exec, clock) = (exec.clone(), clock.clone());
        Box::pin(async move {
            let command = args::required(&args, "command")?;
            let workdir = args::optional(&args, "workdir");
            let timeout = args::number(&args, "timeout").unwrap_or(DEFAULT_TIMEOUT_MS);
            let timed_out = || {
                format!(
                    "bash: command timed out after {}ms",
                    crate::core::jsfmt::number(timeout)
                )
            };
            let running = exec.run(&command, workdir.as_deref(), timeout);
            let guard = clock.sleep(timeout.max(0.0) + GRACE_MS);
            let done = match select(running, guard).await {
                Either::Left((done, _)) => done?,
                Either::Right(_) => return Ok(err_with(timed_out(), crate::json_value!({}))),
            };
            let out = done.output;
            if done.timed_out {
                return Ok(err_with(
                    format!("{}\n{out}", timed_out()),
                    crate::json_value!({}),
                ));
            }
            let code = done.exit_code;
            let metadata = crate::json_value!({"exitCode": code});
            match code {
                Some(0) => Ok(ok_with(out, metadata)),
                Some(code) => Ok(err_with(
                    format!("{out}\nbash: command exited with code {code}"),
                    metadata,
                )),
                None => Ok(err_with(
                    format!("{out}\nbash: command was killed"),
                    metadata,
                )),
            }
        })
    })
}
