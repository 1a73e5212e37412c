//! The metrics conformance fixture as the project's own pinned facts: the three events of
//! `shared/conformance/metrics/README.md` and the exact text every port renders for them.

use toolnexus::core::metrics::MetricEvent;

/// The golden text of `shared/conformance/metrics/golden.prom`, pinned here as a fact.
pub const GOLDEN: &str = concat!(
    "# HELP toolnexus_llm_requests_total Total LLM requests.\n",
    "# TYPE toolnexus_llm_requests_total counter\n",
    "toolnexus_llm_requests_total{model=\"gpt-x\",status=\"ok\"} 1\n",
    "# HELP toolnexus_llm_tokens_total Total tokens, by type.\n",
    "# TYPE toolnexus_llm_tokens_total counter\n",
    "toolnexus_llm_tokens_total{type=\"completion\"} 2\n",
    "toolnexus_llm_tokens_total{type=\"prompt\"} 3\n",
    "# HELP toolnexus_llm_request_duration_seconds LLM request duration in seconds.\n",
    "# TYPE toolnexus_llm_request_duration_seconds histogram\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"0.05\"} 0\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"0.1\"} 0\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"0.25\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"0.5\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"1\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"2.5\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"5\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"10\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"30\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"60\"} 1\n",
    "toolnexus_llm_request_duration_seconds_bucket{model=\"gpt-x\",le=\"+Inf\"} 1\n",
    "toolnexus_llm_request_duration_seconds_sum{model=\"gpt-x\"} 0.12\n",
    "toolnexus_llm_request_duration_seconds_count{model=\"gpt-x\"} 1\n",
    "# HELP toolnexus_tool_calls_total Total tool calls.\n",
    "# TYPE toolnexus_tool_calls_total counter\n",
    "toolnexus_tool_calls_total{tool=\"add\",source=\"native\",is_error=\"false\",pending=\"false\"} 1\n",
    "# HELP toolnexus_tool_duration_seconds Tool execution duration in seconds.\n",
    "# TYPE toolnexus_tool_duration_seconds histogram\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"0.05\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"0.1\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"0.25\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"0.5\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"1\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"2.5\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"5\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"10\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"30\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"60\"} 1\n",
    "toolnexus_tool_duration_seconds_bucket{tool=\"add\",le=\"+Inf\"} 1\n",
    "toolnexus_tool_duration_seconds_sum{tool=\"add\"} 0.04\n",
    "toolnexus_tool_duration_seconds_count{tool=\"add\"} 1\n",
    "# HELP toolnexus_run_errors_total Total run errors.\n",
    "# TYPE toolnexus_run_errors_total counter\n",
);

/// The conformance events: an `llm`, a (non-suspended) `tool`, a successful `run`.
pub fn conformance_events() -> Vec<MetricEvent> {
    vec![
        MetricEvent::Llm {
            model: "gpt-x".into(),
            status: "ok".into(),
            ms: 120.0,
            prompt_tokens: 3,
            completion_tokens: 2,
            parts: None,
        },
        MetricEvent::Tool {
            tool: "add".into(),
            source: "native".into(),
            is_error: false,
            pending: false,
            ms: 40.0,
        },
        MetricEvent::Run {
            model: "gpt-x".into(),
            turns: 2,
            tool_calls: 1,
            total_tokens: 16,
            ms: 200.0,
            error: None,
        },
    ]
}
