//! The sources `createToolkit` loads before it assembles (skills, MCP servers, built-in tools),
//! behind one small face: the lean build puts refusals in their place (`toolkit_lean.rs`).

use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::mcp::McpPlan;
use crate::core::json::value::Value;
use crate::core::mcp::McpSource;
use crate::core::skills::SkillsConfig;
use crate::core::tool::SharedTool;

use super::convert::{described, get, js_error, to_json};

/// The MCP servers a toolkit holds, with their sessions.
pub type Mcp = Rc<McpSource>;

/// The options of the loaded sources, checked before anything asynchronous starts.
pub struct Planned {
    skills: Option<SkillsConfig>,
    mcp: Option<McpPlan>,
    agents: Option<super::a2a::A2aPlan>,
}

/// The loaded sources: the `skill` tool with its catalog, and the MCP servers.
pub struct Loaded {
    /// The `skill` tool, the system-prompt catalog and the skills' names and descriptions,
    /// when skills were given.
    pub skill: Option<(SharedTool, String, Vec<super::skills::SkillCardEntry>)>,
    /// The servers, when `mcpConfig` was given.
    pub mcp: Option<Mcp>,
    /// The A2A agents' tools (`agents`, a config's `agents` block).
    pub agents: Vec<SharedTool>,
    /// Every agent's status.
    pub agent_rows: Vec<super::toolkit::AgentRow>,
}

/// Checks the skill and MCP options (the first bad one is the error).
pub fn plan(options: &JsValue) -> Result<Planned, JsValue> {
    let skills = super::skills::prepare(options);
    let mcp = super::mcp::plan(options);
    let agents = super::a2a::plan(options);
    Ok(Planned {
        skills: skills?,
        mcp: mcp?,
        agents: agents?,
    })
}

impl Planned {
    /// Loads the skills, connects to the servers, then fetches the agents' cards (as the
    /// reference does); never fails as a whole.
    pub async fn load(self) -> Loaded {
        let skill = match self.skills {
            Some(config) => Some(super::skills::load(config).await),
            None => None,
        };
        let mcp = match self.mcp {
            Some(plan) => Some(Rc::new(plan.load().await)),
            None => None,
        };
        let agents = match self.agents {
            Some(plan) => plan.load().await,
            None => crate::core::a2a::AgentsSource::default(),
        };
        Loaded {
            skill,
            mcp,
            agent_rows: super::a2a::rows(&agents.agents),
            agents: agents.tools,
        }
    }
}

/// Every built-in tool the host supports (the toggle picks which stay).
pub fn builtin_tools(options: &JsValue) -> Result<Vec<SharedTool>, JsValue> {
    super::builtins::builtin_tools(options)
}

/// The servers' tools, in config order.
pub fn mcp_tools(mcp: &Mcp) -> Vec<SharedTool> {
    mcp.tools.clone()
}

/// `{server: status}`.
pub fn mcp_status(mcp: &Mcp) -> Result<JsValue, JsValue> {
    super::mcp::status_object(&mcp.states())
}

/// `{server: why it failed}`.
pub fn mcp_errors(mcp: &Mcp) -> Result<JsValue, JsValue> {
    super::mcp::errors_object(&mcp.states())
}

/// The sign-in Requests of the servers waiting for one.
pub fn mcp_pending(mcp: &Mcp) -> Result<JsValue, JsValue> {
    let requests: Vec<Value> = mcp
        .pending()
        .iter()
        .map(crate::core::json::record::Record::to_json_value)
        .collect();
    super::convert::from_json(&Value::Array(requests))
}

/// Finishes a pending sign-in with `answer`; resolves with the server's new status.
pub fn mcp_resume(mcp: &Mcp, answer: &JsValue) -> js_sys::Promise {
    let refuse =
        |why: &str| super::convert::js_error("invalid_argument", &format!("mcpResume: {why}"));
    let resumed = match super::convert::to_json(answer) {
        Ok(answer @ Value::Object(_)) => Ok(mcp.resume(answer)),
        _ => Err(refuse(
            "the answer must be an Answer object ({id, ok, data: {url}})",
        )),
    };
    crate::js::promise::promise(async move {
        let state = resumed?.await.map_err(|why| refuse(&why))?;
        Ok(JsValue::from_str(state.status.as_str()))
    })
}

/// Calls `f` with a server's old and new tools each time its tool list changed.
pub fn on_tools_changed(mcp: &Mcp, f: crate::core::mcp::load::ToolsChanged) {
    mcp.on_tools_changed(f);
}

/// Ends every session.
pub async fn close(mcp: Mcp) {
    mcp.close().await;
}

/// The `builtins` option (or `mcpConfig.builtins`) as given: `false`, `{disabled}`, `{enabled}`,
/// `{tools: {...}}`; absent is `None`.
pub fn builtins_config(options: &JsValue) -> Result<Option<Value>, JsValue> {
    let mut config = get(options, "builtins");
    let mcp_config = get(options, "mcpConfig");
    if config.is_undefined() && mcp_config.is_object() {
        config = get(&mcp_config, "builtins");
    }
    match to_json(&config) {
        Ok(Value::Null) => Ok(None),
        Ok(value @ (Value::Bool(_) | Value::Object(_))) => Ok(Some(value)),
        _ => Err(js_error(
            "invalid_options",
            &format!(
                "createToolkit: builtins must be a boolean or {{enabled?, disabled?, tools?}}, got {}",
                described(&config)
            ),
        )),
    }
}
