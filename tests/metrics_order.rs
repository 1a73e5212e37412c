//! The registry against a plain model of it: every series keyed by its label text in an
//! ordered map, as the reference ports keep them. For any sequence of events with any names
//! (spaces, quotes, backslashes, newlines, characters that sort before `"`, non-ASCII), the
//! registry renders exactly what the model renders: the same series, values and order.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use std::collections::BTreeMap;
use toolnexus::core::metrics::{js_number, MetricEvent, Registry, DURATION_BUCKETS};

/// `k="v",…`, values escaped as the exposition format asks.
fn labels(pairs: &[(&str, &str)]) -> String {
    let escape = |v: &str| {
        v.replace('\\', "\\\\")
            .replace('"', "\\\"")
            .replace('\n', "\\n")
    };
    let parts: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{k}=\"{}\"", escape(v)))
        .collect();
    parts.join(",")
}

#[derive(Default)]
struct Model {
    counters: [BTreeMap<String, u64>; 4], // requests, tokens, tool calls, run errors
    histograms: [BTreeMap<String, Vec<f64>>; 2], // llm, tool: the observed seconds
}

impl Model {
    fn record(&mut self, event: &MetricEvent) {
        let flag = |b: bool| if b { "true" } else { "false" };
        match event {
            MetricEvent::Llm {
                model,
                status,
                ms,
                prompt_tokens,
                completion_tokens,
                ..
            } => {
                *self.counters[0]
                    .entry(labels(&[("model", model), ("status", status)]))
                    .or_default() += 1;
                if status == "ok" {
                    *self.counters[1]
                        .entry(labels(&[("type", "prompt")]))
                        .or_default() += prompt_tokens;
                    *self.counters[1]
                        .entry(labels(&[("type", "completion")]))
                        .or_default() += completion_tokens;
                }
                self.histograms[0]
                    .entry(labels(&[("model", model)]))
                    .or_default()
                    .push(ms / 1000.0);
            }
            MetricEvent::Tool {
                tool,
                source,
                is_error,
                pending,
                ms,
            } => {
                let key = labels(&[
                    ("tool", tool),
                    ("source", source),
                    ("is_error", flag(*is_error)),
                    ("pending", flag(*pending)),
                ]);
                *self.counters[2].entry(key).or_default() += 1;
                self.histograms[1]
                    .entry(labels(&[("tool", tool)]))
                    .or_default()
                    .push(ms / 1000.0);
            }
            MetricEvent::Run { model, error, .. } => {
                if error.is_some() {
                    *self.counters[3]
                        .entry(labels(&[("model", model)]))
                        .or_default() += 1;
                }
            }
        }
    }

    fn render(&self) -> String {
        let mut out = String::new();
        let counter = |out: &mut String, name: &str, help: &str, map: &BTreeMap<String, u64>| {
            out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} counter\n"));
            for (k, v) in map {
                out.push_str(&format!("{name}{{{k}}} {v}\n"));
            }
        };
        let histogram =
            |out: &mut String, name: &str, help: &str, map: &BTreeMap<String, Vec<f64>>| {
                out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} histogram\n"));
                for (k, seen) in map {
                    for edge in DURATION_BUCKETS {
                        let n = seen.iter().filter(|s| **s <= edge).count();
                        out.push_str(&format!(
                            "{name}_bucket{{{k},le=\"{}\"}} {n}\n",
                            js_number(edge)
                        ));
                    }
                    let sum = seen.iter().fold(0.0, |a, s| a + s);
                    out.push_str(&format!(
                        "{name}_bucket{{{k},le=\"+Inf\"}} {}\n",
                        seen.len()
                    ));
                    out.push_str(&format!(
                        "{name}_sum{{{k}}} {}\n{name}_count{{{k}}} {}\n",
                        js_number(sum),
                        seen.len()
                    ));
                }
            };
        counter(
            &mut out,
            "toolnexus_llm_requests_total",
            "Total LLM requests.",
            &self.counters[0],
        );
        counter(
            &mut out,
            "toolnexus_llm_tokens_total",
            "Total tokens, by type.",
            &self.counters[1],
        );
        histogram(
            &mut out,
            "toolnexus_llm_request_duration_seconds",
            "LLM request duration in seconds.",
            &self.histograms[0],
        );
        counter(
            &mut out,
            "toolnexus_tool_calls_total",
            "Total tool calls.",
            &self.counters[2],
        );
        histogram(
            &mut out,
            "toolnexus_tool_duration_seconds",
            "Tool execution duration in seconds.",
            &self.histograms[1],
        );
        counter(
            &mut out,
            "toolnexus_run_errors_total",
            "Total run errors.",
            &self.counters[3],
        );
        out
    }
}

fn name() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop::sample::select(vec!['a', 'b', ' ', '!', '"', '\\', '\n', '-', 'é', '#']),
        0..4,
    )
    .prop_map(|c| c.into_iter().collect())
}

fn event() -> impl Strategy<Value = MetricEvent> {
    prop_oneof![
        (
            name(),
            any::<bool>(),
            0.0f64..70_000.0,
            0u64..100,
            0u64..100
        )
            .prop_map(|(model, ok, ms, p, c)| MetricEvent::Llm {
                model,
                status: if ok { "ok" } else { "error" }.into(),
                ms,
                prompt_tokens: p,
                completion_tokens: c,
                parts: None,
            }),
        (
            name(),
            name(),
            any::<bool>(),
            any::<bool>(),
            0.0f64..70_000.0
        )
            .prop_map(|(tool, source, is_error, pending, ms)| MetricEvent::Tool {
                tool,
                source,
                is_error,
                pending,
                ms,
            }),
        (name(), any::<bool>()).prop_map(|(model, failed)| MetricEvent::Run {
            model,
            turns: 1,
            tool_calls: 0,
            total_tokens: 0,
            ms: 1.0,
            error: failed.then(|| "boom".to_owned()),
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_registry_renders_what_a_map_keyed_by_label_text_renders(events in proptest::collection::vec(event(), 0..30)) {
        let (mut registry, mut model) = (Registry::default(), Model::default());
        for e in &events {
            registry.record(e);
            model.record(e);
        }
        prop_assert_eq!(registry.render(), model.render());
    }
}
