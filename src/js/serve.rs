//! The MCP server profile for JavaScript (SPEC §7C): `buildMcpServer(tools, config)` and a
//! toolkit's `handler` / `serve` reach the core's [`McpServer`] and [`route`] here. `serve.js`
//! reads a WHATWG `Request` into the exchange [`McpServerHandle::exchange`] takes, and turns
//! what it answers back into a `Response`; it also adapts a server to an MCP SDK transport.

use js_sys::{Array, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get, js_error, record_to_js, to_json};
use super::host::{JsClock, JsSignal};
use super::tool::tool_from_js;
use super::toolkit::ToolkitHandle;
use crate::core::host::{LocalBoxFuture, Signal};
use crate::core::json::value::Value;
use crate::core::serve::elicit::{Asker, Modes};
use crate::core::serve::http::{route_asking, Inbound};
use crate::core::serve::mcp::{McpServeConfig, McpServer, OnCallEvent};

/// A stateless MCP server over a set of tools (internal: the facade's `McpServer` wraps it).
#[wasm_bindgen(js_name = McpServerCore)]
pub struct McpServerHandle {
    server: Rc<McpServer>,
}

#[wasm_bindgen(js_class = McpServerCore)]
impl McpServerHandle {
    /// One HTTP exchange, read off a `Request` by `serve.js`; `asker` (`{form, url, ask}`,
    /// where `ask(paramsText)` sends an `elicitation/create` and resolves to the client's
    /// result) when the client can be asked. Resolves to
    /// `[status, [[name, value], …], body, onCallEvent | undefined]`.
    #[allow(clippy::too_many_arguments)]
    #[wasm_bindgen(
        unchecked_return_type = "Promise<[number, [string, string][], string, OnCallEvent | undefined]>"
    )]
    pub fn exchange(
        &self,
        method: String,
        path: String,
        accept: Option<String>,
        content_type: Option<String>,
        protocol_version: Option<String>,
        body: String,
        #[wasm_bindgen(unchecked_param_type = "AbortSignal | undefined")] signal: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ form: boolean; url: boolean; ask(params: string): Promise<unknown> } | undefined"
        )]
        asker: JsValue,
    ) -> Promise {
        let inbound = Inbound {
            method,
            path,
            accept,
            content_type,
            protocol_version,
            body,
        };
        let server = self.server.clone();
        let signal = signal_of(&signal);
        let asker = asker_of(&asker);
        crate::js::promise::promise(async move {
            let (out, call) = route_asking(Some(&server), inbound, signal, asker).await;
            let headers: Array = out
                .headers
                .iter()
                .map(|(name, value)| -> JsValue {
                    Array::of2(&JsValue::from_str(name), &JsValue::from_str(value)).into()
                })
                .collect();
            let answer = Array::of4(
                &JsValue::from(out.status),
                &headers,
                &JsValue::from_str(&out.body),
                &event_to_js(call)?,
            );
            Ok(answer.into())
        })
    }

    /// One JSON-RPC message as JSON text (an SDK transport's). Resolves to
    /// `[replyText | undefined, onCallEvent | undefined]`.
    #[wasm_bindgen(
        unchecked_return_type = "Promise<[string | undefined, OnCallEvent | undefined]>"
    )]
    pub fn message(
        &self,
        text: String,
        #[wasm_bindgen(unchecked_param_type = "AbortSignal | undefined")] signal: JsValue,
        #[wasm_bindgen(
            unchecked_param_type = "{ form: boolean; url: boolean; ask(params: string): Promise<unknown> } | undefined"
        )]
        asker: JsValue,
    ) -> Promise {
        let server = self.server.clone();
        let signal = signal_of(&signal);
        let asker = asker_of(&asker);
        crate::js::promise::promise(async move {
            let handled = server.handle_text_asking(&text, signal, asker).await;
            let reply = handled
                .reply
                .map_or(JsValue::UNDEFINED, |t| JsValue::from_str(&t));
            Ok(Array::of2(&reply, &event_to_js(handled.call)?).into())
        })
    }
}

/// The transport's way to ask the client (`{form, url, ask}`), when it has one.
struct JsAsker {
    modes: Modes,
    ask: js_sys::Function,
}

impl Asker for JsAsker {
    fn modes(&self) -> Modes {
        self.modes
    }

    fn ask(&self, params: String) -> LocalBoxFuture<'static, Result<Value, String>> {
        let ask = self.ask.clone();
        Box::pin(async move {
            let asked = ask
                .call1(&JsValue::UNDEFINED, &JsValue::from_str(&params))
                .map_err(|e| error_text(&e))?;
            let result = crate::js::promise::settle(asked)
                .await
                .map_err(|e| error_text(&e))?;
            to_json(&result)
        })
    }
}

fn asker_of(value: &JsValue) -> Option<Rc<dyn Asker>> {
    let ask = get(value, "ask").dyn_into::<js_sys::Function>().ok()?;
    let modes = Modes {
        form: get(value, "form").is_truthy(),
        url: get(value, "url").is_truthy(),
    };
    Some(Rc::new(JsAsker { modes, ask }))
}

fn signal_of(value: &JsValue) -> Option<Signal> {
    JsSignal::from_js(value).map(|s| Rc::new(s) as Signal)
}

fn event_to_js(event: Option<OnCallEvent>) -> Result<JsValue, JsValue> {
    event.map_or(Ok(JsValue::UNDEFINED), |e| record_to_js(&e))
}

/// The profile `config` (absent is every default); `what` names it in the error.
pub fn config_from_js(config: &JsValue, what: &str) -> Result<McpServeConfig, JsValue> {
    read_config(config).map_err(|why| js_error("invalid_options", &format!("{what}: {why}")))
}

fn read_config(config: &JsValue) -> Result<McpServeConfig, String> {
    match to_json(config)? {
        Value::Null => Ok(McpServeConfig::default()),
        value @ Value::Object(_) => McpServeConfig::from_json(value),
        other => Err(format!(
            "expected {{name?, version?, tools?}}, got {}",
            crate::core::schema::type_name(&other)
        )),
    }
}

/// `buildMcpServer`'s core: a server over exactly `tools` (any `Tool`s), named by `config`.
#[wasm_bindgen(js_name = buildMcpServerCore)]
pub fn build_mcp_server(
    #[wasm_bindgen(unchecked_param_type = "ToolLike[]")] tools: JsValue,
    #[wasm_bindgen(unchecked_param_type = "MCPServeConfig | undefined")] config: JsValue,
) -> Result<McpServerHandle, JsValue> {
    let config = config_from_js(&config, "buildMcpServer")?;
    if !Array::is_array(&tools) {
        let why = "buildMcpServer: tools must be an array of tools";
        return Err(js_error("invalid_options", why));
    }
    let mut core_tools = Vec::new();
    for (at, item) in Array::from(&tools).iter().enumerate() {
        let tool = tool_from_js(&item, "custom").map_err(|why| {
            js_error(
                "invalid_tool",
                &format!("buildMcpServer: tools[{at}]: {why}"),
            )
        })?;
        core_tools.push(tool);
    }
    let server = McpServer::new(core_tools, &config, Some(Rc::new(JsClock)));
    Ok(McpServerHandle {
        server: Rc::new(server),
    })
}

#[wasm_bindgen(js_class = Toolkit)]
impl ToolkitHandle {
    /// Internal (the facade's `handler`): an MCP server over this toolkit's tools as they are
    /// at each request, narrowed by `config.tools`; `config` absent reads the `mcpServer`
    /// block of the toolkit's `mcpConfig`, and `undefined` comes back when neither is given
    /// (the profile is off).
    #[wasm_bindgen(js_name = __mcpServer, unchecked_return_type = "McpServerCore | undefined")]
    pub fn mcp_server(
        &self,
        #[wasm_bindgen(unchecked_param_type = "MCPServeConfig | undefined")] config: JsValue,
    ) -> Result<JsValue, JsValue> {
        let config = if config.is_undefined() || config.is_null() {
            match self.mcp_server_block() {
                Some(block) => block.clone(),
                None => return Ok(JsValue::UNDEFINED),
            }
        } else {
            config_from_js(&config, "handler: mcp")?
        };
        let server = McpServer::over_toolkit(self.core_kit(), &config, Some(Rc::new(JsClock)));
        Ok(McpServerHandle {
            server: Rc::new(server),
        }
        .into())
    }

    /// Internal (the facade's `handler`): the toolkit's `mcpConfig.a2a` block as given (the
    /// A2A profile when `handler` gets no `a2a`), `undefined` when it has none.
    #[wasm_bindgen(js_name = __a2aConfig, unchecked_return_type = "unknown")]
    pub fn a2a_config(&self) -> JsValue {
        self.a2a_block()
    }

    /// Internal (the facade's Agent Card): `[{name, description}]` of the toolkit's skills, in
    /// the skill source's order (`description` is `""` when a skill has none).
    #[wasm_bindgen(
        js_name = __skillCards,
        unchecked_return_type = "{ name: string; description: string }[]"
    )]
    pub fn skill_card_list(&self) -> Array {
        self.skill_cards()
            .iter()
            .map(|(name, description)| {
                let entry = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&entry, &"name".into(), &name.into());
                let _ = js_sys::Reflect::set(&entry, &"description".into(), &description.into());
                JsValue::from(entry)
            })
            .collect()
    }
}

/// `createToolkit`'s `mcpConfig.a2a` block as given; `undefined` when there is none.
pub fn a2a_block_of(options: &JsValue) -> JsValue {
    let mcp_config = get(options, "mcpConfig");
    if mcp_config.is_object() {
        get(&mcp_config, "a2a")
    } else {
        JsValue::UNDEFINED
    }
}

/// The `mcpServer` block of `createToolkit`'s `mcpConfig` object, checked.
pub fn mcp_server_block(options: &JsValue) -> Result<Option<McpServeConfig>, JsValue> {
    let mcp_config = get(options, "mcpConfig");
    if !mcp_config.is_object() {
        return Ok(None);
    }
    let block = get(&mcp_config, "mcpServer");
    if block.is_undefined() || block.is_null() {
        return Ok(None);
    }
    read_config(&block).map(Some).map_err(|why| {
        js_error(
            "invalid_config",
            &format!("createToolkit: mcpConfig.mcpServer: {why}"),
        )
    })
}
