//! Relay (declaration-only) tools (SPEC §10 addendum): a schema the model can call, executed by
//! the host. The loop surfaces every relay call of a turn as one `kind: "tool_call"` suspension.

use crate::core::json::value::Value;

use super::builtin_toggle::BUILTIN_NAMES;
use super::host::LocalBoxFuture;
use super::spec::{SpecError, ToolSpec};
use super::tool::{Context, SharedTool, Tool};
use super::types::ToolResult;

/// A tool with a schema and no behaviour here.
///
/// ```
/// # use toolnexus::core::relay::RelayTool;
/// use toolnexus::core::tool::Tool;
/// let t = RelayTool::new("lookup", "Asks the host", toolnexus::json!({"type": "object"})).unwrap();
/// assert_eq!(t.spec().source, "relay");
/// ```
pub struct RelayTool {
    spec: ToolSpec,
}

impl RelayTool {
    /// Checks and builds a relay tool.
    pub fn new(name: &str, description: &str, input_schema: Value) -> Result<Self, SpecError> {
        Ok(RelayTool {
            spec: ToolSpec::new(name, description, input_schema, "relay")?,
        })
    }
}

impl Tool for RelayTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    /// Never reached through the loop (it relays instead); a direct call says so.
    fn execute(&self, _args: Value, _ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let message = format!(
            "relay tool \"{}\" is executed by the host, not here",
            self.spec.name
        );
        Box::pin(async move { ToolResult::error(message) })
    }
}

/// The refusal when a relay tool has a built-in tool's name; checked even with built-ins off.
///
/// ```
/// # use toolnexus::core::relay::{relay_collision, RelayTool};
/// let bash: toolnexus::core::tool::SharedTool = std::rc::Rc::new(RelayTool::new("bash", "", toolnexus::json!({})).unwrap());
/// assert!(relay_collision(&[bash]).is_some());
/// ```
pub fn relay_collision(tools: &[SharedTool]) -> Option<String> {
    tools
        .iter()
        .map(|t| t.spec())
        .find(|s| s.source == "relay" && BUILTIN_NAMES.contains(&s.name.as_str()))
        .map(|s| {
            format!(
                "relay tool \"{}\" has the name of a built-in tool: rename it",
                s.name
            )
        })
}
