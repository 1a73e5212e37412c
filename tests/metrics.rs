//! The Prometheus registry (SPEC §8 Observability): the pinned golden text for the three
//! conformance events, only `# HELP`/`# TYPE` before any event, label escaping, the `pending`
//! label, series order and bucket edges (`js_number` has its own file).
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use crate::common;

use common::golden::{conformance_events, GOLDEN};
use toolnexus::core::metrics::{MetricEvent, Registry, DURATION_BUCKETS};

/// What renders before any event.
const EMPTY: &str = concat!(
    "# HELP toolnexus_llm_requests_total Total LLM requests.\n",
    "# TYPE toolnexus_llm_requests_total counter\n",
    "# HELP toolnexus_llm_tokens_total Total tokens, by type.\n",
    "# TYPE toolnexus_llm_tokens_total counter\n",
    "# HELP toolnexus_llm_request_duration_seconds LLM request duration in seconds.\n",
    "# TYPE toolnexus_llm_request_duration_seconds histogram\n",
    "# HELP toolnexus_tool_calls_total Total tool calls.\n",
    "# TYPE toolnexus_tool_calls_total counter\n",
    "# HELP toolnexus_tool_duration_seconds Tool execution duration in seconds.\n",
    "# TYPE toolnexus_tool_duration_seconds histogram\n",
    "# HELP toolnexus_run_errors_total Total run errors.\n",
    "# TYPE toolnexus_run_errors_total counter\n",
);

fn llm(model: &str, status: &'static str, ms: f64, p: u64, c: u64) -> MetricEvent {
    MetricEvent::Llm {
        model: model.into(),
        status: status.into(),
        ms,
        prompt_tokens: p,
        completion_tokens: c,
        parts: None,
    }
}

fn tool(name: &str, is_error: bool, pending: bool, ms: f64) -> MetricEvent {
    MetricEvent::Tool {
        tool: name.into(),
        source: "native".into(),
        is_error,
        pending,
        ms,
    }
}

fn run(model: &str, error: Option<&str>) -> MetricEvent {
    MetricEvent::Run {
        model: model.into(),
        turns: 2,
        tool_calls: 1,
        total_tokens: 16,
        ms: 200.0,
        error: error.map(str::to_owned),
    }
}

fn render(events: &[MetricEvent]) -> String {
    let mut r = Registry::default();
    for e in events {
        r.record(e);
    }
    r.render()
}

fn lines_with<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn the_three_conformance_events_render_the_golden_text() {
    assert_eq!(render(&conformance_events()), GOLDEN);
    assert!(GOLDEN.ends_with("counter\n"));
}

#[test]
fn before_any_event_only_help_and_type_lines_render() {
    assert_eq!(Registry::default().render(), EMPTY);
    assert!(EMPTY
        .lines()
        .all(|l| l.starts_with("# HELP ") || l.starts_with("# TYPE ")));
    // A successful run records nothing of its own.
    assert_eq!(render(&[run("m", None)]), EMPTY);
}

#[test]
fn label_values_escape_backslash_quote_and_newline() {
    let text = render(&[
        tool("a\\b\"c\nd", false, false, 1.0),
        llm("m\"x\\", "ok", 1.0, 0, 0),
    ]);
    assert!(text.contains("toolnexus_tool_calls_total{tool=\"a\\\\b\\\"c\\nd\",source=\"native\",is_error=\"false\",pending=\"false\"} 1\n"), "{text}");
    assert!(text.contains("toolnexus_tool_duration_seconds_sum{tool=\"a\\\\b\\\"c\\nd\"} 0.001\n"));
    assert!(text.contains("toolnexus_llm_requests_total{model=\"m\\\"x\\\\\",status=\"ok\"} 1\n"));
    assert_eq!(
        text.lines().count(),
        EMPTY.lines().count() + 1 + 2 + 13 + 1 + 13,
        "no raw newline splits a line"
    );
}

#[test]
fn a_suspension_is_pending_true_and_not_an_error() {
    let text = render(&[
        tool("approve", false, true, 5.0),
        tool("approve", false, false, 5.0),
        tool("approve", true, false, 5.0),
    ]);
    assert_eq!(lines_with(&text, "toolnexus_tool_calls_total{"), [
        "toolnexus_tool_calls_total{tool=\"approve\",source=\"native\",is_error=\"false\",pending=\"false\"} 1",
        "toolnexus_tool_calls_total{tool=\"approve\",source=\"native\",is_error=\"false\",pending=\"true\"} 1",
        "toolnexus_tool_calls_total{tool=\"approve\",source=\"native\",is_error=\"true\",pending=\"false\"} 1",
    ]);
    assert!(text.contains("toolnexus_tool_duration_seconds_count{tool=\"approve\"} 3\n"));
}

#[test]
fn failed_calls_count_as_errors_without_tokens_and_run_errors_by_model() {
    let text = render(&[
        llm("m", "error", 10.0, 5, 5),
        llm("m", "ok", 10.0, 1, 2),
        run("m", Some("boom")),
        run("m", Some("again")),
        run("n", None),
    ]);
    assert_eq!(
        lines_with(&text, "toolnexus_llm_requests_total{"),
        [
            "toolnexus_llm_requests_total{model=\"m\",status=\"error\"} 1",
            "toolnexus_llm_requests_total{model=\"m\",status=\"ok\"} 1",
        ]
    );
    assert_eq!(
        lines_with(&text, "toolnexus_llm_tokens_total{"),
        [
            "toolnexus_llm_tokens_total{type=\"completion\"} 2",
            "toolnexus_llm_tokens_total{type=\"prompt\"} 1",
        ]
    );
    assert_eq!(
        lines_with(&text, "toolnexus_run_errors_total{"),
        ["toolnexus_run_errors_total{model=\"m\"} 2"]
    );
    assert!(
        text.contains("toolnexus_llm_request_duration_seconds_count{model=\"m\"} 2\n"),
        "errors are timed too"
    );
}

#[test]
fn series_are_sorted_by_their_rendered_labels_and_counters_accumulate() {
    let text = render(&[
        llm("zeta", "ok", 1.0, 1, 1),
        llm("alpha", "ok", 1.0, 10, 20),
        llm("Beta", "ok", 1.0, 100, 200),
        llm("alpha", "ok", 1.0, 0, 0),
    ]);
    assert_eq!(
        lines_with(&text, "toolnexus_llm_requests_total{"),
        [
            "toolnexus_llm_requests_total{model=\"Beta\",status=\"ok\"} 1",
            "toolnexus_llm_requests_total{model=\"alpha\",status=\"ok\"} 2",
            "toolnexus_llm_requests_total{model=\"zeta\",status=\"ok\"} 1",
        ]
    );
    assert!(text.contains("toolnexus_llm_tokens_total{type=\"prompt\"} 111\n"));
    assert!(text.contains("toolnexus_llm_tokens_total{type=\"completion\"} 221\n"));
    let sums = lines_with(&text, "toolnexus_llm_request_duration_seconds_sum");
    assert_eq!(
        sums,
        [
            "toolnexus_llm_request_duration_seconds_sum{model=\"Beta\"} 0.001",
            "toolnexus_llm_request_duration_seconds_sum{model=\"alpha\"} 0.002",
            "toolnexus_llm_request_duration_seconds_sum{model=\"zeta\"} 0.001",
        ]
    );
}

#[test]
fn buckets_are_cumulative_and_inclusive_at_their_edges() {
    // Exactly on each edge, and just above the last one.
    let events: Vec<_> = DURATION_BUCKETS
        .iter()
        .map(|s| tool("t", false, false, s * 1000.0))
        .chain([tool("t", false, false, 60_001.0)])
        .collect();
    let text = render(&events);
    let buckets: Vec<_> = lines_with(&text, "toolnexus_tool_duration_seconds_bucket")
        .into_iter()
        .map(|l| l.rsplit_once(' ').unwrap().1.to_owned())
        .collect();
    assert_eq!(
        buckets,
        ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]
    );
    let les: Vec<_> = lines_with(&text, "toolnexus_tool_duration_seconds_bucket")
        .into_iter()
        .map(|l| {
            l.split("le=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        les,
        ["0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60", "+Inf"]
    );
    assert!(
        text.contains("toolnexus_tool_duration_seconds_sum{tool=\"t\"} 169.401\n"),
        "{text}"
    );
}

#[test]
fn the_sum_is_a_float_sum_printed_as_javascript_would() {
    // 0.1 + 0.2 seconds, accumulated in that order, is 0.30000000000000004 in every port.
    let text = render(&[
        tool("t", false, false, 100.0),
        tool("t", false, false, 200.0),
    ]);
    assert!(
        text.contains("toolnexus_tool_duration_seconds_sum{tool=\"t\"} 0.30000000000000004\n"),
        "{text}"
    );
}
