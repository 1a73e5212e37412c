//! The loop: call the model, run the turn's tool calls concurrently, feed the results back in
//! call order, repeat until a final answer, a durable halt, or `max_turns`.

use futures_util::future::join_all;
use serde_json::Value;
use std::rc::Rc;

use super::call::Llm;
use super::config::ClientConfig;
use super::error::RunError;
use super::hooks::{Hooks, WaitFor};
use super::result::{RunResult, Status, ToolCallRecord};
use super::store::Store;
use super::tools::{run_call, Outcome, ToolEnv};
use crate::core::host::{Clock, Http, LocalBoxFuture, Signal};
use crate::core::toolkit::Toolkit;
use crate::core::types::Request;
use crate::core::wire::{Dialect, Usage};

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
}

/// One run's input.
pub struct RunInput {
    /// Where tool calls go.
    pub toolkit: Rc<Toolkit>,
    /// The user's message.
    pub prompt: String,
    /// A transcript to continue.
    pub history: Vec<Value>,
    /// Aborts the run.
    pub signal: Option<Signal>,
}

/// What the loop accumulates.
struct Progress {
    messages: Vec<Value>,
    tool_calls: Vec<ToolCallRecord>,
    turns: u32,
    usage: Usage,
}

impl Client {
    /// Runs the loop to its end. Errors: the model call failed, a hook threw, or the run was
    /// aborted; every tool failure is a tool result instead.
    pub fn run(&self, input: RunInput) -> LocalBoxFuture<'static, Result<RunResult, RunError>> {
        let client = self.clone();
        Box::pin(async move { client.run_loop(input).await })
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
            let mut result = client.run_loop(input).await?;
            if let Err(why) = store.save(&id, &result.messages).await {
                result.save_error = Some(why);
            }
            Ok(result)
        })
    }

    async fn run_loop(&self, input: RunInput) -> Result<RunResult, RunError> {
        let RunInput {
            toolkit,
            prompt,
            history,
            signal,
        } = input;
        let system = self.config.system_with(&toolkit.skills_prompt());
        let mut tools = toolkit.with_specs(|specs| self.dialect.tools(specs));
        let mut progress = Progress {
            messages: self.dialect.start(&system, history, &prompt),
            tool_calls: Vec::new(),
            turns: 0,
            usage: Usage::default(),
        };
        let env = Rc::new(ToolEnv {
            toolkit,
            hooks: self.hooks.clone(),
            wait_for: self.wait_for.clone(),
            clock: self.clock.clone(),
            signal: signal.clone(),
        });
        let llm = Llm {
            config: self.config.clone(),
            dialect: self.dialect.clone(),
            http: self.http.clone(),
            hooks: self.hooks.clone(),
        };
        let mut last_text = String::new();
        for turn in 0..self.config.max_turns {
            check_signal(&signal)?;
            progress.turns += 1;
            if self.hooks.has_before_llm() {
                let over = self
                    .hooks
                    .before_llm(&progress.messages, &tools, &self.config.model, turn)
                    .await
                    .map_err(|message| RunError::Hook {
                        hook: "beforeLLM",
                        message,
                    })?;
                progress.messages = over.messages.unwrap_or(progress.messages);
                tools = over.tools.unwrap_or(tools);
            }
            let completion = llm
                .call(&progress.messages, &tools, &system, signal.clone())?
                .await?;
            progress.usage.add(&completion.reply.usage);
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
                return Ok(self.finish(progress, last_text, Status::Done, None));
            }
            let calls = reply.tool_calls.into_iter().map(|call| {
                let (id, name, env) = (call.id.clone(), call.name.clone(), env.clone());
                async move { run_call(env, call, turn).await.map(|o| (id, name, o)) }
            });
            let outcomes = join_all(calls).await;
            check_signal(&signal)?;
            if let Some(request) = self.record_turn(&mut progress, outcomes)? {
                let text = request.prompt.clone();
                return Ok(self.finish(progress, text, Status::Pending, Some(request)));
            }
        }
        let status = if last_text.is_empty() {
            Status::Incomplete
        } else {
            Status::Done
        };
        Ok(self.finish(progress, last_text, status, None))
    }

    /// Records a turn's outcomes in call order; on the first halt, records it and stops there.
    fn record_turn(
        &self,
        progress: &mut Progress,
        outcomes: Vec<Result<(String, String, Outcome), RunError>>,
    ) -> Result<Option<Request>, RunError> {
        let mut results = Vec::new();
        let mut halted = None;
        for outcome in outcomes {
            let (id, name, outcome) = outcome?;
            let (args, result) = outcome.parts();
            progress.tool_calls.push(ToolCallRecord {
                name,
                args: args.clone(),
                output: result.output.clone(),
                is_error: result.is_error,
                metadata: result.metadata.clone(),
            });
            results.push((id, result.clone()));
            if let Outcome::Halted { request, .. } = outcome {
                halted = Some(request);
                break;
            }
        }
        progress
            .messages
            .extend(self.dialect.tool_results(&results));
        Ok(halted)
    }

    fn finish(
        &self,
        progress: Progress,
        text: String,
        status: Status,
        pending: Option<Request>,
    ) -> RunResult {
        let limit = (status == Status::Incomplete).then(|| "maxTurns".to_owned());
        RunResult {
            text,
            tool_call_count: progress.tool_calls.len(),
            messages: progress.messages,
            tool_calls: progress.tool_calls,
            turns: progress.turns,
            usage: progress.usage,
            model: self.config.model.clone(),
            status,
            pending,
            limit,
            save_error: None,
        }
    }
}

fn check_signal(signal: &Option<Signal>) -> Result<(), RunError> {
    match signal {
        Some(s) if s.is_aborted() => Err(RunError::Aborted(s.reason())),
        _ => Ok(()),
    }
}
