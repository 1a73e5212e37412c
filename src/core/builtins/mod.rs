//! The built-in tools (SPEC §4A, source `"builtin"`): `question`, `todowrite` and `webfetch`
//! everywhere; `read`, `write`, `edit`, `grep`, `glob` and `apply_patch` over a pluggable
//! [`Fs`](crate::core::fs::Fs); `bash` only when the host supplies an [`Exec`]. Names and input
//! schemas are identical to every toolnexus port. Every failure is an error `ToolResult`.
//!
//! ```
//! use std::rc::Rc;
//! use toolnexus::core::builtins::{create, BuiltinHost};
//! # use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
//! # struct NoNet; impl Http for NoNet { fn send(&self, _: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> { Box::pin(async { Err(HttpError::Network("offline".into())) }) } }
//! # struct Frozen; impl Clock for Frozen { fn now_ms(&self) -> f64 { 0.0 } fn sleep(&self, _: f64) -> LocalBoxFuture<'static, ()> { Box::pin(std::future::pending()) } }
//! let host = BuiltinHost::new(Rc::new(toolnexus::core::fs::MemoryFs::new()), Rc::new(NoNet), Rc::new(Frozen));
//! let names: Vec<String> = create(&host).iter().map(|t| t.spec().name.clone()).collect();
//! assert_eq!(names[0], "read"); // no `bash` without an exec function
//! assert_eq!(names.len(), 9);
//! ```

mod args;
mod bash;
mod edit;
mod files;
pub mod glob;
mod html;
pub mod patch;
mod question;
mod search;
mod tool;
mod webfetch;

pub use super::builtin_toggle::{enabled, select, tool_enabled, BUILTIN_NAMES};
pub use bash::{Exec, ExecOutput};
pub use html::{html_to_markdown, html_to_text};
pub use question::render_questions;
pub use search::{Regex, RegexEngine, SharedRegexEngine};
pub use tool::Builtin;

use std::cell::Cell;
use std::rc::Rc;

use super::fs::SharedFs;
use super::host::{Clock, Http};
use super::tool::SharedTool;

/// Makes the `id` of each suspension the `question` tool raises.
pub type IdMaker = Rc<dyn Fn() -> String>;

/// What the built-in tools run on.
pub struct BuiltinHost {
    /// The filesystem of `read`, `write`, `edit`, `grep`, `glob` and `apply_patch`.
    pub fs: SharedFs,
    /// `webfetch`'s transport.
    pub http: Rc<dyn Http>,
    /// `webfetch`'s and `bash`'s timeouts.
    pub clock: Rc<dyn Clock>,
    /// Runs `bash` commands; without it `bash` is not offered at all.
    pub exec: Option<Rc<dyn Exec>>,
    /// Ids of `question` suspensions (the JS glue uses random ids).
    pub ids: IdMaker,
    /// `grep`'s regular expressions; without an engine `grep` answers with an error.
    pub regex: Option<SharedRegexEngine>,
}

impl BuiltinHost {
    /// A host without `exec`, whose ids count up (`question-1`, `question-2`, …).
    pub fn new(fs: SharedFs, http: Rc<dyn Http>, clock: Rc<dyn Clock>) -> Self {
        let next = Rc::new(Cell::new(0u64));
        let ids: IdMaker = Rc::new(move || {
            next.set(next.get().wrapping_add(1));
            format!("question-{}", next.get())
        });
        BuiltinHost {
            fs,
            http,
            clock,
            exec: None,
            ids,
            regex: None,
        }
    }
}

/// Every built-in the host supports, in the contract's order (`bash`, `read`, `write`, `edit`,
/// `grep`, `glob`, `webfetch`, `question`, `apply_patch`, `todowrite`); `bash` only with an
/// [`Exec`]. Feed the result to `Sources.builtins`; the toggle picks which stay.
pub fn create(host: &BuiltinHost) -> Vec<SharedTool> {
    let fs = &host.fs;
    let mut tools: Vec<SharedTool> = Vec::with_capacity(10);
    if let Some(exec) = &host.exec {
        tools.push(Rc::new(bash::tool(exec.clone(), host.clock.clone())));
    }
    tools.push(Rc::new(files::read(fs.clone())));
    tools.push(Rc::new(files::write(fs.clone())));
    tools.push(Rc::new(edit::tool(fs.clone())));
    tools.push(Rc::new(search::grep(fs.clone(), host.regex.clone())));
    tools.push(Rc::new(search::glob(fs.clone())));
    tools.push(Rc::new(webfetch::tool(
        host.http.clone(),
        host.clock.clone(),
    )));
    tools.push(Rc::new(question::question(host.ids.clone())));
    tools.push(Rc::new(patch::tool(fs.clone())));
    tools.push(Rc::new(question::todowrite()));
    tools
}
