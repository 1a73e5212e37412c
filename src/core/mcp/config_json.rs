//! The normalized form of a server entry, as `parseMcpConfig` returns it: the record
//! [`McpServerConfig`], declared once (its JSON and TypeScript come from the declaration).

use crate::core::json::build::AsJson;
use crate::core::json::value::{Map, Value};

use super::config::{Endpoint, ServerEntry};

crate::tagged! {
    /// One server as `parseMcpConfig` returns it: `type` filled in, `command` as one array, the
    /// default timeout applied; header values stay unexpanded.
    pub enum McpServerConfig as "internally tagged enum McpServerConfig" by "type" {
        /// A remote server over streamable HTTP.
        Remote = "remote" {
            /// The MCP endpoint.
            url: String = "url",
            /// Extra request headers (`${VAR}` unexpanded).
            headers: Option<Map<String, Value>> = "headers" as "Record<string, string>",
            /// `false` when the entry is turned off.
            enabled: bool = "enabled",
            /// Milliseconds for each phase.
            timeout: f64 = "timeout",
            /// The per-server tool filter.
            tools: Option<Map<String, Value>> = "tools" as "Record<string, boolean>",
        },
        /// A local server over stdio.
        Local = "local" {
            /// The program and its arguments.
            command: Vec<String> = "command",
            /// Variables added to the inherited environment.
            environment: Option<Map<String, Value>> = "environment" as "Record<string, string>",
            /// The working directory.
            cwd: Option<String> = "cwd",
            /// `false` when the entry is turned off.
            enabled: bool = "enabled",
            /// Milliseconds for each phase.
            timeout: f64 = "timeout",
            /// The per-server tool filter.
            tools: Option<Map<String, Value>> = "tools" as "Record<string, boolean>",
        },
    }
}

impl ServerEntry {
    /// The entry as normalized JSON ([`McpServerConfig`]). An unusable entry is
    /// `{type: "invalid", enabled, error}`.
    ///
    /// ```
    /// # use toolnexus::core::mcp::config::parse_config;
    /// let servers = parse_config(&toolnexus::json!({"mcp": {"a": {"command": "srv", "args": ["-v"]}}})).unwrap();
    /// assert_eq!(servers[0].to_json()["command"], toolnexus::json!(["srv", "-v"]));
    /// ```
    pub fn to_json(&self) -> Value {
        let config = match &self.config {
            Ok(config) => config,
            Err(error) => {
                return crate::json_value!({"type": "invalid", "enabled": self.enabled, "error": error});
            }
        };
        let (enabled, timeout) = (self.enabled, config.timeout_ms);
        let tools = (!config.tools.is_empty()).then(|| {
            let flags = config
                .tools
                .iter()
                .map(|(k, v)| (k.clone(), Value::Bool(*v)));
            flags.collect()
        });
        let normalized = match &config.endpoint {
            Endpoint::Remote { url, headers } => McpServerConfig::Remote {
                url: url.clone(),
                headers: pairs(headers),
                enabled,
                timeout,
                tools,
            },
            Endpoint::Local {
                command,
                args,
                env,
                cwd,
            } => McpServerConfig::Local {
                command: std::iter::once(command).chain(args).cloned().collect(),
                environment: pairs(env),
                cwd: cwd.clone(),
                enabled,
                timeout,
                tools,
            },
        };
        normalized.as_json()
    }
}

/// Name-value pairs as an object of strings; `None` for none.
fn pairs(items: &[(String, String)]) -> Option<Map<String, Value>> {
    (!items.is_empty()).then(|| {
        let strings = items
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())));
        strings.collect()
    })
}
