//! An A2A agent descriptor (`agent({card, headers?, timeout?, pollEvery?})`) and the `agents`
//! block of a config object (SPEC §7A), which mirrors `mcpServers`: `{"<id>": {card, headers?,
//! timeout?, pollEvery?, enabled?, disabled?}}`. The key is only an identifier; a tool's name
//! prefix comes from the fetched card's `name`.

use crate::core::json::value::{Map, Value};
use crate::core::spec::json_type;

/// The overall budget of one call when the agent sets none, in milliseconds.
pub const DEFAULT_TIMEOUT_MS: f64 = 300_000.0;
/// The interval between two `GetTask` polls when the agent sets none, in milliseconds.
pub const DEFAULT_POLL_EVERY_MS: f64 = 1_000.0;

/// One remote agent, as the host described it (header values still unexpanded).
#[derive(Debug, Clone, PartialEq)]
pub struct AgentSpec {
    /// The Agent Card URL (`…/.well-known/agent-card.json`).
    pub card: String,
    /// Extra request headers; `${ENV_VAR}` in a value expands at call time.
    pub headers: Vec<(String, String)>,
    /// The budget of one call (and of fetching the card), in milliseconds.
    pub timeout_ms: f64,
    /// The interval between polls, in milliseconds.
    pub poll_every_ms: f64,
}

impl AgentSpec {
    /// A descriptor with the defaults.
    ///
    /// ```
    /// # use toolnexus::core::a2a::config::AgentSpec;
    /// let spec = AgentSpec::new("http://127.0.0.1:9/.well-known/agent-card.json");
    /// assert_eq!((spec.timeout_ms, spec.poll_every_ms), (300_000.0, 1_000.0));
    /// ```
    pub fn new(card: impl Into<String>) -> Self {
        AgentSpec {
            card: card.into(),
            headers: Vec::new(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            poll_every_ms: DEFAULT_POLL_EVERY_MS,
        }
    }

    /// Reads a descriptor object `{card, headers?, timeout?, pollEvery?}`; `what` names it in
    /// the error (`agents[0]`).
    ///
    /// ```
    /// # use toolnexus::core::a2a::config::AgentSpec;
    /// let spec = AgentSpec::from_value(&toolnexus::json!({"card": "http://x/card", "pollEvery": 5}), "agent").unwrap();
    /// assert_eq!(spec.poll_every_ms, 5.0);
    /// let bad = AgentSpec::from_value(&toolnexus::json!({"card": 1}), "agents[0]").unwrap_err();
    /// assert_eq!(bad, "agents[0].card must be a string (the Agent Card URL), got number");
    /// ```
    pub fn from_value(value: &Value, what: &str) -> Result<Self, String> {
        let Value::Object(map) = value else {
            return Err(format!(
                "{what} must be an object {{card, headers?, timeout?, pollEvery?}}, got {}",
                json_type(value)
            ));
        };
        let card = match map.get("card") {
            Some(Value::String(card)) if !card.is_empty() => card.clone(),
            other => {
                return Err(format!(
                    "{what}.card must be a string (the Agent Card URL), got {}",
                    other.map_or("nothing", json_type)
                ))
            }
        };
        Ok(AgentSpec {
            card,
            headers: headers(map.get("headers"), what)?,
            timeout_ms: millis(map, "timeout", what)?.unwrap_or(DEFAULT_TIMEOUT_MS),
            poll_every_ms: millis(map, "pollEvery", what)?.unwrap_or(DEFAULT_POLL_EVERY_MS),
        })
    }
}

fn headers(value: Option<&Value>, what: &str) -> Result<Vec<(String, String)>, String> {
    match value {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(name, value)| match value {
                Value::String(text) => Ok((name.clone(), text.clone())),
                other => Err(format!(
                    "{what}.headers.{name} must be a string, got {}",
                    json_type(other)
                )),
            })
            .collect(),
        Some(other) => Err(format!(
            "{what}.headers must be an object of strings, got {}",
            json_type(other)
        )),
    }
}

fn millis(map: &Map<String, Value>, key: &str, what: &str) -> Result<Option<f64>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_f64() {
            Some(ms) if ms >= 0.0 && ms.is_finite() => Ok(Some(ms)),
            _ => Err(format!("{what}.{key} must be a number of milliseconds ≥ 0")),
        },
        Some(other) => Err(format!(
            "{what}.{key} must be a number of milliseconds, got {}",
            json_type(other)
        )),
    }
}

/// MCP `isEnabled` precedence: `disabled: true` wins, then `enabled: false`; else on.
fn enabled(value: &Value) -> bool {
    let flag = |key: &str| value.get(key).and_then(Value::as_bool);
    !(flag("disabled") == Some(true) || flag("enabled") == Some(false))
}

/// The enabled agents of an `agents` block, in config order. An entry without a string `card`
/// is skipped, as the reference does; a disabled one too. A block that is not an object, or
/// an entry with a `headers`, `timeout` or `pollEvery` of the wrong type, is an error.
///
/// ```
/// # use toolnexus::core::a2a::config::parse_agents_config;
/// let agents = parse_agents_config(&toolnexus::json!({
///     "a": {"card": "http://x/1"},
///     "b": {"card": "http://x/2", "disabled": true},
///     "c": {"card": "http://x/3", "enabled": false},
///     "d": {"card": "http://x/4", "enabled": true, "disabled": true},
/// })).unwrap();
/// assert_eq!(agents.len(), 1);
/// assert_eq!(agents[0].card, "http://x/1");
/// ```
pub fn parse_agents_config(block: &Value) -> Result<Vec<AgentSpec>, String> {
    let entries = match block {
        Value::Null => return Ok(Vec::new()),
        Value::Object(map) => map,
        other => {
            return Err(format!(
                "agents must be an object of agents ({{\"<id>\": {{card, …}}}}), got {}",
                json_type(other)
            ))
        }
    };
    let mut out = Vec::new();
    for (id, entry) in entries.iter() {
        if !matches!(entry.get("card"), Some(Value::String(_))) || !enabled(entry) {
            continue;
        }
        out.push(AgentSpec::from_value(entry, &format!("agents.{id}"))?);
    }
    Ok(out)
}

/// The `agents` block of a whole config object (`{mcpServers, agents, …}`); none is empty.
///
/// ```
/// # use toolnexus::core::a2a::config::config_agents;
/// let config = toolnexus::json!({"mcpServers": {}, "agents": {"rev": {"card": "http://x/c"}}});
/// assert_eq!(config_agents(&config).unwrap().len(), 1);
/// ```
pub fn config_agents(config: &Value) -> Result<Vec<AgentSpec>, String> {
    match config.get("agents") {
        Some(block) => parse_agents_config(block),
        None => Ok(Vec::new()),
    }
}
