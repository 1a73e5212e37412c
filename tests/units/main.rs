//! Host tests of the core's parts: JSON, records, values, schemas, wire formats and streams,
//! skills, built-ins, metrics text, the toolkit. One test binary (linking dominates a test build),
//! each file a module; `tests/runs/main.rs` holds the whole runs.
//! A new test file: add it here as the others are.

#[path = "../builtins_support/mod.rs"]
mod builtins_support;
#[path = "../common/mod.rs"]
mod common;
#[path = "../fnv_collisions/mod.rs"]
mod fnv_collisions;
#[path = "../json_style/mod.rs"]
mod json_style;
#[path = "../skills_common/mod.rs"]
mod skills_common;

#[path = "../builtins_bash.rs"]
mod builtins_bash;
#[path = "../builtins_files.rs"]
mod builtins_files;
#[path = "../builtins_fs.rs"]
mod builtins_fs;
#[path = "../builtins_patch.rs"]
mod builtins_patch;
#[path = "../builtins_question.rs"]
mod builtins_question;
#[path = "../builtins_search.rs"]
mod builtins_search;
#[path = "../builtins_web.rs"]
mod builtins_web;
#[path = "../conformance_skills.rs"]
mod conformance_skills;
#[path = "../content_parts.rs"]
mod content_parts;
#[path = "../hashed.rs"]
mod hashed;
#[path = "../home.rs"]
mod home;
#[path = "../input_schema.rs"]
mod input_schema;
#[path = "../js_number.rs"]
mod js_number;
#[path = "../json_parse.rs"]
mod json_parse;
#[path = "../json_read.rs"]
mod json_read;
#[path = "../json_scan.rs"]
mod json_scan;
#[path = "../json_text.rs"]
mod json_text;
#[path = "../json_write.rs"]
mod json_write;
#[path = "../m2m_grants.rs"]
mod m2m_grants;
#[path = "../mcp_config.rs"]
mod mcp_config;
#[path = "../mcp_content.rs"]
mod mcp_content;
#[path = "../mcp_modern.rs"]
mod mcp_modern;
#[path = "../metrics.rs"]
mod metrics;
#[path = "../metrics_conformance.rs"]
mod metrics_conformance;
#[path = "../metrics_js_number.rs"]
mod metrics_js_number;
#[path = "../metrics_order.rs"]
mod metrics_order;
#[path = "../names.rs"]
mod names;
#[path = "../result_json.rs"]
mod result_json;
#[path = "../mcp_common/ring_signer.rs"]
mod ring_signer;
#[path = "../schema.rs"]
mod schema;
#[path = "../serve_elicit.rs"]
mod serve_elicit;
#[path = "../serve_mcp.rs"]
mod serve_mcp;
#[path = "../skills_data.rs"]
mod skills_data;
#[path = "../skills_dir.rs"]
mod skills_dir;
#[path = "../skills_select.rs"]
mod skills_select;
#[path = "../skills_yaml.rs"]
mod skills_yaml;
#[path = "../sorting.rs"]
mod sorting;
#[path = "../stream_anthropic.rs"]
mod stream_anthropic;
#[path = "../stream_chunk_fast.rs"]
mod stream_chunk_fast;
#[path = "../stream_errors.rs"]
mod stream_errors;
#[path = "../stream_openai.rs"]
mod stream_openai;
#[path = "../stream_response_text.rs"]
mod stream_response_text;
#[path = "../stream_sse.rs"]
mod stream_sse;
#[path = "../stream_sse_prop.rs"]
mod stream_sse_prop;
#[path = "../text.rs"]
mod text;
#[path = "../toolkit.rs"]
mod toolkit;
#[path = "../translate.rs"]
mod translate;
#[path = "../types.rs"]
mod types;
#[path = "../typings.rs"]
mod typings;
#[path = "../value.rs"]
mod value;
#[path = "../wire.rs"]
mod wire;
#[path = "../wire_anthropic.rs"]
mod wire_anthropic;
#[path = "../wire_fast.rs"]
mod wire_fast;
