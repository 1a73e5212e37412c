//! The normalized JSON form of a server entry, as `parseMcpConfig` returns it.

use crate::core::json::value::{Map, Value};

use super::config::{Endpoint, ServerEntry};

impl ServerEntry {
    /// The entry as normalized JSON: `type` filled in, `command` as one array, the default
    /// timeout applied; header values stay unexpanded. An unusable entry is `{type:"invalid",
    /// error}`.
    ///
    /// ```
    /// # use toolnexus::core::mcp::config::parse_config;
    /// let servers = parse_config(&toolnexus::json!({"mcp": {"a": {"command": "srv", "args": ["-v"]}}})).unwrap();
    /// assert_eq!(servers[0].to_json()["command"], toolnexus::json!(["srv", "-v"]));
    /// ```
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        let config = match &self.config {
            Ok(config) => config,
            Err(error) => {
                out.insert("type".into(), "invalid".into());
                out.insert("enabled".into(), Value::Bool(self.enabled));
                out.insert("error".into(), Value::String(error.clone()));
                return Value::Object(out);
            }
        };
        match &config.endpoint {
            Endpoint::Remote { url, headers } => {
                out.insert("type".into(), "remote".into());
                out.insert("url".into(), Value::String(url.clone()));
                if !headers.is_empty() {
                    out.insert("headers".into(), pairs(headers));
                }
            }
            Endpoint::Local {
                command,
                args,
                env,
                cwd,
            } => {
                let mut parts = vec![Value::String(command.clone())];
                parts.extend(args.iter().cloned().map(Value::String));
                out.insert("type".into(), "local".into());
                out.insert("command".into(), Value::Array(parts));
                if !env.is_empty() {
                    out.insert("environment".into(), pairs(env));
                }
                if let Some(cwd) = cwd {
                    out.insert("cwd".into(), Value::String(cwd.clone()));
                }
            }
        }
        out.insert("enabled".into(), Value::Bool(self.enabled));
        out.insert("timeout".into(), crate::json_value!(config.timeout_ms));
        if !config.tools.is_empty() {
            let tools = config
                .tools
                .iter()
                .map(|(k, v)| (k.clone(), Value::Bool(*v)))
                .collect();
            out.insert("tools".into(), Value::Object(tools));
        }
        Value::Object(out)
    }
}

fn pairs(items: &[(String, String)]) -> Value {
    Value::Object(
        items
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}
