//! The lean build's stand-ins for the sources of `toolkit_sources.rs`: it has no MCP client,
//! no skills, no A2A agents and no built-in tools, so an option asking for one is refused with the entry
//! point that has it, never silently ignored.

use wasm_bindgen::prelude::*;

use super::convert::{get, js_error, to_json};
use crate::core::json::value::Value;
use crate::core::tool::SharedTool;

/// No MCP servers exist in this build: the type has no values.
#[derive(Clone)]
pub enum Mcp {}

/// The checked options: nothing to load.
pub struct Planned;

/// Nothing loaded.
pub struct Loaded {
    /// Always `None`.
    pub skill: Option<(SharedTool, String)>,
    /// Always `None`.
    pub mcp: Option<Mcp>,
    /// Always empty.
    pub agents: Vec<SharedTool>,
    /// Always empty.
    pub agent_rows: Vec<super::toolkit::AgentRow>,
}

/// The options only the full build reads.
const FULL_ONLY: [&str; 7] = [
    "mcpConfig",
    "agents",
    "skills",
    "skillProvider",
    "skillsDir",
    "fs",
    "exec",
];

fn needs_full(key: &str) -> JsValue {
    let message = format!(
        "createToolkit: \"{key}\" needs the full build: import from \"toolnexus-wasm\", not \"toolnexus-wasm/core\""
    );
    js_error("unsupported", &message)
}

/// Refuses MCP, skill, filesystem and exec options.
pub fn plan(options: &JsValue) -> Result<Planned, JsValue> {
    match FULL_ONLY.iter().find(|key| {
        let value = get(options, key);
        !(value.is_undefined() || value.is_null())
    }) {
        Some(key) => Err(needs_full(key)),
        None => Ok(Planned),
    }
}

impl Planned {
    /// Nothing to load.
    pub async fn load(self) -> Loaded {
        Loaded {
            skill: None,
            mcp: None,
            agents: Vec::new(),
            agent_rows: Vec::new(),
        }
    }
}

/// No built-in tools: `builtins` may only be absent or `false`.
pub fn builtin_tools(options: &JsValue) -> Result<Vec<SharedTool>, JsValue> {
    match to_json(&get(options, "builtins")) {
        Ok(Value::Null | Value::Bool(false)) => Ok(Vec::new()),
        _ => Err(needs_full("builtins")),
    }
}

/// Unreachable: there is no `Mcp` value.
pub fn mcp_tools(mcp: &Mcp) -> Vec<SharedTool> {
    match *mcp {}
}

/// Unreachable: there is no `Mcp` value.
pub fn mcp_status(mcp: &Mcp) -> Result<JsValue, JsValue> {
    match *mcp {}
}

/// Unreachable: there is no `Mcp` value.
pub fn mcp_errors(mcp: &Mcp) -> Result<JsValue, JsValue> {
    match *mcp {}
}

/// Unreachable: there is no `Mcp` value.
pub fn on_tools_changed(mcp: &Mcp, _f: crate::core::toolkit::ToolsChanged) {
    match *mcp {}
}

/// Unreachable: there is no `Mcp` value.
pub async fn close(mcp: Mcp) {
    match mcp {}
}

/// No built-in tools to pick from: [`builtin_tools`] already refused any `builtins` but
/// `false`, so there is no toggle to apply (and none of its code in the lean module).
pub fn builtins_config(_options: &JsValue) -> Result<Option<Value>, JsValue> {
    Ok(None)
}
