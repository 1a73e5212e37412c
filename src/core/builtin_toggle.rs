//! The `builtins` toggle (SPEC §4, §4A): whole-source on/off with MCP precedence, and a per-tool
//! name→bool map on the all-on baseline. The tools themselves register through [`select`]. It
//! is in every build: a lean build has no built-in tools, but still refuses their names.

use crate::core::json::value::Value;

use crate::core::tool::SharedTool;

/// The ten built-in tool names, in the contract's order.
pub const BUILTIN_NAMES: [&str; 10] = [
    "bash",
    "read",
    "write",
    "edit",
    "grep",
    "glob",
    "webfetch",
    "question",
    "apply_patch",
    "todowrite",
];

/// Whether the built-in source is on: absent ⇒ on; a boolean is itself; for an object
/// `disabled: true` wins, else `enabled: false` turns it off, else on.
///
/// ```
/// # use toolnexus::core::builtin_toggle::enabled;
/// use toolnexus::json;
/// assert!(enabled(None));
/// assert!(!enabled(Some(&json!(false))));
/// assert!(!enabled(Some(&json!({"enabled": true, "disabled": true}))));
/// ```
pub fn enabled(config: Option<&Value>) -> bool {
    match config {
        None | Some(Value::Null) => true,
        Some(Value::Bool(on)) => *on,
        Some(Value::Object(map)) => {
            if map.get("disabled") == Some(&Value::Bool(true)) {
                return false;
            }
            map.get("enabled") != Some(&Value::Bool(false))
        }
        Some(_) => true,
    }
}

/// Whether one built-in survives the toggle: the source must be on, and `tools[name]` must not
/// be `false` (absent, `true` and unknown names keep the all-on baseline).
///
/// ```
/// # use toolnexus::core::builtin_toggle::tool_enabled;
/// use toolnexus::json;
/// let cfg = json!({"tools": {"bash": false}});
/// assert!(!tool_enabled(Some(&cfg), "bash"));
/// assert!(tool_enabled(Some(&cfg), "read"));
/// ```
pub fn tool_enabled(config: Option<&Value>, name: &str) -> bool {
    if !enabled(config) {
        return false;
    }
    let map = config.and_then(|c| c.get("tools"));
    map.and_then(|m| m.get(name)) != Some(&Value::Bool(false))
}

/// Keeps the built-in tools the toggle allows, in their given order.
///
/// ```
/// # use toolnexus::core::builtin_toggle::select;
/// assert!(select(Some(&toolnexus::json!(false)), Vec::new()).is_empty());
/// ```
pub fn select(config: Option<&Value>, all: Vec<SharedTool>) -> Vec<SharedTool> {
    all.into_iter()
        .filter(|t| tool_enabled(config, &t.spec().name))
        .collect()
}
