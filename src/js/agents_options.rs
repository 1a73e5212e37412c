//! `new agents.AgentRuntime(options)` read into the core's [`RuntimeOptions`]: the registry
//! (`Record<string, AgentDef>`, each def's `tools` JavaScript `Tool`s gathered into the core's
//! toolkit tools), `llm`, `fetch`, `clock`, `store`, the gates' sizes, `hooks`, `onMetric` and
//! `waitFor` (the runtime's own answerer, the last hop before a durable `pending`).
//! Everything wrong is an `invalid_options` error naming the key.

use js_sys::{Array, Function, Object};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::agents_host::{on_close, on_spawn, JsAgentClock, JsVerify, LocalSpawn};
use super::callbacks::{JsHooks, JsMetricSink, JsStore, JsWaitFor};
use super::client_options::{function_field, string_field};
use super::convert::{described, get, js_error, type_name};
use super::host::JsClock;
use super::http::FetchHttp;
use super::tool::tool_from_js;
use crate::core::agents::budget::Budget;
use crate::core::agents::completion::Completion;
use crate::core::agents::registry::{AgentDef, Registry};
use crate::core::agents::runtime::{LlmSettings, RuntimeOptions};
use crate::core::client::config::Style;
use crate::core::client::hooks::{Hooks, WaitFor};
use crate::core::client::telemetry::MetricSink;
use crate::core::host::{Clock, Http};
use crate::core::jsfmt::number;
use crate::core::tool::SharedTool;

const WHAT: &str = "AgentRuntime";

fn invalid(message: String) -> JsValue {
    js_error("invalid_options", &format!("{WHAT}: {message}"))
}

fn absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

/// A budget as JavaScript gives it: `undefined`, or an object whose set fields are numbers
/// (their positivity is the core's to check). `Err` says what is wrong.
///
/// ```js
/// runtime.spawn(runtime.root, "explore", { maxTokens: "lots" }) // { error: "budget.maxTokens must be a positive number (got \"lots\")" }
/// ```
pub fn budget_from_js(value: &JsValue) -> Result<Option<Budget>, String> {
    if absent(value) {
        return Ok(None);
    }
    if !value.is_object() || Array::is_array(value) {
        return Err(format!(
            "budget must be an object, got {}",
            type_name(value)
        ));
    }
    let field = |key: &str| -> Result<Option<f64>, String> {
        let v = get(value, key);
        if v.is_undefined() {
            return Ok(None);
        }
        v.as_f64().map(Some).ok_or_else(|| {
            format!(
                "budget.{key} must be a positive number (got {})",
                described(&v)
            )
        })
    };
    Ok(Some(Budget {
        max_turns: field("maxTurns")?,
        max_tokens: field("maxTokens")?,
        max_tool_calls: field("maxToolCalls")?,
        max_wall_ms: field("maxWallMs")?,
        max_children: field("maxChildren")?,
        max_concurrent: field("maxConcurrent")?,
        max_depth: field("maxDepth")?,
    }))
}

/// `hooks`: an object, or a function carrying a hook (what `agents.compactor` makes).
fn hooks_field(value: JsValue, key: impl Fn() -> String) -> Result<Option<Rc<dyn Hooks>>, JsValue> {
    if absent(&value) {
        return Ok(None);
    }
    let key = key();
    let carries = ["beforeLLM", "afterLLM", "beforeTool", "afterTool"]
        .iter()
        .any(|k| get(&value, k).is_function());
    if !(value.is_object() || (value.is_function() && carries)) {
        return Err(invalid(format!(
            "{key} must be an object, got {}",
            type_name(&value)
        )));
    }
    Ok(Some(Rc::new(JsHooks::new(value, None, None))))
}

fn metric_field(
    value: JsValue,
    key: impl Fn() -> String,
) -> Result<Option<Rc<dyn MetricSink>>, JsValue> {
    if absent(&value) {
        return Ok(None);
    }
    Ok(
        function_field(value, &key(), WHAT)?
            .map(|f| Rc::new(JsMetricSink(f)) as Rc<dyn MetricSink>),
    )
}

/// `completion: {verify, maxAttempts}`: `maxAttempts` a whole number of at least 1 (never
/// defaulted: an unbounded gate is a bill without end), `verify` a function.
///
/// ```js
/// new agents.AgentRuntime({ registry: { w: { does: "x", completion: { verify: agents.allTodosDone } } } })
/// // throws invalid_options "AgentRuntime: registry[\"w\"].completion.maxAttempts must be an integer >= 1, got undefined"
/// // (and without verify: "….completion.verify must be a function, got undefined")
/// ```
fn completion(value: JsValue, at: impl Fn() -> String) -> Result<Option<Completion>, JsValue> {
    if absent(&value) {
        return Ok(None);
    }
    let at = at();
    if !value.is_object() {
        return Err(invalid(format!(
            "{at} must be an object {{verify, maxAttempts}}, got {}",
            type_name(&value)
        )));
    }
    let max = get(&value, "maxAttempts");
    let attempts = match max.as_f64() {
        Some(n) if n.fract() == 0.0 && (1.0..=f64::from(u32::MAX)).contains(&n) => n as u32,
        _ => {
            return Err(invalid(format!(
                "{at}.maxAttempts must be an integer >= 1, got {}",
                max.as_f64().map_or_else(|| type_name(&max), number)
            )))
        }
    };
    let verify = get(&value, "verify");
    let Ok(verify) = verify.clone().dyn_into::<Function>() else {
        return Err(invalid(format!(
            "{at}.verify must be a function, got {}",
            type_name(&verify)
        )));
    };
    Ok(Some(Completion::new(Rc::new(JsVerify(verify)), attempts)))
}

/// The tools every definition names, each JavaScript object once: two different tools of one
/// name would make a definition's view ambiguous, so they are refused.
#[derive(Default)]
struct Tools {
    seen: Vec<(JsValue, SharedTool)>,
}

impl Tools {
    fn add(&mut self, value: &JsValue, at: &str) -> Result<String, JsValue> {
        if let Some((_, tool)) = self.seen.iter().find(|(v, _)| Object::is(v, value)) {
            return Ok(tool.spec().name.clone());
        }
        let tool = tool_from_js(value, "custom").map_err(|why| invalid(format!("{at}: {why}")))?;
        let name = tool.spec().name.clone();
        if self.seen.iter().any(|(_, t)| t.spec().name == name) {
            return Err(invalid(format!(
                "{at}: another tool named \"{name}\" is already in the registry (one tool object per name)"
            )));
        }
        self.seen.push((value.clone(), tool));
        Ok(name)
    }
}

fn strings(value: JsValue, at: impl Fn() -> String) -> Result<Vec<String>, JsValue> {
    if absent(&value) {
        return Ok(Vec::new());
    }
    let at = at();
    if !Array::is_array(&value) {
        return Err(invalid(format!(
            "{at} must be an array of agent names, got {}",
            type_name(&value)
        )));
    }
    Array::from(&value)
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_string().ok_or_else(|| {
                invalid(format!(
                    "{at}[{i}] must be an agent name (a string), got {}",
                    type_name(&v)
                ))
            })
        })
        .collect()
}

fn definition(key: String, def: &JsValue, tools: &mut Tools) -> Result<AgentDef, JsValue> {
    let at = format!("registry[\"{key}\"]");
    if !def.is_object() || Array::is_array(def) {
        return Err(invalid(format!(
            "{at} must be an agent definition object, got {}",
            type_name(def)
        )));
    }
    // The key's path (`registry["w"].soul`) is written only for an error message.
    let text = |field: &str| {
        let value = get(def, field);
        if absent(&value) {
            return Ok(None);
        }
        string_field(value, &format!("{at}.{field}"), WHAT)
    };
    if let Some(name) = text("name")? {
        if name != key {
            return Err(invalid(format!(
                "{at}.name is \"{name}\": it must be its key \"{key}\""
            )));
        }
    }
    let does = text("does")?.ok_or_else(|| invalid(format!("{at}.does is required (a string)")))?;
    let mut names = Vec::new();
    let listed = get(def, "tools");
    if !absent(&listed) {
        if !Array::is_array(&listed) {
            return Err(invalid(format!(
                "{at}.tools must be an array of tools, got {}",
                type_name(&listed)
            )));
        }
        for (i, tool) in Array::from(&listed).iter().enumerate() {
            names.push(tools.add(&tool, &format!("{at}.tools[{i}]"))?);
        }
    }
    let budget =
        budget_from_js(&get(def, "budget")).map_err(|why| invalid(format!("{at}.{why}")))?;
    let func = |field: &str| {
        let value = get(def, field);
        if absent(&value) {
            return Ok(None);
        }
        function_field(value, &format!("{at}.{field}"), WHAT)
    };
    Ok(AgentDef {
        does,
        soul: text("soul")?.unwrap_or_default(),
        model: text("model")?,
        tools: names,
        team: strings(get(def, "team"), || format!("{at}.team"))?,
        budget: budget.unwrap_or_default(),
        wait_for: func("waitFor")?.map(|f| Rc::new(JsWaitFor(f)) as Rc<dyn WaitFor>),
        on_spawn: func("onSpawn")?.map(on_spawn),
        on_close: func("onClose")?.map(on_close),
        hooks: hooks_field(get(def, "hooks"), || format!("{at}.hooks"))?,
        on_metric: metric_field(get(def, "onMetric"), || format!("{at}.onMetric"))?,
        completion: completion(get(def, "completion"), || format!("{at}.completion"))?,
        ..AgentDef::new(key, "")
    })
}

/// `registry`: every definition checked, its tools resolved (an unknown tool or team agent, a
/// team cycle, a budget that is not positive: `invalid_options` with the core's sentence).
fn registry(value: &JsValue) -> Result<Registry, JsValue> {
    if !value.is_object() || Array::is_array(value) {
        return Err(invalid(format!(
            "registry must be an object of agent definitions by name, got {}",
            type_name(value)
        )));
    }
    let mut tools = Tools::default();
    let mut defs = Vec::new();
    for key in Object::keys(value.unchecked_ref::<Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        let def = get(value, &key);
        defs.push(definition(key, &def, &mut tools)?);
    }
    let shared: Vec<SharedTool> = tools.seen.into_iter().map(|(_, t)| t).collect();
    Registry::new(defs, &shared).map_err(|e| invalid(format!("registry: {e}")))
}

fn llm(value: &JsValue) -> Result<LlmSettings, JsValue> {
    let mut settings = LlmSettings::default();
    if absent(value) {
        return Ok(settings);
    }
    if !value.is_object() {
        return Err(invalid(format!(
            "llm must be an object {{baseUrl?, style?, apiKey?, model?}}, got {}",
            type_name(value)
        )));
    }
    let text = |key: &str| string_field(get(value, key), &format!("llm.{key}"), WHAT);
    if let Some(url) = text("baseUrl")? {
        settings.base_url = url;
    }
    if let Some(style) = text("style")? {
        settings.style = Style::parse(&style).ok_or_else(|| {
            invalid(format!(
                "llm.style must be \"openai\" or \"anthropic\", got \"{style}\""
            ))
        })?;
    }
    settings.api_key = text("apiKey")?;
    if let Some(model) = text("model")? {
        settings.model = model;
    }
    Ok(settings)
}

/// A whole number option ≥ 1 (`inboxCap`, `maxConcurrentTurns`).
fn count(options: &JsValue, key: &str) -> Result<Option<usize>, JsValue> {
    let value = get(options, key);
    if absent(&value) {
        return Ok(None);
    }
    match value.as_f64() {
        Some(n) if n.fract() == 0.0 && (1.0..=1_000_000.0).contains(&n) => Ok(Some(n as usize)),
        _ => Err(invalid(format!(
            "{key} must be a whole number of at least 1, got {}",
            described(&value)
        ))),
    }
}

/// Reads the runtime's options.
///
/// ```js
/// new agents.AgentRuntime({ registry: { peer: { does: "team member" } }, inboxCap: 0 })
/// // throws ToolnexusError invalid_options "AgentRuntime: inboxCap must be a whole number of at least 1, got 0"
/// ```
pub fn runtime_options(options: &JsValue) -> Result<RuntimeOptions, JsValue> {
    if !options.is_object() {
        return Err(invalid(format!(
            "options must be an object {{registry, llm?, fetch?, clock?, store?, …}}, got {}",
            type_name(options)
        )));
    }
    let registry = registry(&get(options, "registry"))?;
    let fetch: Option<Function> = function_field(get(options, "fetch"), "fetch", WHAT)?;
    let http: Rc<dyn Http> = Rc::new(FetchHttp::new(fetch).ok_or_else(|| {
        js_error(
            "unsupported",
            "AgentRuntime: this runtime has no fetch; pass the fetch option",
        )
    })?);
    let clock = get(options, "clock");
    let clock: Rc<dyn Clock> = if absent(&clock) {
        Rc::new(JsClock)
    } else {
        Rc::new(JsAgentClock::new(clock).map_err(invalid)?)
    };
    let mut out = RuntimeOptions::new(registry, http, clock, Rc::new(LocalSpawn));
    out.llm = llm(&get(options, "llm"))?;
    let store = get(options, "store");
    if !absent(&store) {
        if !(get(&store, "get").is_function() && get(&store, "save").is_function()) {
            return Err(invalid(
                "store must have get(id) and save(id, messages) functions".into(),
            ));
        }
        out.store = Some(Rc::new(JsStore(store)));
    }
    out.inbox_cap = count(options, "inboxCap")?;
    out.max_concurrent_turns = count(options, "maxConcurrentTurns")?;
    let shutdown = get(options, "shutdownMs");
    if !absent(&shutdown) {
        out.shutdown_ms = Some(shutdown.as_f64().ok_or_else(|| {
            invalid(format!(
                "shutdownMs must be a number of milliseconds, 0 or more (got {})",
                described(&shutdown)
            ))
        })?);
    }
    out.hooks = hooks_field(get(options, "hooks"), || "hooks".into())?;
    out.on_metric = metric_field(get(options, "onMetric"), || "onMetric".into())?;
    out.wait_for = function_field(get(options, "waitFor"), "waitFor", WHAT)?
        .map(|f| Rc::new(JsWaitFor(f)) as Rc<dyn WaitFor>);
    Ok(out)
}
