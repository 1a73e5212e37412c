//! The MCP config (SPEC §2): a superset of the Claude-desktop / opencode / VS Code formats.
//! Servers sit under `mcpServers`, `servers` or `mcp`; without a wrapper the object itself is
//! the server map, minus the reserved sibling sections. A server entry that cannot be used is
//! kept with its reason, so the loader can mark it `failed` while the others still load.

use crate::core::json::value::{Map, Value};

/// The connect timeout when a server sets none, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;

/// Top-level keys that are other config sections, never servers, when no wrapper is present.
pub const RESERVED_KEYS: [&str; 4] = ["builtins", "agents", "a2a", "mcpServer"];

/// How to reach one server.
#[derive(Debug, Clone, PartialEq)]
pub enum Endpoint {
    /// Streamable HTTP at `url`, with these extra headers (values still unexpanded).
    Remote {
        /// The MCP endpoint.
        url: String,
        /// Extra request headers; `${ENV_VAR}` in a value expands when the server is loaded.
        headers: Vec<(String, String)>,
    },
    /// A child process speaking JSON-RPC over stdio.
    Local {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to the inherited environment (`environment`, alias `env`).
        env: Vec<(String, String)>,
        /// The working directory.
        cwd: Option<String>,
    },
}

/// One usable server entry.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// Where the server is.
    pub endpoint: Endpoint,
    /// The per-phase timeout, in milliseconds.
    pub timeout_ms: f64,
    /// The per-server tool filter, keyed on the server's own tool names, in config order.
    pub tools: Vec<(String, bool)>,
    /// A remote server's `auth` block (OAuth); a remote server without one still signs in
    /// when it answers 401, and fails naming `auth.redirectUrl` when that is needed.
    pub auth: Option<super::auth::config::AuthConfig>,
}

/// One entry of the server map.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerEntry {
    /// The key in the config.
    pub name: String,
    /// `false` when `disabled: true` or `enabled: false`.
    pub enabled: bool,
    /// The server, or why the entry cannot be used.
    pub config: Result<ServerConfig, String>,
}

/// Reads the server map of a config object.
///
/// ```
/// # use toolnexus::core::mcp::config::parse_config;
/// let servers = parse_config(&toolnexus::json!({
///     "builtins": false,
///     "docs": {"url": "https://example.com/mcp"},
///     "fs": {"command": ["npx", "server-fs"], "enabled": false}
/// })).unwrap();
/// assert_eq!(servers.len(), 2);
/// assert!(servers[0].enabled && !servers[1].enabled);
/// ```
pub fn parse_config(input: &Value) -> Result<Vec<ServerEntry>, String> {
    Ok(server_values(input)?
        .into_iter()
        .map(|(name, value)| ServerEntry {
            name: name.clone(),
            enabled: enabled(value),
            config: server(value),
        })
        .collect())
}

/// The servers of a config as given, before any reading: the map under `mcpServers`,
/// `servers` or `mcp`, else the object itself minus [`RESERVED_KEYS`].
pub fn server_values(input: &Value) -> Result<Vec<(&String, &Value)>, String> {
    let Value::Object(raw) = input else {
        return Err(format!(
            "an MCP config must be an object, got {}",
            crate::core::spec::json_type(input)
        ));
    };
    let wrapper = ["mcpServers", "servers", "mcp"]
        .into_iter()
        .find_map(|key| raw.get(key).filter(|v| !v.is_null()).map(|v| (key, v)));
    let servers: Vec<(&String, &Value)> = match wrapper {
        Some((_, Value::Object(map))) => map.iter().collect(),
        Some((key, other)) => {
            return Err(format!(
                "MCP config: \"{key}\" must be an object of servers, got {}",
                crate::core::spec::json_type(other)
            ))
        }
        None => raw
            .iter()
            .filter(|(k, _)| !RESERVED_KEYS.contains(&k.as_str()))
            .collect(),
    };
    Ok(servers)
}

/// `disabled: true` or `enabled: false` turns a server off; anything else leaves it on.
fn enabled(value: &Value) -> bool {
    let flag = |key: &str| value.get(key).and_then(Value::as_bool);
    !(flag("disabled") == Some(true) || flag("enabled") == Some(false))
}

fn server(value: &Value) -> Result<ServerConfig, String> {
    let Value::Object(map) = value else {
        return Err(format!(
            "a server entry must be an object, got {}",
            crate::core::spec::json_type(value)
        ));
    };
    let timeout_ms = match map.get("timeout") {
        None | Some(Value::Null) => DEFAULT_TIMEOUT_MS,
        Some(v) => v
            .as_f64()
            .filter(|t| t.is_finite() && *t > 0.0)
            .ok_or_else(|| {
                format!(
                    "\"timeout\" must be a positive number of milliseconds, got {}",
                    crate::core::json::text::Json(v)
                )
            })?,
    };
    let auth = match map.get("auth") {
        None | Some(Value::Null) => None,
        Some(block) => {
            let auth = super::auth::config::parse_auth(block)?;
            super::m2m::config::M2mAuth::from_config(&auth)?;
            Some(auth)
        }
    };
    Ok(ServerConfig {
        endpoint: endpoint(map)?,
        timeout_ms,
        tools: bool_map(map, "tools")?,
        auth,
    })
}

fn endpoint(map: &Map<String, Value>) -> Result<Endpoint, String> {
    let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
    let remote = match kind {
        "remote" | "http" | "streamable-http" | "streamableHttp" | "sse" => true,
        "local" | "stdio" => false,
        _ => map.get("url").is_some_and(|u| !u.is_null()),
    };
    if remote {
        let url = map
            .get("url")
            .and_then(Value::as_str)
            .filter(|u| !u.is_empty())
            .ok_or("a remote server needs a \"url\" string")?;
        return Ok(Endpoint::Remote {
            url: url.to_owned(),
            headers: string_map(map, "headers")?,
        });
    }
    let (command, mut args) = match map.get("command") {
        Some(Value::String(c)) if !c.is_empty() => (c.clone(), Vec::new()),
        Some(Value::Array(parts)) => {
            let parts = strings(parts, "command")?;
            let mut parts = parts.into_iter();
            match parts.next().filter(|c| !c.is_empty()) {
                Some(first) => (first, parts.collect()),
                None => return Err("\"command\" must not be empty".into()),
            }
        }
        None => return Err("a server needs a \"url\" (remote) or a \"command\" (local)".into()),
        Some(other) => {
            return Err(format!(
                "\"command\" must be a string or an array of strings, got {}",
                crate::core::spec::json_type(other)
            ))
        }
    };
    match map.get("args") {
        None | Some(Value::Null) => {}
        Some(Value::Array(more)) => args.extend(strings(more, "args")?),
        Some(_) => return Err("\"args\" must be an array of strings".into()),
    }
    let env_key = if map.contains_key("environment") {
        "environment"
    } else {
        "env"
    };
    let cwd = match map.get("cwd") {
        None | Some(Value::Null) => None,
        Some(Value::String(dir)) => Some(dir.clone()),
        Some(_) => return Err("\"cwd\" must be a string".into()),
    };
    Ok(Endpoint::Local {
        command,
        args,
        env: string_map(map, env_key)?,
        cwd,
    })
}

fn strings(items: &[Value], what: &str) -> Result<Vec<String>, String> {
    items
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("\"{what}\" must contain only strings"))
        })
        .collect()
}

fn string_map(map: &Map<String, Value>, key: &str) -> Result<Vec<(String, String)>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(entries)) => entries
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                _ => Err(format!("\"{key}.{k}\" must be a string")),
            })
            .collect(),
        Some(_) => Err(format!("\"{key}\" must be an object of strings")),
    }
}

fn bool_map(map: &Map<String, Value>, key: &str) -> Result<Vec<(String, bool)>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(entries)) => entries
            .iter()
            .map(|(k, v)| match v {
                Value::Bool(b) => Ok((k.clone(), *b)),
                _ => Err(format!("\"{key}.{k}\" must be true or false")),
            })
            .collect(),
        Some(_) => Err(format!(
            "\"{key}\" must be an object of tool name → boolean"
        )),
    }
}

/// Replaces each `${NAME}` (`NAME` of letters, digits and `_`) with `env(NAME)`, or nothing.
///
/// ```
/// # use toolnexus::core::mcp::config::expand_env;
/// let env = |name: &str| (name == "TOKEN").then(|| "s3cret".to_string());
/// assert_eq!(expand_env("Bearer ${TOKEN}${NOPE} ${x", &env), "Bearer s3cret ${x");
/// ```
pub fn expand_env(value: &str, env: &dyn Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find("${") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let inner = from.get(2..).unwrap_or("");
        let len = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let name = inner.get(..len).unwrap_or("");
        if !name.is_empty() && inner.get(len..).is_some_and(|r| r.starts_with('}')) {
            out.push_str(&env(name).unwrap_or_default());
            rest = inner.get(len + 1..).unwrap_or("");
        } else {
            out.push_str("${");
            rest = inner;
        }
    }
    out.push_str(rest);
    out
}
