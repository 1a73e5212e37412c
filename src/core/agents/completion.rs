//! The completion gate of a runtime turn (the reference's `completion: {verify, maxAttempts}`,
//! its `runGated` run inside the §7D turn): a turn whose run ends `done` is judged by the
//! agent's verifier; a failed verdict asks again on the same conversation with the reason, at
//! most `maxAttempts` runs in all; still failing, the turn ends `incomplete` with
//! `limit: "completion"`. A run that stops on its own (`pending`, a limit) is never judged.
//! Every attempt is spent from the handle's budgets as it ends, and a re-ask is not made once
//! one of them is exhausted. The verifier is the host's ([`Verify`]), so the core stays free of
//! JavaScript: the glue's calls a JS function, a Rust host passes a closure.

use std::rc::Rc;

use crate::core::client::result::{RunResult, Status, ToolCallRecord};
use crate::core::host::LocalBoxFuture;

/// A verifier's judgement of a run.
///
/// ```
/// # use toolnexus::core::agents::completion::Verdict;
/// assert!(Verdict::pass().ok);
/// assert_eq!(Verdict::fail("2 item(s) still open").reason.as_deref(), Some("2 item(s) still open"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the work verifies.
    pub ok: bool,
    /// Why not (absent: `"unspecified"` in the re-ask and the final text).
    pub reason: Option<String>,
}

impl Verdict {
    /// The work verifies.
    pub fn pass() -> Verdict {
        Verdict {
            ok: true,
            reason: None,
        }
    }

    /// The work does not verify, for `reason`.
    pub fn fail(reason: impl Into<String>) -> Verdict {
        Verdict {
            ok: false,
            reason: Some(reason.into()),
        }
    }
}

/// The host's verifier: judges a run that ended `done`, its `tool_calls` those of every attempt
/// of the turn so far (a re-ask cannot escape by dropping its plan). `Err` is the verifier's own
/// failure (a JS throw or rejection), worded to follow `completion.verify ` (`threw: boom`): the
/// turn ends as an `error` result with that text.
///
/// A closure `Fn(&RunResult) -> Result<Verdict, String>` is one.
pub trait Verify {
    /// The verdict on `result`.
    fn verify(&self, result: &RunResult) -> LocalBoxFuture<'static, Result<Verdict, String>>;
}

impl<F> Verify for F
where
    F: Fn(&RunResult) -> Result<Verdict, String>,
{
    fn verify(&self, result: &RunResult) -> LocalBoxFuture<'static, Result<Verdict, String>> {
        let verdict = self(result);
        Box::pin(async move { verdict })
    }
}

/// An agent definition's completion gate.
///
/// ```
/// # use std::rc::Rc;
/// # use toolnexus::core::agents::completion::{Completion, Verdict};
/// # use toolnexus::core::client::result::RunResult;
/// let gate = Completion::new(Rc::new(|r: &RunResult| Ok(if r.text.is_empty() { Verdict::fail("no answer") } else { Verdict::pass() })), 3);
/// assert_eq!(gate.max_attempts, 3);
/// assert_eq!(Completion::new(gate.verify.clone(), 0).check().unwrap_err(), "completion.maxAttempts must be an integer >= 1 (got 0)");
/// ```
#[derive(Clone)]
pub struct Completion {
    /// `verify`: judges each `done` run.
    pub verify: Rc<dyn Verify>,
    /// `maxAttempts`: runs of one turn at most, the first included (never defaulted).
    pub max_attempts: u32,
}

impl Completion {
    /// A gate of `verify` over at most `max_attempts` runs.
    pub fn new(verify: Rc<dyn Verify>, max_attempts: u32) -> Completion {
        Completion {
            verify,
            max_attempts,
        }
    }

    /// Refuses `maxAttempts` 0 (an unbounded or empty gate), as a sentence.
    pub fn check(&self) -> Result<(), String> {
        if self.max_attempts == 0 {
            return Err("completion.maxAttempts must be an integer >= 1 (got 0)".into());
        }
        Ok(())
    }
}

/// The re-ask after a failed verdict (the reference's words).
///
/// ```
/// # use toolnexus::core::agents::completion::retry_prompt;
/// assert_eq!(retry_prompt("1 item(s) still open: ship"), "Your work did not verify: 1 item(s) still open: ship. Fix it and finish.");
/// ```
pub fn retry_prompt(reason: &str) -> String {
    format!("Your work did not verify: {reason}. Fix it and finish.")
}

/// The text of a turn whose gate failed `max_attempts` times (the reference's words).
///
/// ```
/// # use toolnexus::core::agents::completion::exhausted_text;
/// assert_eq!(exhausted_text(2, "always red"), "completion.verify failed 2×: always red");
/// ```
pub fn exhausted_text(max_attempts: u32, reason: &str) -> String {
    format!("completion.verify failed {max_attempts}×: {reason}")
}

/// What a gated turn has run so far: the latest attempt's result with the tool calls, model
/// calls and usage of every attempt.
#[derive(Default)]
pub(super) struct Attempts {
    calls: Vec<ToolCallRecord>,
    turns: u32,
    usage: crate::core::wire::Usage,
    save_error: Option<String>,
}

impl Attempts {
    /// `run` (one attempt) folded in; returns the turn's result as it stands.
    pub(super) fn add(&mut self, mut run: RunResult) -> RunResult {
        self.calls.append(&mut run.tool_calls);
        self.turns += run.turns;
        self.usage.add(&run.usage);
        if self.save_error.is_none() {
            self.save_error = run.save_error.take();
        }
        run.tool_calls = self.calls.clone();
        run.tool_call_count = run.tool_calls.len();
        run.turns = self.turns;
        run.usage = self.usage;
        run.save_error = self.save_error.clone();
        run
    }
}

/// `run` stopped: `incomplete` with `limit` (its text is the runtime's to word).
pub(super) fn stopped(mut run: RunResult, limit: &str, text: String) -> RunResult {
    run.status = Status::Incomplete;
    run.limit = Some(limit.to_owned());
    run.text = text;
    run
}
