//! Replaying a halted turn without running its tools twice. A durable pending rewinds the
//! handle's transcript to before the turn (SPEC §7D), so a resume replays the whole turn; the
//! calls the halted run made are kept with its checkpoint, and in the replay a call of the
//! same tool with the same arguments is answered from there (once each) instead of running
//! again. The halted call itself answers with its suspension, which the replay's interpreter
//! then answers with the Answer: the tool runs again only to take it. `task` is never
//! recorded: a replayed delegation reattaches to its child by task key.

use std::cell::RefCell;
use std::rc::Rc;

use super::data::RecordedCall;
use crate::core::client::result::ToolCallRecord;
use crate::core::host::LocalBoxFuture;
use crate::core::json::value::Value;
use crate::core::spec::ToolSpec;
use crate::core::tool::{Context, SharedTool, Tool};
use crate::core::types::{pending, Request, ToolResult};

/// The calls of a run that halted on `request`, as a replay answers them: each completed
/// call's result, and the halted call's suspension.
pub(super) fn recorded_calls(request: &Request, calls: &[ToolCallRecord]) -> Vec<RecordedCall> {
    let halted = calls
        .iter()
        .rposition(|c| c.is_error && c.output == request.prompt);
    calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.name != "task")
        .map(|(i, c)| RecordedCall {
            tool: c.name.clone(),
            args: c.args.clone(),
            result: if Some(i) == halted {
                pending(request.clone())
            } else {
                ToolResult {
                    output: c.output.clone(),
                    is_error: c.is_error,
                    metadata: c.metadata.clone(),
                    parts: None,
                }
            },
        })
        .collect()
}

/// `tools`, each answering from `recorded` first (nothing to replay: `tools` as they are).
pub(super) fn replaying(tools: Vec<SharedTool>, recorded: Vec<RecordedCall>) -> Vec<SharedTool> {
    if recorded.is_empty() {
        return tools;
    }
    let recorded = Rc::new(RefCell::new(recorded));
    tools
        .into_iter()
        .map(|inner| -> SharedTool {
            Rc::new(Replaying {
                inner,
                recorded: recorded.clone(),
            })
        })
        .collect()
}

/// A tool whose calls the halted run already made are answered from the checkpoint.
struct Replaying {
    inner: SharedTool,
    recorded: Rc<RefCell<Vec<RecordedCall>>>,
}

impl Replaying {
    fn recorded(&self, args: &Value) -> Option<ToolResult> {
        let name = &self.inner.spec().name;
        let mut recorded = self.recorded.borrow_mut();
        let at = recorded
            .iter()
            .position(|c| c.tool == *name && c.args == *args)?;
        Some(recorded.remove(at).result)
    }
}

impl Tool for Replaying {
    fn spec(&self) -> &ToolSpec {
        self.inner.spec()
    }

    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        if ctx.answer.is_none() {
            if let Some(result) = self.recorded(&args) {
                return Box::pin(async move { result });
            }
        }
        self.inner.execute(args, ctx)
    }

    fn execute_ref(&self, args: &Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        // A call carrying an Answer is the retry that takes it: it always runs.
        if ctx.answer.is_none() {
            if let Some(result) = self.recorded(args) {
                return Box::pin(async move { result });
            }
        }
        self.inner.execute_ref(args, ctx)
    }
}
