//! Host tests of whole runs: the client loop, suspension and resume, retries, the MCP client over
//! real stdio and HTTP, metrics of runs. One test binary (linking dominates a test build), each
//! file a module; `tests/units/main.rs` holds the rest.
//! A new test file: add it here as the others are.

#[path = "../common/mod.rs"]
mod common;
#[path = "../mcp_common/mod.rs"]
mod mcp_common;
#[path = "../resume_support/mod.rs"]
mod resume_support;

#[path = "../a2a_input.rs"]
mod a2a_input;
#[path = "../a2a_outbound.rs"]
mod a2a_outbound;
#[path = "../agents_completion.rs"]
mod agents_completion;
#[path = "../agents_conformance.rs"]
mod agents_conformance;
#[path = "../agents_escalation.rs"]
mod agents_escalation;
#[path = "../agents_hooks.rs"]
mod agents_hooks;
#[path = "../agents_props.rs"]
mod agents_props;
#[path = "../agents_restore.rs"]
mod agents_restore;
#[path = "../agents_resume.rs"]
mod agents_resume;
#[path = "../agents_resume_props.rs"]
mod agents_resume_props;
#[path = "../agents_runtime.rs"]
mod agents_runtime;
#[path = "../client_abort.rs"]
mod client_abort;
#[path = "../client_errors.rs"]
mod client_errors;
#[path = "../client_hooks.rs"]
mod client_hooks;
#[path = "../client_loop.rs"]
mod client_loop;
#[path = "../client_memory.rs"]
mod client_memory;
#[path = "../client_suspend.rs"]
mod client_suspend;
#[path = "../client_translate.rs"]
mod client_translate;
#[path = "../client_wire.rs"]
mod client_wire;
#[path = "../host_history.rs"]
mod host_history;
#[path = "../mcp_auth.rs"]
mod mcp_auth;
#[path = "../mcp_elicit.rs"]
mod mcp_elicit;
#[path = "../mcp_http.rs"]
mod mcp_http;
#[path = "../mcp_listen.rs"]
mod mcp_listen;
#[path = "../mcp_load.rs"]
mod mcp_load;
#[path = "../mcp_stdio.rs"]
mod mcp_stdio;
#[path = "../mcp_stream.rs"]
mod mcp_stream;
#[path = "../mcp_timeout.rs"]
mod mcp_timeout;
#[path = "../metrics_failures.rs"]
mod metrics_failures;
#[path = "../metrics_run.rs"]
mod metrics_run;
#[path = "../request_cache.rs"]
mod request_cache;
#[path = "../resume_balance.rs"]
mod resume_balance;
#[path = "../resume_cases.rs"]
mod resume_cases;
#[path = "../resume_relay.rs"]
mod resume_relay;
#[path = "../retry_after.rs"]
mod retry_after;
#[path = "../retry_deadline.rs"]
mod retry_deadline;
#[path = "../retry_policy.rs"]
mod retry_policy;
#[path = "../stream_run.rs"]
mod stream_run;
#[path = "../stream_suspend.rs"]
mod stream_suspend;
