//! Observability (SPEC §8): the semantic events `onMetric` receives, and a registry that turns
//! them into Prometheus text byte-identical to the reference ports'.

use serde::Serialize;
use std::collections::BTreeMap;

/// Histogram buckets in seconds, fixed across every port.
pub const DURATION_BUCKETS: [f64; 10] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0];

/// One event, as `onMetric` receives it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum MetricEvent {
    /// One model call (retries included).
    #[serde(rename_all = "camelCase")]
    Llm {
        /// The configured model.
        model: String,
        /// `"ok"` or `"error"`.
        status: &'static str,
        /// Duration in milliseconds.
        ms: f64,
        /// Input tokens of this call.
        prompt_tokens: u64,
        /// Output tokens of this call.
        completion_tokens: u64,
    },
    /// One tool call (a retry after `waitFor` is its own event).
    #[serde(rename_all = "camelCase")]
    Tool {
        /// The tool's name.
        tool: String,
        /// The tool's source.
        source: String,
        /// Whether it failed; a suspension is not a failure.
        is_error: bool,
        /// Whether it suspended.
        pending: bool,
        /// Duration in milliseconds.
        ms: f64,
    },
    /// One run.
    #[serde(rename_all = "camelCase")]
    Run {
        /// The configured model.
        model: String,
        /// Model calls made.
        turns: u32,
        /// Tool calls recorded.
        tool_calls: usize,
        /// Tokens used.
        total_tokens: u64,
        /// Duration in milliseconds.
        ms: f64,
        /// The error that ended it, if one did.
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
}

#[derive(Default)]
struct Histogram {
    counts: [u64; 10],
    sum: f64,
    count: u64,
}

/// Cumulative counters and histograms fed by the same events `onMetric` sees.
///
/// ```
/// # use toolnexus::core::metrics::Registry;
/// assert!(Registry::default().render().starts_with("# HELP toolnexus_llm_requests_total"));
/// ```
#[derive(Default)]
pub struct Registry {
    llm_requests: BTreeMap<String, u64>,
    llm_tokens: BTreeMap<String, u64>,
    llm_duration: BTreeMap<String, Histogram>,
    tool_calls: BTreeMap<String, u64>,
    tool_duration: BTreeMap<String, Histogram>,
    run_errors: BTreeMap<String, u64>,
    /// Where each event's label sets are written; a key is allocated only for a new series.
    scratch: String,
}

impl Registry {
    /// Records one event.
    pub fn record(&mut self, event: &MetricEvent) {
        let Registry {
            llm_requests,
            llm_tokens,
            llm_duration,
            tool_calls,
            tool_duration,
            run_errors,
            scratch,
        } = self;
        match event {
            MetricEvent::Llm {
                model,
                status,
                ms,
                prompt_tokens,
                completion_tokens,
            } => {
                add(
                    llm_requests,
                    labels(scratch, &[("model", model), ("status", status)]),
                    1,
                );
                if *status == "ok" {
                    add(llm_tokens, r#"type="prompt""#, *prompt_tokens);
                    add(llm_tokens, r#"type="completion""#, *completion_tokens);
                }
                observe(
                    llm_duration,
                    labels(scratch, &[("model", model)]),
                    ms / 1000.0,
                );
            }
            MetricEvent::Tool {
                tool,
                source,
                is_error,
                pending,
                ms,
            } => {
                let flag = |on: bool| if on { "true" } else { "false" };
                let key = labels(
                    scratch,
                    &[
                        ("tool", tool),
                        ("source", source),
                        ("is_error", flag(*is_error)),
                        ("pending", flag(*pending)),
                    ],
                );
                add(tool_calls, key, 1);
                observe(
                    tool_duration,
                    labels(scratch, &[("tool", tool)]),
                    ms / 1000.0,
                );
            }
            MetricEvent::Run { model, error, .. } => {
                if error.is_some() {
                    add(run_errors, labels(scratch, &[("model", model)]), 1);
                }
            }
        }
    }

    /// The Prometheus text exposition; before any event, only the `# HELP`/`# TYPE` lines.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        counter(
            &mut out,
            "toolnexus_llm_requests_total",
            "Total LLM requests.",
            &self.llm_requests,
        );
        counter(
            &mut out,
            "toolnexus_llm_tokens_total",
            "Total tokens, by type.",
            &self.llm_tokens,
        );
        histogram(
            &mut out,
            "toolnexus_llm_request_duration_seconds",
            "LLM request duration in seconds.",
            &self.llm_duration,
        );
        counter(
            &mut out,
            "toolnexus_tool_calls_total",
            "Total tool calls.",
            &self.tool_calls,
        );
        histogram(
            &mut out,
            "toolnexus_tool_duration_seconds",
            "Tool execution duration in seconds.",
            &self.tool_duration,
        );
        counter(
            &mut out,
            "toolnexus_run_errors_total",
            "Total run errors.",
            &self.run_errors,
        );
        out.join("\n") + "\n"
    }
}

fn add(map: &mut BTreeMap<String, u64>, key: &str, by: u64) {
    match map.get_mut(key) {
        Some(count) => *count += by,
        None => {
            map.insert(key.to_owned(), by);
        }
    }
}

fn observe(map: &mut BTreeMap<String, Histogram>, key: &str, seconds: f64) {
    if !map.contains_key(key) {
        map.insert(key.to_owned(), Histogram::default());
    }
    let Some(histogram) = map.get_mut(key) else {
        return;
    };
    histogram.sum += seconds;
    histogram.count += 1;
    for (count, bound) in histogram.counts.iter_mut().zip(DURATION_BUCKETS) {
        if seconds <= bound {
            *count += 1;
        }
    }
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
        out.push('"');
    }
    out
}

fn counter(out: &mut Vec<String>, name: &str, help: &str, map: &BTreeMap<String, u64>) {
    out.push(format!("# HELP {name} {help}"));
    out.push(format!("# TYPE {name} counter"));
    for (key, value) in map {
        out.push(format!("{name}{{{key}}} {value}"));
    }
}

fn histogram(out: &mut Vec<String>, name: &str, help: &str, map: &BTreeMap<String, Histogram>) {
    out.push(format!("# HELP {name} {help}"));
    out.push(format!("# TYPE {name} histogram"));
    // The bucket edges are the same for every series: written once.
    let edges: Vec<String> = DURATION_BUCKETS.iter().map(|b| js_number(*b)).collect();
    for (key, h) in map {
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
