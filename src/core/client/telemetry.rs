//! Where a run reports what happens: metric events (to the registry and `onMetric`) and, for a
//! streamed run, the events its consumer iterates.

use crate::core::json::value::Value;
use std::cell::RefCell;
use std::rc::Rc;

use super::error::RunError;
use super::result::RunResult;
use crate::core::metrics::{MetricEvent, Registry};
use crate::core::parts::PartSummary;
use crate::core::types::Request;
use crate::core::wire::Usage;

/// The host's `onMetric`. It must not fail the run: an implementation swallows its own errors.
pub trait MetricSink {
    /// Receives one event.
    fn emit(&self, event: &MetricEvent);
}

/// The client's registry plus the host's sink.
///
/// ```
/// # use toolnexus::core::client::telemetry::Telemetry;
/// let t = Telemetry::default();
/// assert!(t.render().contains("# TYPE toolnexus_run_errors_total counter"));
/// ```
pub struct Telemetry {
    registry: RefCell<Registry>,
    /// Whether events are counted in `registry` (a sink-only telemetry, whose registry no one
    /// reads, skips it).
    counting: bool,
    sink: Option<Rc<dyn MetricSink>>,
}

impl Default for Telemetry {
    fn default() -> Self {
        Telemetry::with_sink(None)
    }
}

impl Telemetry {
    /// A registry that also forwards every event to `sink`.
    pub fn with_sink(sink: Option<Rc<dyn MetricSink>>) -> Self {
        Telemetry {
            registry: RefCell::new(Registry::default()),
            counting: true,
            sink,
        }
    }

    /// Events forwarded to `sink` only, counted nowhere: for a client whose `metrics()` no one
    /// can read (the agent runtime's per-turn clients), so a model call costs no registry work.
    ///
    /// ```
    /// # use toolnexus::core::client::telemetry::Telemetry;
    /// let t = Telemetry::sink_only(None);
    /// t.run("m", 1, 0, 0, 1.0, None);
    /// assert!(!t.render().contains("toolnexus_llm_requests_total{"));
    /// ```
    pub fn sink_only(sink: Option<Rc<dyn MetricSink>>) -> Self {
        Telemetry {
            counting: false,
            ..Telemetry::with_sink(sink)
        }
    }

    /// Whether events reach a host sink (so whether one is worth building).
    pub fn has_sink(&self) -> bool {
        self.sink.is_some()
    }

    /// Records an event and forwards it.
    pub fn emit(&self, event: MetricEvent) {
        if self.counting {
            self.registry.borrow_mut().record(&event);
        }
        if let Some(sink) = &self.sink {
            sink.emit(&event);
        }
    }

    /// The `llm` event of one model call: the registry records it from its fields, and the
    /// event (owning copies of them) is made only for a sink. `parts` (what the request
    /// carried) are named on a call that succeeded.
    pub fn llm(
        &self,
        model: &str,
        ok: bool,
        ms: f64,
        usage: Usage,
        parts: Option<Vec<PartSummary>>,
    ) {
        let tokens = [usage.prompt_tokens, usage.completion_tokens];
        if self.counting {
            self.registry.borrow_mut().llm(model, ok, ms, tokens);
        }
        if let Some(sink) = &self.sink {
            sink.emit(&MetricEvent::Llm {
                model: model.to_owned(),
                status: if ok { "ok" } else { "error" }.to_owned(),
                ms,
                prompt_tokens: usage.prompt_tokens,
                completion_tokens: usage.completion_tokens,
                parts: parts.filter(|p| ok && !p.is_empty()),
            });
        }
    }

    /// The `tool` event of one call, made only for a sink (as [`llm`](Self::llm)'s).
    pub fn tool(&self, tool: &str, source: &str, is_error: bool, pending: bool, ms: f64) {
        if self.counting {
            self.registry
                .borrow_mut()
                .tool(tool, source, is_error, pending, ms);
        }
        if let Some(sink) = &self.sink {
            sink.emit(&MetricEvent::Tool {
                tool: tool.to_owned(),
                source: source.to_owned(),
                is_error,
                pending,
                ms,
            });
        }
    }

    /// The `run` event of one run, made only for a sink (as [`llm`](Self::llm)'s): `error`
    /// is the error that ended it, written only then.
    pub fn run(
        &self,
        model: &str,
        turns: u32,
        tool_calls: usize,
        total_tokens: u64,
        ms: f64,
        error: Option<&RunError>,
    ) {
        if self.counting {
            self.registry.borrow_mut().run(model, error.is_some());
        }
        if let Some(sink) = &self.sink {
            sink.emit(&MetricEvent::Run {
                model: model.to_owned(),
                turns,
                tool_calls,
                total_tokens,
                ms,
                error: error.map(ToString::to_string),
            });
        }
    }

    /// The Prometheus text of everything recorded so far.
    pub fn render(&self) -> String {
        self.registry.borrow().render()
    }
}

crate::tagged! {
    /// One event of a streamed run, as `for await` yields it.
    pub enum StreamEvent as "internally tagged enum StreamEvent" by "type" {
        /// Text as it arrives.
        Text = "text" {
            /// The new text.
            delta: String = "delta",
        },
        /// A tool call the model made (before it runs).
        ToolCall = "tool_call" {
            /// The call id.
            id: String = "id",
            /// The tool.
            name: String = "name",
            /// Its arguments (`{}` when they were not valid JSON).
            args: Value = "args" as "Record<string, unknown>",
        },
        /// A tool call's result.
        ToolResult = "tool_result" {
            /// The call id.
            id: String = "id",
            /// The tool.
            name: String = "name",
            /// Its output.
            output: String = "output",
            /// Whether it failed.
            is_error: bool = "isError",
            /// The content parts it returned beside its output (SPEC §1B); absent when none.
            parts: Option<Vec<crate::core::parts::ContentPart>> = "parts",
        },
        /// Usage so far, once the run is over.
        Usage = "usage" {
            /// The run's usage.
            usage: Usage = "usage",
        },
        /// A tool suspended; emitted before `waitFor` runs.
        Pending = "pending" {
            /// What it asks.
            request: Request = "request",
        },
        /// The run's result.
        Done = "done" {
            /// The result.
            result: Box<RunResult> = "result",
        },
    }
}

/// Receives a streamed run's events.
pub trait RunEvents {
    /// One event.
    fn emit(&self, event: StreamEvent);
    /// Completes once the consumer has taken what was emitted and asked for more; the loop
    /// waits on it before calling `waitFor`, so a page renders a `pending` event first.
    fn delivered(&self) -> crate::core::host::LocalBoxFuture<'static, ()> {
        Box::pin(async {})
    }
}
