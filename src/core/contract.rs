//! The records the package's TypeScript declares, in the order they appear there. Each is
//! declared once with [`record!`](crate::record) / [`tagged!`](crate::tagged) /
//! [`word!`](crate::word) beside the code that uses it; listing it here puts its generated
//! interface in `src/ts/core/records.ts` (or `src/ts/records.ts` for the `full` build's), which
//! `tests/typings.rs` keeps up to date (`UPDATE_TYPINGS=1 cargo test --test units typings` rewrites
//! them) and the TypeScript facade (`src/ts/`) exports.
//!
//! ```
//! let text = toolnexus::core::contract::typescript(false);
//! assert!(text.contains("export interface ToolResult {"));
//! ```

use crate::core::json::record::Record;

/// The generated TypeScript of the lean core's records (`full`: the full build's extra ones).
pub fn typescript(full: bool) -> String {
    let mut out = String::from(
        "// Generated from the records' declarations (src/core/contract.rs): do not edit.\n",
    );
    // The types the records name that are declared beside them, in the facade's types.
    out.push_str(if full {
        "import type { AnthropicResponse, OpenAIResponse, Usage } from \"./core/types.js\"\n\
         import type { FinishReason } from \"./types.js\"\n"
    } else {
        "import type { Message, ToolSource } from \"./types.js\"\n"
    });
    let mut add = |write: fn(&mut String)| {
        out.push('\n');
        write(&mut out);
    };
    if full {
        #[cfg(feature = "full")]
        add(crate::core::skills::SkillDef::write_typescript);
        #[cfg(feature = "full")]
        add(crate::core::mcp::config_json::McpServerConfig::write_typescript);
        #[cfg(feature = "full")]
        add(crate::core::translate::TranslatedToolCall::write_typescript);
        #[cfg(feature = "full")]
        add(crate::core::translate::TranslateResult::write_typescript);
    } else {
        add(crate::core::types::ToolResult::write_typescript);
        add(crate::core::types::Request::write_typescript);
        add(crate::core::types::Answer::write_typescript);
        add(crate::core::parts::ContentPart::write_typescript);
        add(crate::core::parts::PartSummary::write_typescript);
        add(crate::core::client::result::ToolCallRecord::write_typescript);
        add(crate::core::wire::Usage::write_typescript);
        add(crate::core::client::result::RunResult::write_typescript);
        add(crate::core::metrics::MetricEvent::write_typescript);
        add(crate::core::client::telemetry::StreamEvent::write_typescript);
        add(crate::core::serve::profile::McpServeConfig::write_typescript);
        add(crate::core::serve::profile::OnCallEvent::write_typescript);
        add(crate::core::agents::budget::Budget::write_typescript);
        add(crate::core::agents::data::InboxItem::write_typescript);
        add(crate::core::agents::data::TaskResult::write_typescript);
        add(crate::core::agents::data::HandleView::write_typescript);
        add(crate::core::agents::data::HandleDetail::write_typescript);
        add(crate::core::agents::data::HaltedCall::write_typescript);
        add(crate::core::agents::data::RecordedCall::write_typescript);
        add(crate::core::agents::snapshot::QueuedWakeRecord::write_typescript);
        add(crate::core::agents::snapshot::HandleRecord::write_typescript);
        add(crate::core::agents::durable::RuntimeState::write_typescript);
    }
    out
}
