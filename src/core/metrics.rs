//! Observability (SPEC §8): the semantic events `onMetric` receives, and a registry that turns
//! them into Prometheus text byte-identical to the reference ports'.

use crate::core::hashed::Hashed;
use crate::core::text::JoinWith;

/// Histogram buckets in seconds, fixed across every port.
pub const DURATION_BUCKETS: [f64; 10] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0];

crate::tagged! {
    /// One event, as `onMetric` receives it.
    pub enum MetricEvent as "internally tagged enum MetricEvent" by "event" {
        /// One model call (retries included).
        Llm = "llm" {
            /// The configured model.
            model: String = "model",
            /// `"ok"` or `"error"`.
            status: String = "status" as r#""ok" | "error""#,
            /// Duration in milliseconds.
            ms: f64 = "ms",
            /// Input tokens of this call.
            prompt_tokens: u64 = "promptTokens",
            /// Output tokens of this call.
            completion_tokens: u64 = "completionTokens",
            /// The content parts the request carried (on a call that succeeded), never their
            /// bytes; absent when it carried none.
            parts: Option<Vec<crate::core::parts::PartSummary>> = "parts",
        },
        /// One tool call (a retry after `waitFor` is its own event).
        Tool = "tool" {
            /// The tool's name.
            tool: String = "tool",
            /// The tool's source.
            source: String = "source",
            /// Whether it failed; a suspension is not a failure.
            is_error: bool = "isError",
            /// Whether it suspended.
            pending: bool = "pending",
            /// Duration in milliseconds.
            ms: f64 = "ms",
        },
        /// One run.
        Run = "run" {
            /// The configured model.
            model: String = "model",
            /// Model calls made.
            turns: u32 = "turns",
            /// Tool calls recorded.
            tool_calls: usize = "toolCalls",
            /// Tokens used.
            total_tokens: u64 = "totalTokens",
            /// Duration in milliseconds.
            ms: f64 = "ms",
            /// The error that ended it, if one did.
            error: Option<String> = "error",
        },
    }
}

#[derive(Default)]
struct Histogram {
    counts: [u64; 10],
    sum: f64,
    count: u64,
}

impl Histogram {
    fn observe(&mut self, seconds: f64) {
        self.sum += seconds;
        self.count += 1;
        for (count, bound) in self.counts.iter_mut().zip(DURATION_BUCKETS) {
            if seconds <= bound {
                *count += 1;
            }
        }
    }
}

/// One model's model calls: requests by status and their durations.
#[derive(Default)]
struct LlmSeries {
    ok: u64,
    error: u64,
    duration: Histogram,
}

/// One tool's calls: counts by (source, is_error, pending) and their durations.
#[derive(Default)]
struct ToolSeries {
    calls: Vec<(String, bool, bool, u64)>,
    duration: Histogram,
}

/// Cumulative counters and histograms fed by the same events `onMetric` sees. Series are kept
/// by their label values (a lookup by model or tool name per event); their label text is
/// written, and sorted as the reference ports sort it, only when rendered.
///
/// ```
/// # use toolnexus::core::metrics::Registry;
/// assert!(Registry::default().render().starts_with("# HELP toolnexus_llm_requests_total"));
/// ```
#[derive(Default)]
pub struct Registry {
    llm: Hashed<LlmSeries>,
    /// Prompt and completion tokens, once a model call succeeded.
    tokens: Option<[u64; 2]>,
    tools: Hashed<ToolSeries>,
    run_errors: Hashed<u64>,
}

impl Registry {
    /// Records one event.
    pub fn record(&mut self, event: &MetricEvent) {
        match event {
            MetricEvent::Llm {
                model,
                status,
                ms,
                prompt_tokens,
                completion_tokens,
                ..
            } => self.llm(
                model,
                status == "ok",
                *ms,
                [*prompt_tokens, *completion_tokens],
            ),
            MetricEvent::Tool {
                tool,
                source,
                is_error,
                pending,
                ms,
            } => self.tool(tool, source, *is_error, *pending, *ms),
            MetricEvent::Run { model, error, .. } => self.run(model, error.is_some()),
        }
    }

    /// Records an `llm` event given by its fields (`ok`: its status is `"ok"`; `tokens`:
    /// prompt and completion tokens).
    pub fn llm(&mut self, model: &str, ok: bool, ms: f64, [prompt, completion]: [u64; 2]) {
        let series = self.llm.get_or_default(model);
        if ok {
            series.ok += 1;
            let tokens = self.tokens.get_or_insert([0, 0]);
            tokens[0] += prompt;
            tokens[1] += completion;
        } else {
            series.error += 1;
        }
        series.duration.observe(ms / 1000.0);
    }

    /// Records a `tool` event given by its fields.
    pub fn tool(&mut self, tool: &str, source: &str, is_error: bool, pending: bool, ms: f64) {
        let series = self.tools.get_or_default(tool);
        let same =
            |c: &&mut (String, bool, bool, u64)| c.0 == source && c.1 == is_error && c.2 == pending;
        match series.calls.iter_mut().find(same) {
            Some(calls) => calls.3 += 1,
            None => series.calls.push((source.to_owned(), is_error, pending, 1)),
        }
        series.duration.observe(ms / 1000.0);
    }

    /// Records a `run` event given by its model and whether it has an `error`.
    pub fn run(&mut self, model: &str, failed: bool) {
        if failed {
            *self.run_errors.get_or_default(model) += 1;
        }
    }

    /// The Prometheus text exposition; before any event, only the `# HELP`/`# TYPE` lines.
    pub fn render(&self) -> String {
        let flag = |on: bool| if on { "true" } else { "false" };
        let mut scratch = String::new();
        let mut key = |pairs: &[(&str, &str)]| labels(&mut scratch, pairs).to_owned();
        let mut requests = Vec::new();
        let mut llm_duration = Vec::new();
        for (model, series) in self.llm.iter() {
            for (status, count) in [("ok", series.ok), ("error", series.error)] {
                if count > 0 {
                    requests.push((key(&[("model", model), ("status", status)]), count));
                }
            }
            llm_duration.push((key(&[("model", model)]), &series.duration));
        }
        let tokens = self.tokens.map_or_else(Vec::new, |[prompt, completion]| {
            vec![
                (key(&[("type", "completion")]), completion),
                (key(&[("type", "prompt")]), prompt),
            ]
        });
        let mut tool_calls = Vec::new();
        let mut tool_duration = Vec::new();
        for (tool, series) in self.tools.iter() {
            for (source, is_error, pending, count) in &series.calls {
                let pairs = [
                    ("tool", tool.as_str()),
                    ("source", source.as_str()),
                    ("is_error", flag(*is_error)),
                    ("pending", flag(*pending)),
                ];
                tool_calls.push((key(&pairs), *count));
            }
            tool_duration.push((key(&[("tool", tool)]), &series.duration));
        }
        let run_errors = self
            .run_errors
            .iter()
            .map(|(model, count)| (key(&[("model", model)]), *count))
            .collect();
        let mut out = Vec::new();
        counter(
            &mut out,
            "toolnexus_llm_requests_total",
            "Total LLM requests.",
            requests,
        );
        counter(
            &mut out,
            "toolnexus_llm_tokens_total",
            "Total tokens, by type.",
            tokens,
        );
        histogram(
            &mut out,
            "toolnexus_llm_request_duration_seconds",
            "LLM request duration in seconds.",
            llm_duration,
        );
        counter(
            &mut out,
            "toolnexus_tool_calls_total",
            "Total tool calls.",
            tool_calls,
        );
        histogram(
            &mut out,
            "toolnexus_tool_duration_seconds",
            "Tool execution duration in seconds.",
            tool_duration,
        );
        counter(
            &mut out,
            "toolnexus_run_errors_total",
            "Total run errors.",
            run_errors,
        );
        out.join_with("\n") + "\n"
    }
}

/// Series in the order of their label text (as a map keyed by it would hold them).
fn by_key<T>(series: &mut Vec<(String, T)>) {
    crate::core::sorting::sort_by(series, &|a, b| a.0.cmp(&b.0));
}

/// `k="v",k="v"` with values escaped (backslash, double quote, newline), written over `out`.
fn labels<'a>(out: &'a mut String, pairs: &[(&str, &str)]) -> &'a str {
    out.clear();
    for (i, (key, value)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(key);
        out.push_str("=\"");
        if value.bytes().any(|b| matches!(b, b'\\' | b'"' | b'\n')) {
            escape_label(out, value);
        } else {
            out.push_str(value);
        }
        out.push('"');
    }
    out
}

/// A label value with backslash, double quote and newline escaped, appended to `out`.
fn escape_label(out: &mut String, value: &str) {
    let mut plain = 0;
    for (at, byte) in value.bytes().enumerate() {
        let escaped = match byte {
            b'\\' => "\\\\",
            b'"' => "\\\"",
            b'\n' => "\\n",
            _ => continue,
        };
        out.push_str(value.get(plain..at).unwrap_or_default());
        out.push_str(escaped);
        plain = at + 1;
    }
    out.push_str(value.get(plain..).unwrap_or_default());
}

fn counter(out: &mut Vec<String>, name: &str, help: &str, mut series: Vec<(String, u64)>) {
    by_key(&mut series);
    out.push(format!("# HELP {name} {help}"));
    out.push(format!("# TYPE {name} counter"));
    for (key, value) in series {
        out.push(format!("{name}{{{key}}} {value}"));
    }
}

fn histogram(out: &mut Vec<String>, name: &str, help: &str, mut series: Vec<(String, &Histogram)>) {
    by_key(&mut series);
    out.push(format!("# HELP {name} {help}"));
    out.push(format!("# TYPE {name} histogram"));
    // The bucket edges are the same for every series: written once.
    let edges: Vec<String> = DURATION_BUCKETS.iter().map(|b| js_number(*b)).collect();
    for (key, h) in series {
        for (count, edge) in h.counts.iter().zip(&edges) {
            out.push(format!("{name}_bucket{{{key},le=\"{edge}\"}} {count}"));
        }
        out.push(format!("{name}_bucket{{{key},le=\"+Inf\"}} {}", h.count));
        out.push(format!("{name}_sum{{{key}}} {}", js_number(h.sum)));
        out.push(format!("{name}_count{{{key}}} {}", h.count));
    }
}

/// A number as JavaScript's `String(number)` writes it: `0.12`, `60`, `1e-7`, `1.5e+21`.
///
/// ```
/// # use toolnexus::core::metrics::js_number;
/// assert_eq!(js_number(0.12), "0.12");
/// assert_eq!(js_number(60.0), "60");
/// assert_eq!(js_number(1e-7), "1e-7");
/// assert_eq!(js_number(1.5e21), "1.5e+21");
/// ```
pub fn js_number(value: f64) -> String {
    crate::core::jsfmt::number(value)
}
