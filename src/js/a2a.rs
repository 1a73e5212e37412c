//! A2A agents for JavaScript (SPEC §7A): `parseAgentsConfig`, `agentTools`, and the loading
//! behind `createToolkit({agents})`, a config's `agents` block and `toolkit.addAgent`: the
//! descriptors read, `fetch`, the environment for `${ENV_VAR}` headers, random ids.

use crate::core::json::value::{Map, Value};
use js_sys::Array;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{coded_error, from_json, get, js_error, set, to_json, type_name};
use super::host::JsClock;
use super::mcp_http::McpFetch;
use super::tool::ToolHandle;
use crate::core::a2a::config::{config_agents, parse_agents_config, AgentSpec};
use crate::core::a2a::wire::uuid_v4;
use crate::core::a2a::{agent_tools, load_agents, A2aHost, AgentState, AgentsSource, CardError};
use crate::core::tool::SharedTool;

/// The agents of `createToolkit` options, and the host to resolve them with.
pub struct A2aPlan {
    specs: Vec<AgentSpec>,
    host: A2aHost,
}

impl A2aPlan {
    /// Resolves every agent at once; a failed one is a console warning and a `failed` status.
    pub async fn load(self) -> AgentsSource {
        let source = load_agents(&self.specs, &self.host).await;
        for warning in &source.warnings {
            web_sys::console::warn_1(&JsValue::from_str(&format!("[toolnexus] {warning}")));
        }
        source
    }
}

/// A fresh UUID from `crypto.getRandomValues`; where there is none, an id unique to this
/// instance (a request id need not be secret, only distinct).
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        thread_local!(static COUNT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
        let n = COUNT.with(|c| {
            c.set(c.get() + 1);
            c.get()
        });
        let now = js_sys::Date::now() as u64;
        let (high, low) = bytes.split_at_mut(8);
        high.copy_from_slice(&now.to_be_bytes());
        low.copy_from_slice(&n.to_be_bytes());
    }
    uuid_v4(bytes)
}

/// The host for one agent: the `env` of `options`, else of the descriptor `agent`, else the
/// runtime's environment.
pub fn host_for(agent: &JsValue, options: &JsValue) -> Result<A2aHost, JsValue> {
    if get(options, "env").is_undefined() && agent.is_object() {
        return host(agent);
    }
    host(options)
}

/// The host of `options` (its `env`, else the runtime's environment).
pub fn host(options: &JsValue) -> Result<A2aHost, JsValue> {
    let (env, _) = super::mcp::environment(options)?;
    Ok(A2aHost {
        http: McpFetch::new().map(|f| Rc::new(f) as Rc<dyn crate::core::host::Http>),
        clock: Rc::new(JsClock),
        env,
        new_id: Rc::new(new_id),
    })
}

/// An `Agent` descriptor (`{card, headers?, timeout?, pollEvery?}`) or a card URL with `extra`
/// options; `what` names it in the error.
pub fn spec_from_js(value: &JsValue, extra: &JsValue, what: &str) -> Result<AgentSpec, JsValue> {
    let refused = |why: String| js_error("invalid_options", &why);
    let mut json = if let Some(card) = value.as_string() {
        let mut map = match to_json(extra) {
            Ok(Value::Object(map)) => map,
            Ok(Value::Null) => Map::new(),
            _ => {
                return Err(refused(format!(
                    "{what}: options must be an object {{headers?, timeout?, pollEvery?}}, got {}",
                    type_name(extra)
                )))
            }
        };
        map.insert("card".into(), Value::String(card));
        Value::Object(map)
    } else {
        to_json(value).map_err(|why| refused(format!("{what}: {why}")))?
    };
    if let Value::Object(map) = &mut json {
        map.remove("enabled");
        map.remove("disabled");
    }
    AgentSpec::from_value(&json, what).map_err(refused)
}

/// The agents of `createToolkit` options: the `agents` array, then the `agents` block of
/// `mcpConfig` (a parsed object, or in Node and Deno a file path); `None` when there are none.
pub fn plan(options: &JsValue) -> Result<Option<A2aPlan>, JsValue> {
    let mut specs = Vec::new();
    let given = get(options, "agents");
    if !(given.is_undefined() || given.is_null()) {
        if !Array::is_array(&given) {
            let got = type_name(&given);
            let message = format!(
                "createToolkit: agents must be an array of agent({{card}}) descriptors, got {got}"
            );
            return Err(js_error("invalid_options", &message));
        }
        for (at, item) in Array::from(&given).iter().enumerate() {
            let what = format!("createToolkit: agents[{at}]");
            specs.push(spec_from_js(&item, &JsValue::UNDEFINED, &what)?);
        }
    }
    let config = get(options, "mcpConfig");
    if !(config.is_undefined() || config.is_null()) {
        let json = super::mcp::config_json(&config)?;
        let from_config = config_agents(&json)
            .map_err(|why| js_error("invalid_config", &format!("MCP config: {why}")))?;
        specs.extend(from_config);
    }
    if specs.is_empty() {
        return Ok(None);
    }
    Ok(Some(A2aPlan {
        specs,
        host: host(options)?,
    }))
}

/// The coded error of an agent that gave no tools: `network`, `http_status` (with `status`),
/// `timeout` or `bad_response`.
pub fn card_error(error: &CardError) -> JsValue {
    let message = error.to_string();
    match error {
        CardError::Network(_) => coded("network", &message, &[("retryable", JsValue::TRUE)]),
        CardError::TimedOut(_) => coded("timeout", &message, &[("retryable", JsValue::TRUE)]),
        CardError::Status { status, .. } => {
            let retryable = *status == 429 || *status >= 500;
            coded(
                "http_status",
                &message,
                &[
                    ("status", f64::from(*status).into()),
                    ("retryable", retryable.into()),
                ],
            )
        }
        CardError::Invalid(_) => js_error("bad_response", &message),
    }
}

fn coded(code: &str, message: &str, options: &[(&str, JsValue)]) -> JsValue {
    let object: JsValue = js_sys::Object::new().into();
    for (key, value) in options {
        set(&object, key, value);
    }
    coded_error(code, message, &object)
}

/// Resolves one agent for `toolkit.addAgent` and `agentTools`: its tools, or the coded error.
pub async fn resolve(spec: AgentSpec, host: A2aHost) -> Result<Vec<SharedTool>, CardError> {
    agent_tools(&spec, &host).await
}

/// The rows of `agentStatus()` / `agentErrors()`.
pub fn rows(agents: &[AgentState]) -> Vec<super::toolkit::AgentRow> {
    agents
        .iter()
        .map(|a| super::toolkit::AgentRow {
            card: a.card.clone(),
            status: a.status.as_str(),
            error: a.error.clone(),
        })
        .collect()
}

/// Reads a config's `agents` block (`{"<id>": {card, headers?, timeout?, pollEvery?, enabled?,
/// disabled?}}`) into `Agent` descriptors, skipping disabled entries (`disabled: true` wins,
/// then `enabled: false`) and entries without a string `card`. The key is only an identifier:
/// a tool's prefix comes from the fetched card's `name`. Throws `invalid_config` for a block
/// that is not an object or an entry whose `headers`, `timeout` or `pollEvery` is mistyped.
///
/// ```js
/// parseAgentsConfig({ rev: { card: "http://127.0.0.1:8000/.well-known/agent-card.json" }, off: { card: "http://x", disabled: true } })
/// // [{ card: "http://127.0.0.1:8000/.well-known/agent-card.json", timeout: 300000, pollEvery: 1000 }]
/// ```
#[wasm_bindgen(js_name = parseAgentsConfig, unchecked_return_type = "Agent[]")]
pub fn parse_agents_config_js(
    #[wasm_bindgen(unchecked_param_type = "AgentsConfig | undefined")] block: JsValue,
) -> Result<JsValue, JsValue> {
    let json = to_json(&block).map_err(|why| js_error("invalid_config", &why))?;
    let specs = parse_agents_config(&json).map_err(|why| js_error("invalid_config", &why))?;
    let items: Vec<Value> = specs.iter().map(descriptor).collect();
    from_json(&Value::Array(items))
}

/// `{card, headers?, timeout, pollEvery}` of one agent.
fn descriptor(spec: &AgentSpec) -> Value {
    let mut map = Map::new();
    map.insert("card".into(), Value::from(spec.card.as_str()));
    if !spec.headers.is_empty() {
        let headers: Map<String, Value> = spec
            .headers
            .iter()
            .map(|(n, v)| (n.clone(), Value::from(v.as_str())))
            .collect();
        map.insert("headers".into(), Value::Object(headers));
    }
    map.insert("timeout".into(), Value::from(spec.timeout_ms));
    map.insert("pollEvery".into(), Value::from(spec.poll_every_ms));
    Value::Object(map)
}

/// Fetches an agent's card and makes one tool per skill (source `"a2a"`, named
/// `sanitize(card.name)_sanitize(skill)`). Rejects when the card cannot be had: `network`,
/// `http_status`, `timeout` or `bad_response` (header values never in the message).
///
/// ```js
/// const tools = await agentTools(agent({ card: "http://127.0.0.1:8000/.well-known/agent-card.json" }))
/// tools.map((t) => t.name) // ["reviewer_review", "reviewer_plan"]
/// ```
#[wasm_bindgen(js_name = agentTools, unchecked_return_type = "Promise<Tool[]>")]
pub fn agent_tools_js(
    #[wasm_bindgen(unchecked_param_type = "Agent | string")] agent: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "AgentOptions")] options: Option<JsValue>,
) -> js_sys::Promise {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let planned = spec_from_js(&agent, &options, "agentTools")
        .and_then(|spec| Ok((spec, host_for(&agent, &options)?)));
    crate::js::promise::promise(async move {
        let (spec, host) = planned?;
        let tools = resolve(spec, host).await.map_err(|e| card_error(&e))?;
        let faces: Array = tools
            .into_iter()
            .map(|t| JsValue::from(ToolHandle::new(t)))
            .collect();
        Ok(faces.into())
    })
}
