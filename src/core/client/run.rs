//! The loop: call the model, run the turn's tool calls concurrently, feed the results back in
//! call order, repeat until a final answer, a durable halt, or `max_turns`. The whole run races
//! its signal and its deadline, so it always ends promptly.

use crate::core::json::value::Value;
use futures_util::future::{select, Either};
use std::cell::Cell;
use std::pin::pin;
use std::rc::Rc;

use super::call::{CallContext, Llm};
use super::config::ClientConfig;
use super::error::RunError;
use super::hooks::{Hooks, WaitFor};
use super::prompt::Prompt;
use super::request_cache::RequestCache;
use super::result::{RunResult, Status, ToolCallRecord};
use super::store::Store;
use super::telemetry::{RunEvents, StreamEvent, Telemetry};
use super::tools::{Outcome, ToolEnv};
use super::turn::run_turn;
use crate::core::host::{Clock, HostText, Http, LocalBoxFuture, Signal};
use crate::core::message::{self, Message};
use crate::core::toolkit::Toolkit;
use crate::core::types::Request;
use crate::core::wire::{Dialect, ToolList, Usage};

/// A configured agent client, cheap to clone (everything inside is shared).
#[derive(Clone)]
pub struct Client {
    /// Settings.
    pub config: Rc<ClientConfig>,
    /// The wire format of the transcript and the endpoint.
    pub dialect: Rc<dyn Dialect>,
    /// The transport.
    pub http: Rc<dyn Http>,
    /// Lifecycle hooks.
    pub hooks: Rc<dyn Hooks>,
    /// The suspension resolver, when the host has one.
    pub wait_for: Option<Rc<dyn WaitFor>>,
    /// Time.
    pub clock: Rc<dyn Clock>,
    /// Metric events and the Prometheus registry.
    pub telemetry: Rc<Telemetry>,
    /// What every model request of the client shares (`Default::default()` to start).
    pub requests: Rc<RequestCache>,
}

/// One run's input.
pub struct RunInput {
    /// Where tool calls go.
    pub toolkit: Rc<Toolkit>,
    /// The user's message: text, or content parts.
    pub prompt: Prompt,
    /// A transcript to continue.
    pub history: Vec<Message>,
    /// A transcript to continue given as the JSON text of a non-empty array, in place of
    /// `history`: it is spliced into every request body as it is and never parsed, and the
    /// result's `messages` then hold only this run's own messages (the host, which has the
    /// history, puts it in front). With a `beforeLLM` hook the text is parsed, as the hook
    /// needs the messages (then `messages` hold everything, as with `history`).
    pub history_text: Option<Rc<str>>,
    /// A transcript to continue that the host keeps: the items of a non-empty JSON array
    /// (without its brackets), in place of `history` and `history_text`. The core never reads
    /// it; every request body holds [`HostText::MARK`] where it goes, and the client's `Http`
    /// (which must [splice host text](crate::core::host::Http::splices_host_text)) puts it
    /// there. As with `history_text`, the result's `messages` hold only this run's own. A
    /// `beforeLLM` or `bodyTransform` hook needs the messages: with one, the run fails.
    pub history_host: Option<HostText>,
    /// Aborts the run. When the host lets the core fire it (`Cancel::abort`), the deadline
    /// fires it too, so in-flight requests stop.
    pub signal: Option<Signal>,
    /// Where a streamed run's events go; `Some` streams every model call.
    pub events: Option<Rc<dyn RunEvents>>,
    /// Resume a halted run with an answer instead of sending `prompt` (then `history` is the
    /// halted run's transcript).
    pub resume: Option<Resume>,
}

impl RunInput {
    /// A fresh run of `prompt` over `toolkit`: no history, signal, events or resume.
    ///
    /// ```
    /// # use toolnexus::core::client::run::RunInput;
    /// let input = RunInput::new(std::rc::Rc::default(), "hi".into());
    /// assert!(input.history.is_empty() && input.signal.is_none());
    /// ```
    pub fn new(toolkit: Rc<Toolkit>, prompt: Prompt) -> RunInput {
        RunInput {
            toolkit,
            prompt,
            history: Vec::new(),
            history_text: None,
            history_host: None,
            signal: None,
            events: None,
            resume: None,
        }
    }
}

/// A durable resume: the halted run's request and the host's answer to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Resume {
    /// `RunResult.pending` of the halted run.
    pub pending: Request,
    /// The raw answer (checked before it is trusted).
    pub answer: Value,
}

/// What the loop accumulates.
pub(super) struct Progress {
    /// The items of a history given as JSON text (see [`RunInput::history_text`]), which
    /// come before `messages` in every request; empty otherwise.
    pub(super) prefix: String,
    /// The host's history text, whose mark `prefix` then is.
    pub(super) splice: Option<HostText>,
    pub(super) messages: Vec<Message>,
    pub(super) tool_calls: Vec<ToolCallRecord>,
    pub(super) turns: u32,
    pub(super) usage: Usage,
}

impl Client {
    /// Runs the loop to its end. Errors: the model call failed, a hook threw, or the run was
    /// aborted or passed its deadline; every tool failure is a tool result instead.
    pub fn run(&self, input: RunInput) -> LocalBoxFuture<'static, Result<RunResult, RunError>> {
        let client = self.clone();
        Box::pin(async move { client.guarded(input).await })
    }

    /// `run` with memory: loads the transcript saved under `id`, runs, saves the new one. A
    /// failing `save` does not lose the result: it is returned with `saveError` set.
    pub fn ask(
        &self,
        store: Rc<dyn Store>,
        id: String,
        mut input: RunInput,
    ) -> LocalBoxFuture<'static, Result<RunResult, RunError>> {
        let client = self.clone();
        Box::pin(async move {
            let loaded = store.get(&id).await.map_err(|message| RunError::Hook {
                hook: "store.get",
                message,
            })?;
            input.history = loaded.unwrap_or_default();
            let mut result = client.guarded(input).await?;
            if let Err(why) = store.save(&id, &result.messages).await {
                result.save_error = Some(why);
            }
            Ok(result)
        })
    }

    /// The loop raced against the signal and the deadline, with the `run` metric event.
    async fn guarded(&self, input: RunInput) -> Result<RunResult, RunError> {
        let start = self.clock.now_ms();
        let deadline = self.config.timeout_ms.map(|ms| start + ms);
        let signal = input.signal.clone();
        let progress = Cell::new((0u32, 0usize, 0u64));
        // Pinned in place, and dropped (the loop's model call in flight with it) before the
        // `run` event.
        let outcome = {
            let looped = pin!(self.run_loop(input, deadline, &progress));
            let stop = pin!(self.stop_when(signal, deadline));
            match select(looped, stop).await {
                Either::Left((outcome, _)) => outcome,
                Either::Right((error, _)) => Err(error),
            }
        };
        let (turns, tool_calls, total_tokens) = progress.get();
        let (turns, tool_calls, total_tokens) = match &outcome {
            Ok(r) => (r.turns, r.tool_call_count, r.usage.total_tokens),
            Err(_) => (turns, tool_calls, total_tokens),
        };
        self.telemetry.run(
            &self.config.model,
            turns,
            tool_calls,
            total_tokens,
            self.clock.now_ms() - start,
            outcome.as_ref().err(),
        );
        outcome
    }

    /// Completes with the reason the run must stop: its signal fired or its deadline passed
    /// (then the signal is fired too, so requests and tools in flight stop).
    pub(super) async fn stop_when(
        &self,
        signal: Option<Signal>,
        deadline: Option<f64>,
    ) -> RunError {
        let fired = {
            let signal = signal.clone();
            async move {
                match signal {
                    Some(s) => {
                        s.wait().await;
                        s.reason()
                    }
                    None => std::future::pending().await,
                }
            }
        };
        let timed_out = {
            let clock = self.clock.clone();
            let ms = self.config.timeout_ms;
            async move {
                match (deadline, ms) {
                    (Some(deadline), Some(ms)) => {
                        clock.sleep((deadline - clock.now_ms()).max(0.0)).await;
                        format!(
                            "the run timed out after {} ms",
                            crate::core::jsfmt::number(ms)
                        )
                    }
                    _ => std::future::pending().await,
                }
            }
        };
        match select(pin!(fired), pin!(timed_out)).await {
            Either::Left((reason, _)) => RunError::Aborted(reason),
            Either::Right((reason, _)) => {
                if let Some(signal) = &signal {
                    signal.abort(&reason);
                }
                RunError::Aborted(reason)
            }
        }
    }

    async fn run_loop(
        &self,
        input: RunInput,
        deadline: Option<f64>,
        counts: &Cell<(u32, usize, u64)>,
    ) -> Result<RunResult, RunError> {
        let RunInput {
            toolkit,
            prompt,
            mut history,
            history_text,
            history_host,
            signal,
            events,
            resume,
        } = input;
        let mut prefix = String::new();
        let splice = match history_host {
            Some(host) => {
                self.check_host_history()?;
                prefix.push(HostText::MARK);
                Some(host)
            }
            None => None,
        };
        if let Some(text) = history_text {
            if self.hooks.has_before_llm() {
                history = match crate::core::json::parse::from_str(&text) {
                    Ok(Value::Array(items)) => message::from_values(items),
                    parsed => {
                        let why = parsed.map_or_else(
                            |e| e.to_string(),
                            |other| crate::core::json::record::invalid_type(&other, "a sequence"),
                        );
                        return Err(RunError::Hook {
                            hook: "beforeLLM",
                            message: format!("the history is not JSON: {why}"),
                        });
                    }
                };
            } else {
                prefix = array_items(&text).to_owned();
            }
        }
        let system = self.config.system_with(&toolkit.skills_prompt());
        let dialect = self.dialect.clone();
        let mut tools = toolkit.tool_list(dialect.name(), |specs| dialect.tools(specs));
        let mut progress = Progress {
            prefix,
            splice,
            messages: Vec::new(),
            tool_calls: Vec::new(),
            turns: 0,
            usage: Usage::default(),
        };
        let env = ToolEnv {
            toolkit,
            hooks: self.hooks.clone(),
            wait_for: self.wait_for.clone(),
            clock: self.clock.clone(),
            signal: signal.clone(),
            telemetry: self.telemetry.clone(),
            events: events.clone(),
        };
        let llm = Llm {
            config: self.config.clone(),
            dialect: self.dialect.clone(),
            http: self.http.clone(),
            hooks: self.hooks.clone(),
            clock: self.clock.clone(),
            telemetry: self.telemetry.clone(),
            requests: self.requests.clone(),
        };
        match resume {
            None if !progress.prefix.is_empty() => {
                // A history the core does not hold: start as after a non-empty one (a dialect
                // adds its system message only to an empty history), without the stand-in.
                let stand_in = Message::from_value(Value::Null);
                let mut started =
                    self.dialect
                        .start(&system, vec![stand_in.clone()], prompt.message());
                started.retain(|m| *m != stand_in);
                progress.messages = started;
            }
            None => progress.messages = self.dialect.start(&system, history, prompt.message()),
            Some(resume) => {
                if let Some(request) = self
                    .resume_turn(&env, &mut progress, history, resume)
                    .await?
                {
                    let text = request.prompt.clone();
                    return Ok(self.finish(
                        progress,
                        text,
                        Status::Pending,
                        Some(request),
                        &events,
                    ));
                }
            }
        }
        let mut last_text = String::new();
        for turn in 0..self.config.max_turns {
            check_signal(&signal)?;
            progress.turns += 1;
            let (_, tool_calls, total_tokens) = counts.get();
            counts.set((progress.turns, tool_calls, total_tokens));
            if self.hooks.has_before_llm() {
                let over = self
                    .hooks
                    .before_llm(&progress.messages, tools.value(), &self.config.model, turn)
                    .await
                    .map_err(|message| RunError::Hook {
                        hook: "beforeLLM",
                        message,
                    })?;
                if let Some(messages) = over.messages {
                    progress.messages = message::from_values(messages);
                }
                tools = over
                    .tools
                    .map(|list| Rc::new(ToolList::new(list)))
                    .unwrap_or(tools);
            }
            let ctx = CallContext {
                signal: signal.clone(),
                deadline,
                events: events.clone(),
                splice: progress.splice.clone(),
                keep_raw: false,
            };
            let completion = llm
                .call(&progress.prefix, &progress.messages, &tools, &system, ctx)?
                .await?;
            progress.usage.add(&completion.reply.usage);
            counts.set((
                progress.turns,
                progress.tool_calls.len(),
                progress.usage.total_tokens,
            ));
            if let Some(raw) = &completion.raw {
                self.hooks
                    .after_llm(raw, &self.config.model, turn)
                    .await
                    .map_err(|message| RunError::Hook {
                        hook: "afterLLM",
                        message,
                    })?;
            }
            let reply = completion.reply;
            progress.messages.push(reply.assistant);
            last_text = reply.text;
            if reply.tool_calls.is_empty() {
                return Ok(self.finish(progress, last_text, Status::Done, None, &events));
            }
            if let Some(events) = &events {
                for call in &reply.tool_calls {
                    let args = call
                        .args
                        .clone()
                        .unwrap_or_else(|_| Value::Object(Default::default()));
                    events.emit(StreamEvent::ToolCall {
                        id: call.id.clone(),
                        name: call.name.clone(),
                        args,
                    });
                }
            }
            let outcomes = run_turn(&env, reply.tool_calls, turn).await;
            check_signal(&signal)?;
            let halted = self.record_turn(&mut progress, outcomes, &events)?;
            counts.set((
                progress.turns,
                progress.tool_calls.len(),
                progress.usage.total_tokens,
            ));
            if let Some(request) = halted {
                let text = request.prompt.clone();
                return Ok(self.finish(progress, text, Status::Pending, Some(request), &events));
            }
        }
        let status = if last_text.is_empty() {
            Status::Incomplete
        } else {
            Status::Done
        };
        Ok(self.finish(progress, last_text, status, None, &events))
    }

    /// Records a turn's outcomes in call order; on the first halt, records it and stops there.
    pub(super) fn record_turn(
        &self,
        progress: &mut Progress,
        outcomes: Vec<Result<(String, String, Outcome), RunError>>,
        events: &Option<Rc<dyn RunEvents>>,
    ) -> Result<Option<Request>, RunError> {
        self.record_turn_except(progress, outcomes, events, &[])
    }

    /// Records a turn's outcomes in call order. On a halt, the calls that finished (before or
    /// after the halted one) keep their results, so a resume never runs them again; calls that
    /// also suspended get no result and suspend again on resume. `known` are ids whose results
    /// an earlier run already reported (they go in the transcript, not in `toolCalls`).
    pub(super) fn record_turn_except(
        &self,
        progress: &mut Progress,
        outcomes: Vec<Result<(String, String, Outcome), RunError>>,
        events: &Option<Rc<dyn RunEvents>>,
        known: &[String],
    ) -> Result<Option<Request>, RunError> {
        let mut results = Vec::with_capacity(outcomes.len());
        let recorded_from = progress.tool_calls.len();
        let mut halted = None;
        for outcome in outcomes {
            let (id, name, outcome) = outcome?;
            // Taken apart, not cloned: the arguments go to the record, the result to the
            // transcript and then to the record.
            let (args, result, request) = match outcome {
                Outcome::Done { args, result } => (args, result, None),
                Outcome::Halted { .. } if halted.is_some() => continue,
                Outcome::Halted {
                    args,
                    request,
                    placeholder,
                } => (args, placeholder, Some(request)),
            };
            if !known.contains(&id) {
                if let (Some(events), None) = (events, &request) {
                    events.emit(StreamEvent::ToolResult {
                        id: id.clone(),
                        name: name.clone(),
                        output: result.output.clone(),
                        is_error: result.is_error,
                        parts: result.parts.clone(),
                    });
                }
                progress.tool_calls.push(ToolCallRecord {
                    name,
                    args,
                    output: String::new(),
                    is_error: result.is_error,
                    metadata: None,
                });
            }
            if request.is_some() {
                halted = request;
            }
            results.push((id, result));
        }
        self.dialect
            .append_tool_results(&results, &mut progress.messages);
        // The records just pushed are the results' not reported before, in order: each takes
        // its output and metadata now that the transcript has them.
        let recorded = results.into_iter().filter(|(id, _)| !known.contains(id));
        let records = progress.tool_calls.iter_mut().skip(recorded_from);
        for (record, (_, result)) in records.zip(recorded) {
            record.output = result.output;
            record.metadata = result.metadata;
        }
        Ok(halted)
    }

    fn finish(
        &self,
        progress: Progress,
        text: String,
        status: Status,
        pending: Option<Request>,
        events: &Option<Rc<dyn RunEvents>>,
    ) -> RunResult {
        if let Some(events) = events {
            events.emit(StreamEvent::Usage {
                usage: progress.usage,
            });
        }
        let limit = (status == Status::Incomplete).then(|| "maxTurns".to_owned());
        RunResult {
            text,
            tool_call_count: progress.tool_calls.len(),
            messages: progress.messages,
            tool_calls: progress.tool_calls,
            turns: progress.turns,
            usage: progress.usage,
            model: self.config.model.to_string(),
            status,
            pending,
            limit,
            save_error: None,
        }
    }
}

impl Client {
    /// Whether a run can continue a history the host keeps ([`RunInput::history_host`]): no
    /// hook needs the messages, and the transport puts the text in.
    pub fn takes_host_history(&self) -> bool {
        self.host_history_refusal().is_none()
    }

    /// Why a run cannot continue a history the host keeps, if it cannot.
    fn host_history_refusal(&self) -> Option<&'static str> {
        if self.hooks.has_before_llm() {
            Some("a beforeLLM hook needs its messages, and the host kept them")
        } else if self.hooks.has_body_transform() {
            Some("a bodyTransform hook needs its messages, and the host kept them")
        } else if !self.http.splices_host_text() {
            Some("this client's transport cannot put in a history the host kept")
        } else {
            None
        }
    }

    fn check_host_history(&self) -> Result<(), RunError> {
        match self.host_history_refusal() {
            Some(problem) => Err(RunError::HostHistory(problem.into())),
            None => Ok(()),
        }
    }
}

pub(super) fn check_signal(signal: &Option<Signal>) -> Result<(), RunError> {
    match signal {
        Some(s) if s.is_aborted() => Err(RunError::Aborted(s.reason())),
        _ => Ok(()),
    }
}

/// The text between the brackets of a JSON array's text (`[a,b]` → `a,b`), trimmed.
fn array_items(text: &str) -> &str {
    let text = text.trim();
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or_default();
    inner.trim()
}
