//! MCP for JavaScript: `parseMcpConfig`, `listMcpTools`, and the loading behind
//! `createToolkit({mcpConfig})`: the config (an object, or a file path in Node/Deno), the
//! environment for `${ENV_VAR}` headers, `fetch`, the runtime's process API for local servers,
//! and the toolkit's `waitFor` for elicitation.

use crate::core::json::value::{Map, Value};
use js_sys::{Function, Object};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::callbacks::JsWaitFor;
use super::client_options::env_var;
use super::convert::{error_text, from_json, get, js_error, to_json, type_name};
use super::host::{signal_option, unless_aborted, JsClock};
use super::mcp_deno::DenoProcess;
use super::mcp_http::McpFetch;
use super::mcp_process::NodeProcess;
use crate::core::client::hooks::WaitFor;
use crate::core::mcp::config::{expand_env, parse_config, server_values, ServerEntry};
use crate::core::mcp::load::EnvLookup;
use crate::core::mcp::process::Process;
use crate::core::mcp::tool::listed;
use crate::core::mcp::{inventory, load, McpHost, McpSource, ServerState, Status};

/// A config and the host to load it with, decoded before anything asynchronous starts.
pub struct McpPlan {
    entries: Vec<ServerEntry>,
    host: McpHost,
}

impl McpPlan {
    /// Connects to every server; never fails as a whole. Prints a console warning per failed
    /// server and per filter name that matched nothing.
    pub async fn load(self) -> McpSource {
        let source = load(&self.entries, &self.host).await;
        for warning in &source.warnings {
            warn(warning);
        }
        source
    }
}

fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("[toolnexus] {message}")));
}

fn invalid(message: &str) -> JsValue {
    js_error("invalid_config", message)
}

/// `process.getBuiltinModule(name)` (Node ≥ 20.16; Deno and Bun have it too).
fn node_module(name: &str) -> Option<JsValue> {
    let process = get(&js_sys::global(), "process");
    let load = get(&process, "getBuiltinModule")
        .dyn_into::<Function>()
        .ok()?;
    load.call1(&process, &name.into())
        .ok()
        .filter(JsValue::is_object)
}

fn deno() -> Option<JsValue> {
    Some(get(&js_sys::global(), "Deno")).filter(JsValue::is_object)
}

fn read_file(path: &str) -> Result<String, String> {
    let read = if let Some(deno) = deno() {
        let f = get(&deno, "readTextFileSync").dyn_into::<Function>();
        f.ok().map(|f| f.call1(&deno, &path.into()))
    } else if let Some(fs) = node_module("node:fs") {
        let f = get(&fs, "readFileSync").dyn_into::<Function>();
        f.ok().map(|f| f.call2(&fs, &path.into(), &"utf8".into()))
    } else {
        None
    };
    match read {
        None => Err("this runtime cannot read files".into()),
        Some(Ok(text)) => text
            .as_string()
            .ok_or_else(|| "the file is not text".into()),
        Some(Err(thrown)) => Err(error_text(&thrown)),
    }
}

/// The config as JSON: a parsed object, or the text of the file a string names.
pub(super) fn config_json(input: &JsValue) -> Result<Value, JsValue> {
    if let Some(path) = input.as_string() {
        if deno().is_none() && node_module("node:fs").is_none() {
            let why = "an MCP config file path needs Node (≥ 20.16) or Deno; in a browser pass the parsed config object";
            return Err(js_error("unsupported", why));
        }
        let text = read_file(&path)
            .map_err(|why| invalid(&format!("could not read the MCP config file {path}: {why}")))?;
        return crate::core::json::parse::from_str(&text).map_err(|e| {
            invalid(&format!(
                "the MCP config file {path} is not valid JSON: {e}"
            ))
        });
    }
    if !input.is_object() || js_sys::Array::is_array(input) {
        let got = type_name(input);
        return Err(invalid(&format!(
            "an MCP config must be an object or a file path, got {got}"
        )));
    }
    to_json(input).map_err(|why| invalid(&format!("the MCP config is not JSON data: {why}")))
}

fn entries(input: &JsValue) -> Result<Vec<ServerEntry>, JsValue> {
    parse_config(&config_json(input)?).map_err(|why| invalid(&why))
}

/// The `env` option (an object of strings), else the runtime's environment.
pub(super) fn environment(options: &JsValue) -> Result<(EnvLookup, Option<JsValue>), JsValue> {
    let given = get(options, "env");
    if given.is_undefined() || given.is_null() {
        return Ok((Rc::new(env_var), None));
    }
    let Ok(Value::Object(map)) = to_json(&given) else {
        return Err(js_error(
            "invalid_options",
            "env must be an object of strings",
        ));
    };
    let mut vars = Vec::new();
    for (name, value) in map {
        let Value::String(value) = value else {
            return Err(js_error(
                "invalid_options",
                &format!("env.{name} must be a string"),
            ));
        };
        vars.push((name, value));
    }
    let lookup = move |name: &str| vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    Ok((Rc::new(lookup), Some(given)))
}

fn processes(base_env: Option<JsValue>) -> Result<Rc<dyn Process>, String> {
    if let Some(deno) = deno().filter(|d| get(d, "Command").is_function()) {
        return Ok(Rc::new(DenoProcess::new(deno, base_env)));
    }
    match node_module("node:child_process") {
        Some(module) => Ok(Rc::new(NodeProcess::new(module, base_env))),
        None => Err("local (command) MCP servers need a process API (Node ≥ 20.16 or Deno); this runtime has none (a browser cannot start processes)".into()),
    }
}

fn host(options: &JsValue, wait_for: Option<Rc<dyn WaitFor>>) -> Result<McpHost, JsValue> {
    let (env, base_env) = environment(options)?;
    Ok(McpHost {
        http: McpFetch::new().map(|f| Rc::new(f) as Rc<dyn crate::core::host::Http>),
        process: processes(base_env),
        clock: Rc::new(JsClock),
        env,
        wait_for,
        spawn: Some(Rc::new(super::agents_host::LocalSpawn)),
        token_store: super::mcp_auth::token_store(options, "createToolkit")?,
        signer: Some(super::mcp_sign::signer()),
    })
}

/// Decodes `mcpConfig`, `env` and `waitFor` of `createToolkit` options; `None` without an
/// `mcpConfig`.
pub fn plan(options: &JsValue) -> Result<Option<McpPlan>, JsValue> {
    let config = get(options, "mcpConfig");
    if config.is_undefined() || config.is_null() {
        return Ok(None);
    }
    let entries = entries(&config)?;
    let wait_for = match get(options, "waitFor") {
        f if f.is_function() => Some(Rc::new(JsWaitFor(f.unchecked_into())) as Rc<dyn WaitFor>),
        f if f.is_undefined() || f.is_null() => None,
        _ => {
            return Err(js_error(
                "invalid_options",
                "createToolkit: waitFor must be a function",
            ))
        }
    };
    Ok(Some(McpPlan {
        entries,
        host: host(options, wait_for)?,
    }))
}

/// `{server: "connected" | "disabled" | "failed" | "pending"}` in config order.
pub fn status_object(servers: &[ServerState]) -> Result<JsValue, JsValue> {
    let map: Map<String, Value> = servers
        .iter()
        .map(|s| (s.name.clone(), Value::String(s.status.as_str().into())))
        .collect();
    from_json(&Value::Object(map))
}

/// `{server: reason}` for every failed server.
pub fn errors_object(servers: &[ServerState]) -> Result<JsValue, JsValue> {
    let map: Map<String, Value> = servers
        .iter()
        .filter_map(|s| s.error.clone().map(|e| (s.name.clone(), Value::String(e))))
        .collect();
    from_json(&Value::Object(map))
}

/// Reads an MCP config: the server map under `mcpServers`, `servers` or `mcp` (or the object
/// itself, minus `builtins`, `agents`, `a2a` and `mcpServer`), each server entry as given (as
/// the reference port returns it: nothing added, header values unexpanded). In Node and Deno
/// `input` may be a file path. Every entry is checked as a toolkit would read it: a config or
/// a server entry that cannot be used throws (`code: "invalid_config"`).
///
/// ```js
/// parseMcpConfig({ mcpServers: { docs: { url: "https://example.com/mcp" } } })
/// // { docs: { url: "https://example.com/mcp" } }
/// ```
#[wasm_bindgen(js_name = parseMcpConfig, unchecked_return_type = "Record<string, McpServerInput>")]
pub fn parse_mcp_config(
    #[wasm_bindgen(unchecked_param_type = "string | McpConfigInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    let json = config_json(&input)?;
    for entry in parse_config(&json).map_err(|why| invalid(&why))? {
        if let Err(why) = &entry.config {
            return Err(invalid(&format!("MCP server \"{}\": {why}", entry.name)));
        }
    }
    let servers = server_values(&json).map_err(|why| invalid(&why))?;
    let map: Map<String, Value> = servers
        .into_iter()
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    from_json(&Value::Object(map))
}

/// Connects to every enabled server, lists its tools (unfiltered, under their own names) and
/// disconnects. Never rejects for a server's sake: a server that fails is `"failed"` in
/// `status`, with its reason in `errors`. With `signal`, an already-aborted signal rejects at
/// once and one that fires stops the listing (code `"aborted"`; started servers are stopped).
///
/// ```js
/// const { tools, status, errors } = await listMcpTools({ mcpServers: { docs: { url } } })
/// tools.docs.map((t) => t.name) // ["search", "fetch"]
/// ```
#[wasm_bindgen(js_name = listMcpTools, unchecked_return_type = "Promise<McpInventory>")]
pub fn list_mcp_tools(
    #[wasm_bindgen(unchecked_param_type = "string | McpConfigInput")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "McpListOptions")] options: Option<JsValue>,
) -> js_sys::Promise {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let planned = entries(&input).and_then(|e| {
        let signal = signal_option(&options, "listMcpTools")?;
        Ok((e, host(&options, None)?, signal))
    });
    crate::js::promise::promise(async move {
        let (entries, host, signal) = planned?;
        let servers = unless_aborted(inventory(&entries, &host), signal, "listMcpTools").await?;
        let mut tools = Map::new();
        for server in servers.iter().filter(|s| s.status == Status::Connected) {
            let infos: Vec<Value> = server
                .listed
                .iter()
                .filter_map(listed)
                .map(|(name, description, schema)| {
                    crate::json_value!({"name": name, "description": description, "inputSchema": schema})
                })
                .collect();
            tools.insert(server.name.clone(), Value::Array(infos));
        }
        let out: JsValue = Object::new().into();
        super::host::set(&out, "tools", &from_json(&Value::Object(tools))?);
        super::host::set(&out, "status", &status_object(&servers)?);
        super::host::set(&out, "errors", &errors_object(&servers)?);
        Ok(out)
    })
}

/// What [`loadMcp`](load_mcp) resolves to: the servers' tools, their status, and `close()`.
///
/// ```js
/// const mcp = await loadMcp({ mcpServers: { docs: { url } } })
/// mcp.tools.map((t) => t.name) // ["docs_search"]
/// await mcp.close()
/// ```
#[wasm_bindgen(js_name = McpSource)]
pub struct McpSourceHandle {
    source: Rc<McpSource>,
    tools: js_sys::Array,
}

#[wasm_bindgen(js_class = McpSource)]
impl McpSourceHandle {
    /// The tools of the connected servers (`<server>_<tool>`), in config order.
    #[wasm_bindgen(getter, unchecked_return_type = "Tool[]")]
    pub fn tools(&self) -> js_sys::Array {
        self.tools.slice(0, self.tools.length())
    }

    /// `{server: "connected" | "disabled" | "failed"}` in config order.
    #[wasm_bindgen(getter, unchecked_return_type = "Record<string, McpStatus>")]
    pub fn status(&self) -> Result<JsValue, JsValue> {
        status_object(&self.source.states())
    }

    /// `{server: why it failed}` for every failed server.
    #[wasm_bindgen(getter, unchecked_return_type = "Record<string, string>")]
    pub fn errors(&self) -> Result<JsValue, JsValue> {
        errors_object(&self.source.states())
    }

    /// Ends every session (a DELETE for remote servers, stopping local ones).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> js_sys::Promise {
        let closing = self.source.close();
        crate::js::promise::promise(async move {
            closing.await;
            Ok(JsValue::UNDEFINED)
        })
    }
}

/// Connects to every enabled server of an MCP config and makes each listed tool a `Tool`
/// (what `createToolkit({mcpConfig})` does, without a toolkit). A server that fails is
/// isolated (`"failed"` in `status`, a console warning); the load rejects only for a config
/// that cannot be read (`invalid_config`) or when `signal` fires (`aborted`, the servers it
/// started are stopped). `waitFor` answers servers' elicitations; `env` replaces the runtime's
/// environment for `${NAME}` in headers.
///
/// ```js
/// const mcp = await loadMcp("./mcp.json", { signal: AbortSignal.timeout(10_000) })
/// const toolkit = await createToolkit({ extraTools: mcp.tools })
/// ```
#[wasm_bindgen(js_name = loadMcp, unchecked_return_type = "Promise<McpSource>")]
pub fn load_mcp(
    #[wasm_bindgen(unchecked_param_type = "string | McpConfigInput")] input: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "LoadMcpOptions")] options: Option<JsValue>,
) -> js_sys::Promise {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let planned = (|| {
        let entries = entries(&input)?;
        let wait_for = match get(&options, "waitFor") {
            f if f.is_function() => Some(Rc::new(JsWaitFor(f.unchecked_into())) as Rc<dyn WaitFor>),
            f if f.is_undefined() || f.is_null() => None,
            _ => {
                return Err(js_error(
                    "invalid_options",
                    "loadMcp: waitFor must be a function",
                ))
            }
        };
        let signal = signal_option(&options, "loadMcp")?;
        Ok((
            McpPlan {
                entries,
                host: host(&options, wait_for)?,
            },
            signal,
        ))
    })();
    crate::js::promise::promise(async move {
        let (plan, signal) = planned?;
        let source = Rc::new(unless_aborted(plan.load(), signal, "loadMcp").await?);
        let tools: js_sys::Array = source
            .tools
            .iter()
            .map(|tool| JsValue::from(super::tool::ToolHandle::new(tool.clone())))
            .collect();
        Ok(McpSourceHandle { source, tools }.into())
    })
}

/// Expands `${NAME}` in each header value from the runtime's environment (`process.env`,
/// `Deno.env`), or from `env` when given; an unset name becomes the empty string. `undefined`
/// stays `undefined`. The values are never logged; a header that is not a string throws
/// `invalid_options` naming the header, never its value.
///
/// ```js
/// expandEnvHeaders({ Authorization: "Bearer ${API_TOKEN}" }) // { Authorization: "Bearer s3cret" }
/// ```
#[wasm_bindgen(js_name = expandEnvHeaders, unchecked_return_type = "Record<string, string> | undefined")]
pub fn expand_env_headers(
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string>")] headers: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "Record<string, string>")] env: JsValue,
) -> Result<JsValue, JsValue> {
    if headers.is_undefined() || headers.is_null() {
        return Ok(JsValue::UNDEFINED);
    }
    let refuse = |why: &str| js_error("invalid_options", &format!("expandEnvHeaders: {why}"));
    let Ok(Value::Object(map)) = to_json(&headers) else {
        return Err(refuse(&format!(
            "headers must be an object of strings, got {}",
            type_name(&headers)
        )));
    };
    let options: JsValue = Object::new().into();
    super::host::set(&options, "env", &env);
    let (lookup, _) =
        environment(&options).map_err(|_| refuse("env must be an object of strings"))?;
    let mut out = Map::new();
    for (name, value) in map {
        let Value::String(value) = value else {
            return Err(refuse(&format!("header \"{name}\" must be a string")));
        };
        out.insert(name, Value::String(expand_env(&value, &*lookup)));
    }
    from_json(&Value::Object(out))
}

/// The `Request` an MCP `elicitation/create` becomes (the bridge onto `waitFor`): form mode is
/// `kind: "input"` with `data: {schema}`, URL mode `kind: "authorization"` with `url`.
///
/// ```js
/// elicitationToRequest({ message: "Your name?", requestedSchema: schema })
/// // { id: "elc-…", kind: "input", prompt: "Your name?", data: { schema } }
/// ```
#[wasm_bindgen(js_name = elicitationToRequest, unchecked_return_type = "Request")]
pub fn elicitation_to_request(
    #[wasm_bindgen(unchecked_param_type = "ElicitationParams")] params: JsValue,
) -> Result<JsValue, JsValue> {
    let params = match to_json(&params) {
        Ok(value @ Value::Object(_)) => value,
        _ => {
            return Err(js_error(
                "invalid_options",
                &format!(
                    "elicitationToRequest: params must be an object, got {}",
                    type_name(&params)
                ),
            ))
        }
    };
    let now = crate::core::host::Clock::now_ms(&JsClock);
    crate::js::convert::record_to_js(&crate::core::mcp::elicit::to_request(&params, now))
}

/// The MCP `ElicitResult` for an `Answer`: `ok` accepts with `data` (or `{}`) as content, a
/// `"declined"` reason declines, anything else cancels.
///
/// ```js
/// answerToElicitResult({ id: "1", ok: true, data: { name: "Ada" } }) // { action: "accept", content: { name: "Ada" } }
/// ```
#[wasm_bindgen(js_name = answerToElicitResult, unchecked_return_type = "ElicitResult")]
pub fn answer_to_elicit_result(
    #[wasm_bindgen(unchecked_param_type = "Answer")] answer: JsValue,
) -> Result<JsValue, JsValue> {
    let answer = to_json(&answer).map_err(|why| {
        js_error(
            "invalid_options",
            &format!("answerToElicitResult: the answer is not JSON data: {why}"),
        )
    })?;
    // The answer is judged on its own: its `id` is the one it answers.
    let id = answer
        .get("id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    from_json(&crate::core::mcp::elicit::to_result(Ok(answer), &id))
}
