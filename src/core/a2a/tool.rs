//! One advertised skill as a uniform `Tool` (SPEC §7A): named `sanitize(card.name)_sanitize(skill)`,
//! source `"a2a"`, input `{task}`. `execute` sends one `SendMessage`, then polls `GetTask`
//! every `pollEvery` until the task stops, in the order the SPEC pins: check abort → check
//! timeout → sleep → check abort → `GetTask`. A task that stops at `input-required` is a
//! `pending` result (SPEC §10, see `input.rs`); the retry that carries the answer sends it to
//! the same task and polls on.

use crate::core::json::value::Value;
use futures_util::future::select;
use std::rc::Rc;

use super::card::Skill;
use super::input::{continuation, followup_params, input_request, Continuation};
use super::wire::{
    call, reply_of, send_params, state_of, status_text, stops_at, task_output, CallError, Endpoint,
    Reply,
};
use crate::core::host::{Clock, LocalBoxFuture, Signal};
use crate::core::mcp::config::expand_env;
use crate::core::mcp::load::EnvLookup;
use crate::core::mcp::tool::Redactor;
use crate::core::spec::ToolSpec;
use crate::core::tool::{Context, Tool};
use crate::core::types::{pending, sanitize, Answer, ToolResult};

/// Makes a fresh id (a UUID on the platform) for each request and message.
pub type NewId = Rc<dyn Fn() -> String>;

/// What every tool of one agent shares.
pub struct AgentLink {
    /// The card's `name`: the tool prefix and `metadata.agent`.
    pub agent: String,
    /// Where requests go, and in which shape.
    pub endpoint: Endpoint,
    /// The host's headers, unexpanded: `${ENV}` is read at each call and never reported.
    pub headers: Vec<(String, String)>,
    /// Reads `${ENV}` variables.
    pub env: EnvLookup,
    /// Time, sleeps and deadlines.
    pub clock: Rc<dyn Clock>,
    /// Request and message ids.
    pub new_id: NewId,
    /// The budget of one call, in milliseconds (a call's own `timeout` wins).
    pub timeout_ms: f64,
    /// Between two polls, in milliseconds.
    pub poll_every_ms: f64,
}

impl AgentLink {
    /// The headers with `${ENV}` expanded, and a redactor for their values.
    pub fn expanded_headers(&self) -> (Vec<(String, String)>, Redactor) {
        let env = |name: &str| (self.env)(name);
        let headers: Vec<(String, String)> = self
            .headers
            .iter()
            .map(|(name, value)| (name.clone(), expand_env(value, &env)))
            .collect();
        // The whole values, their last word (a token after `Bearer`), and every variable
        // they expanded: a server may echo any of them.
        let mut secrets: Vec<String> = Vec::new();
        for ((_, template), (_, value)) in self.headers.iter().zip(&headers) {
            secrets.push(value.clone());
            if let Some((_, token)) = value.rsplit_once(' ') {
                secrets.push(token.to_owned());
            }
            secrets.extend(env_names(template).filter_map(|name| (self.env)(name)));
        }
        (headers, Redactor::new(secrets))
    }
}

/// The names of the `${NAME}` variables in a header template.
fn env_names(template: &str) -> impl Iterator<Item = &str> {
    template.split("${").skip(1).filter_map(|rest| {
        let (name, _) = rest.split_once('}')?;
        let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        plain.then_some(name)
    })
}

/// The `task` input every A2A tool takes.
const TASK_SCHEMA: &str = r#"{"type":"object","properties":{"task":{"type":"string","description":"The task to send to the agent, in natural language."}},"required":["task"],"additionalProperties":false}"#;

/// One skill of one remote agent.
pub struct A2aTool {
    spec: ToolSpec,
    link: Rc<AgentLink>,
}

impl A2aTool {
    /// The tool for `skill` of the agent behind `link`.
    pub fn new(skill: &Skill, link: Rc<AgentLink>) -> Result<Self, String> {
        let name = format!("{}_{}", sanitize(&link.agent), sanitize(&skill.id));
        let schema: Value =
            crate::core::json::parse::from_str(TASK_SCHEMA).map_err(|e| e.to_string())?;
        let spec = ToolSpec::new(name, skill.description.clone(), schema, "a2a")
            .map_err(|e| e.to_string())?;
        Ok(A2aTool { spec, link })
    }
}

impl Tool for A2aTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let link = self.link.clone();
        let task = match args.get("task") {
            Some(Value::String(text)) => text.clone(),
            Some(other) if !other.is_null() => crate::core::jsfmt::string_of(other),
            _ => String::new(),
        };
        Box::pin(async move { Call::new(link, ctx).run(&task).await })
    }
}

/// One call in progress: what `metadata` reports.
struct Call {
    link: Rc<AgentLink>,
    signal: Option<Signal>,
    /// The retry of a suspended call: the remote task it answers, and the answer.
    resumes: Option<(Continuation, Answer)>,
    budget: f64,
    start: f64,
    task_id: String,
    state: String,
    polls: u64,
}

impl Call {
    fn new(link: Rc<AgentLink>, ctx: Context) -> Self {
        let start = link.clock.now_ms();
        let budget = ctx.timeout_ms.unwrap_or(link.timeout_ms);
        let resumes = match (ctx.request, ctx.answer) {
            (Some(request), Some(answer)) => {
                continuation(&link.agent, &request).map(|to| (to, answer))
            }
            _ => None,
        };
        Call {
            link,
            signal: ctx.signal,
            resumes,
            budget,
            start,
            task_id: String::new(),
            state: "submitted".to_owned(),
            polls: 0,
        }
    }

    fn aborted(&self) -> bool {
        self.signal.as_ref().is_some_and(|s| s.is_aborted())
    }

    fn remaining(&self) -> f64 {
        (self.start + self.budget - self.link.clock.now_ms()).max(0.0)
    }

    async fn run(mut self, task: &str) -> ToolResult {
        let (headers, redactor) = self.link.expanded_headers();
        let message_id = (self.link.new_id)();
        let params = match self.resumes.take() {
            Some((to, answer)) => {
                self.task_id = to.task_id.clone();
                followup_params(self.link.endpoint.dialect, &to, &answer, &message_id)
            }
            None => send_params(self.link.endpoint.dialect, task, &message_id),
        };
        let mut current = match self.rpc(&headers, "SendMessage", &params).await {
            Ok(Reply::Task(task)) => task,
            Ok(Reply::Message(message)) => {
                // A direct answer: the agent made no task of it.
                self.state = "completed".to_owned();
                let text = super::wire::message_text(&message);
                return self.finish(ToolResult::ok(text));
            }
            Err(failure) => return self.failed(failure, &redactor),
        };
        if let Some(id) = current.get("id").and_then(Value::as_str) {
            self.task_id = id.to_owned();
        }
        if let Some(state) = state_of(&current) {
            self.state = state;
        }
        if self.task_id.is_empty() && !stops_at(&self.state) {
            let why = "A2A SendMessage: the Task in the response has no id, so it cannot be polled";
            return self.finish(ToolResult::error(why));
        }
        while !stops_at(&self.state) {
            if self.aborted() {
                return self.canceled();
            }
            if self.link.clock.now_ms() - self.start >= self.budget {
                return self.timed_out();
            }
            self.pause().await;
            if self.aborted() {
                return self.canceled();
            }
            let params = format!(r#"{{"id":{}}}"#, super::wire::quoted(&self.task_id));
            match self.rpc(&headers, "GetTask", &params).await {
                Ok(Reply::Task(task)) => {
                    self.polls += 1;
                    if let Some(state) = state_of(&task) {
                        self.state = state;
                    }
                    current = task;
                }
                Ok(Reply::Message(_)) => {
                    let why = "A2A GetTask: the response holds a message, not the Task";
                    return self.finish(ToolResult::error(why));
                }
                Err(failure) => return self.failed(failure, &redactor),
            }
        }
        if self.state == "completed" {
            return self.finish(ToolResult::ok(task_output(&current)));
        }
        let detail = status_text(&current);
        let mut output = format!("A2A task {} {}", self.task_id, self.state);
        if !detail.is_empty() {
            output.push_str(": ");
            output.push_str(&detail);
        }
        let output = redactor.apply(&output);
        if self.state == "input-required" {
            // The agent waits on us: a suspension the local waitFor (or a durable halt) answers.
            let mut request = input_request(&self.link.agent, &current, &(self.link.new_id)());
            request.prompt = redactor.apply(&request.prompt);
            let mut result = pending(request);
            result.output = output;
            return self.finish(result);
        }
        self.finish(ToolResult::error(output))
    }

    /// One JSON-RPC call within what is left of the budget.
    async fn rpc(
        &self,
        headers: &[(String, String)],
        method: &str,
        params: &str,
    ) -> Result<Reply, CallError> {
        let id = (self.link.new_id)();
        let result = call(
            &self.link.endpoint,
            headers,
            &self.link.clock,
            &id,
            method,
            params,
            self.remaining(),
            self.signal.as_ref(),
        )
        .await?;
        let shown = crate::core::json::text::to_text(&result);
        reply_of(result).ok_or_else(|| {
            CallError::Failed(format!(
                "A2A {method}: the result is not a Task: {}",
                super::wire::clip(&shown)
            ))
        })
    }

    /// Sleeps `pollEvery`, waking early when the signal fires.
    async fn pause(&self) {
        let sleep = self.link.clock.sleep(self.link.poll_every_ms);
        match &self.signal {
            Some(signal) => drop(select(sleep, signal.wait()).await),
            None => sleep.await,
        }
    }

    fn failed(self, failure: CallError, redactor: &Redactor) -> ToolResult {
        match failure {
            _ if self.aborted() => self.canceled(),
            CallError::Aborted => self.canceled(),
            CallError::TimedOut => self.timed_out(),
            CallError::Failed(text) => self.finish(ToolResult::error(redactor.apply(&text))),
        }
    }

    fn canceled(mut self) -> ToolResult {
        self.state = "canceled".to_owned();
        let output = format!("A2A task {} canceled", self.task_id);
        self.finish(ToolResult::error(output))
    }

    fn timed_out(self) -> ToolResult {
        let output = format!(
            "A2A task {} timed out after {}ms (state={})",
            self.task_id,
            crate::core::jsfmt::number(self.budget),
            self.state
        );
        self.finish(ToolResult::error(output))
    }

    /// `result` with `metadata = {agent, taskId, state, polls, ms}` (after a suspension's
    /// `pending`).
    fn finish(self, mut result: ToolResult) -> ToolResult {
        let ms = (self.link.clock.now_ms() - self.start).max(0.0).round() as u64;
        let mut metadata = result.metadata.take().unwrap_or_default();
        metadata.insert("agent".into(), Value::from(self.link.agent.as_str()));
        metadata.insert("taskId".into(), Value::from(self.task_id));
        metadata.insert("state".into(), Value::from(self.state));
        metadata.insert("polls".into(), Value::from(self.polls));
        metadata.insert("ms".into(), Value::from(ms));
        result.metadata = Some(metadata);
        result
    }
}
