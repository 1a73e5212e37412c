//! What a runtime is built from: the model settings every handle shares and the runtime's
//! options, with the reference's option keys named beside each field.

use std::rc::Rc;

use super::registry::Registry;
use crate::core::client::config::Style;
use crate::core::client::hooks::{Hooks, WaitFor};
use crate::core::client::store::Store;
use crate::core::client::telemetry::MetricSink;
use crate::core::host::{Clock, Http, Spawn};
use crate::core::jsfmt::number;

/// Where the runtime's model calls go (the client settings every handle shares).
#[derive(Debug, Clone)]
pub struct LlmSettings {
    /// The endpoint's base URL.
    pub base_url: String,
    /// Its wire format.
    pub style: Style,
    /// The API key, if any.
    pub api_key: Option<String>,
    /// The model an agent whose `model` is unset or `"inherit"` uses.
    pub model: String,
}

impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            base_url: "http://mock.local".into(),
            style: Style::OpenAi,
            api_key: None,
            model: "inherit".into(),
        }
    }
}

/// What a runtime is built from (the reference's option keys in comments).
pub struct RuntimeOptions {
    /// `registry`: the checked agents.
    pub registry: Registry,
    /// `llm`.
    pub llm: LlmSettings,
    /// `fetch`: the transport of every model call.
    pub http: Rc<dyn Http>,
    /// `clock`: every timeout and deadline.
    pub clock: Rc<dyn Clock>,
    /// Where background turns run.
    pub spawner: Rc<dyn Spawn>,
    /// `store`: the one conversation store of all handles (id = handle id); default in memory.
    pub store: Option<Rc<dyn Store>>,
    /// `inboxCap` (default 8).
    pub inbox_cap: Option<usize>,
    /// `maxConcurrentTurns` (default 8).
    pub max_concurrent_turns: Option<usize>,
    /// `shutdownMs`: how long a graceful close lets a running turn finish (default 200).
    pub shutdown_ms: Option<f64>,
    /// `hooks`: §8 hooks of every agent whose def sets none.
    pub hooks: Option<Rc<dyn Hooks>>,
    /// `onMetric`: §8 metric sink of every agent whose def sets none.
    pub on_metric: Option<Rc<dyn MetricSink>>,
    /// `waitFor`: the runtime's own interpreter, the last hop before a durable pending: it
    /// answers what a top-level handle's subtree raises when nothing nearer does.
    pub wait_for: Option<Rc<dyn WaitFor>>,
}

impl RuntimeOptions {
    /// Options with the defaults for everything the three arguments do not give.
    pub fn new(
        registry: Registry,
        http: Rc<dyn Http>,
        clock: Rc<dyn Clock>,
        spawner: Rc<dyn Spawn>,
    ) -> Self {
        RuntimeOptions {
            registry,
            llm: LlmSettings::default(),
            http,
            clock,
            spawner,
            store: None,
            inbox_cap: None,
            max_concurrent_turns: None,
            shutdown_ms: None,
            hooks: None,
            on_metric: None,
            wait_for: None,
        }
    }
}

impl RuntimeOptions {
    /// The first option out of range, as a sentence (`AgentRuntime::new` refuses it).
    pub fn check(&self) -> Result<(), String> {
        if self.inbox_cap == Some(0) {
            return Err("inboxCap must be at least 1 (got 0)".into());
        }
        if self.max_concurrent_turns == Some(0) {
            return Err("maxConcurrentTurns must be at least 1 (got 0)".into());
        }
        match self.shutdown_ms {
            Some(ms) if !(ms.is_finite() && ms >= 0.0) => Err(format!(
                "shutdownMs must be a number of milliseconds, 0 or more (got {})",
                number(ms)
            )),
            _ => Ok(()),
        }
    }
}
