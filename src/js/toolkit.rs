//! `createToolkit(options)` and the `Toolkit` class (SPEC §4) over the core toolkit.

use crate::core::json::value::{Map, Value};
use crate::core::names::Names;
use js_sys::Array;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::{from_json, from_json_text, get, js_error, record_to_js, to_json, type_name};
use super::host::{signal_option, unless_aborted, JsClock};
use super::tool::{decode_call, tool_from_js, ToolHandle};
#[cfg(not(feature = "full"))]
use super::toolkit_lean as sources;
#[cfg(feature = "full")]
use super::toolkit_sources as sources;
use crate::core::adapters;
use crate::core::tool::SharedTool;
use crate::core::toolkit::{Sources, Toolkit};

/// One A2A agent's state, for `agentStatus()` and `agentErrors()`.
pub struct AgentRow {
    /// Its card URL.
    pub card: String,
    /// `"connected"` or `"failed"`.
    pub status: &'static str,
    /// Why it failed (header values never in it).
    pub error: Option<String>,
}

struct State {
    kit: Rc<Toolkit>,
    /// The JS object each tool was given as, by name (core-made tools get a `Tool` face).
    faces: RefCell<Names<JsValue>>,
    /// The MCP servers and their sessions, when `mcpConfig` was given.
    mcp: Option<sources::Mcp>,
    /// The MCP serve profile of `mcpConfig.mcpServer`, the default of `handler` / `serve`.
    #[cfg(feature = "full")]
    mcp_server: Option<crate::core::serve::mcp::McpServeConfig>,
    /// The `a2a` block of `mcpConfig` as given (the A2A profile's default), else `undefined`.
    #[cfg(feature = "full")]
    a2a_block: JsValue,
    /// Each skill's name and description, for the A2A profile's Agent Card.
    #[cfg(feature = "full")]
    skill_cards: Vec<super::skills::SkillCardEntry>,
    /// Every A2A agent loaded or added, in order.
    agents: RefCell<Vec<AgentRow>>,
}

impl State {
    fn face(&self, tool: &SharedTool) -> JsValue {
        let name = &tool.spec().name;
        if let Some(face) = self.faces.borrow().get(name.as_str()) {
            return face.clone();
        }
        let face: JsValue = ToolHandle::new(tool.clone()).into();
        self.faces.borrow_mut().insert(name.clone(), face.clone());
        face
    }

    /// Registers JS tools; remembers the face of each one that was kept.
    fn add(&self, tools: Vec<(SharedTool, JsValue)>) {
        for (tool, face) in tools {
            let name = tool.spec().name.clone();
            match self.kit.register(tool) {
                Ok(()) => {
                    self.faces.borrow_mut().insert(name, face);
                }
                Err(warning) => warn(&warning),
            }
        }
    }
}

fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("[toolnexus] {message}")));
}

/// An assembled set of tools with one router and the provider adapters.
///
/// ```js
/// const toolkit = await createToolkit({ extraTools: [weather] })
/// toolkit.toOpenAI() // [{ type: "function", function: { name: "get_weather", … } }]
/// await toolkit.execute("get_weather", { city: "Paris" })
/// ```
#[wasm_bindgen(js_name = Toolkit)]
pub struct ToolkitHandle {
    state: Rc<State>,
    id: u32,
}

thread_local! {
    /// Live toolkits by id, so a client given a `Toolkit` object can reach its core toolkit.
    static LIVE: RefCell<Names<std::rc::Weak<Toolkit>, u32>> = RefCell::new(Names::default());
    static NEXT_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
    /// The last toolkit found by id: a client runs with the same toolkit run after run, and
    /// this answers without hashing. Ids are never reused, so an entry can only go stale by
    /// its toolkit dying, which `upgrade` sees.
    static LAST_FOUND: RefCell<Option<(u32, std::rc::Weak<Toolkit>)>> = const { RefCell::new(None) };
}

impl Drop for ToolkitHandle {
    fn drop(&mut self) {
        let id = self.id;
        LIVE.with(|live| live.borrow_mut().remove(&id));
        LAST_FOUND.with(|last| {
            let mut last = last.borrow_mut();
            if last.as_ref().is_some_and(|(at, _)| *at == id) {
                *last = None;
            }
        });
    }
}

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// See `shim.js`: remembers a `Toolkit` object this instance made, with its id.
    #[wasm_bindgen(js_name = rememberToolkit)]
    fn shim_remember_toolkit(toolkit: &JsValue, marker: &JsValue, id: u32);
}

thread_local! {
    /// This module instance's own marker: a toolkit object is found by it, so one made by
    /// another instance of the module (ESM and CommonJS side by side) never matches.
    static MARKER: JsValue = js_sys::Object::new().into();
}

/// The marker [`core_toolkit_by_id`] ids go with (see `runOptions` in `shim.js`).
pub fn instance_marker() -> JsValue {
    MARKER.with(JsValue::clone)
}

/// The core toolkit of the id `runOptions` found for a `Toolkit` object, if it still lives.
pub fn core_toolkit_by_id(id: &JsValue) -> Option<Rc<Toolkit>> {
    let id = id.as_f64()? as u32;
    let cached = LAST_FOUND.with(|last| match &*last.borrow() {
        Some((at, kit)) if *at == id => kit.upgrade(),
        _ => None,
    });
    if cached.is_some() {
        return cached;
    }
    let found = LIVE.with(|live| live.borrow().get(&id).cloned())?;
    let kit = found.upgrade()?;
    LAST_FOUND.with(|last| *last.borrow_mut() = Some((id, found)));
    Some(kit)
}

impl ToolkitHandle {
    /// The core toolkit.
    pub fn core_kit(&self) -> Rc<Toolkit> {
        self.state.kit.clone()
    }

    /// The `mcpConfig.mcpServer` block the toolkit was made with.
    #[cfg(feature = "full")]
    pub fn mcp_server_block(&self) -> Option<&crate::core::serve::mcp::McpServeConfig> {
        self.state.mcp_server.as_ref()
    }

    /// The toolkit's `mcpConfig.a2a` block as given; `undefined` when it has none.
    #[cfg(feature = "full")]
    pub fn a2a_block(&self) -> JsValue {
        self.state.a2a_block.clone()
    }

    /// Each skill's name and description, in the skill source's order.
    #[cfg(feature = "full")]
    pub fn skill_cards(&self) -> &[super::skills::SkillCardEntry] {
        &self.state.skill_cards
    }
}

#[wasm_bindgen(js_class = Toolkit)]
impl ToolkitHandle {
    /// Every tool, in assembly order (MCP → skill → built-in → A2A agents → extra tools).
    #[wasm_bindgen(unchecked_return_type = "Tool[]")]
    pub fn tools(&self) -> Array {
        let tools = self.state.kit.tools();
        tools.iter().map(|t| self.state.face(t)).collect()
    }

    /// The tool called `name`, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "Tool | undefined")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue) -> JsValue {
        let Some(name) = name.as_string() else {
            return JsValue::UNDEFINED;
        };
        let tool = self.state.kit.get(&name);
        tool.map_or(JsValue::UNDEFINED, |t| self.state.face(&t))
    }

    /// Adds tools at run time; the first of a duplicate name wins (the later one is refused
    /// with a console warning). `register(...tools)` is the variadic form of this.
    ///
    /// ```js
    /// toolkit.registerAll([toolA, toolB])
    /// ```
    #[wasm_bindgen(js_name = registerAll)]
    pub fn register_all(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolLike[]")] tools: JsValue,
    ) -> Result<(), JsValue> {
        let tools = tools_from_js(&tools, "register")?;
        refuse_relay_collision(&tools, "register")?;
        self.state.add(tools);
        Ok(())
    }

    /// Runs the tool `name`. An unknown name, arguments that are not an object or do not match
    /// the tool's `inputSchema`, and every tool failure resolve to `{isError: true, output}`.
    ///
    /// ```js
    /// const r = await toolkit.execute("get_weather", { city: "Paris" }, { timeout: 10_000 })
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolResult>")]
    pub fn execute(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] args: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "ToolContext")] ctx: Option<JsValue>,
    ) -> js_sys::Promise {
        let (args, ctx) = (
            args.unwrap_or(JsValue::NULL),
            ctx.unwrap_or(JsValue::UNDEFINED),
        );
        let name = name
            .as_string()
            .unwrap_or_else(|| super::convert::js_string(&name));
        let call = decode_call(&name, &args, &ctx)
            .map(|(args, ctx)| self.state.kit.execute(&name, args, ctx));
        crate::js::promise::promise(async move {
            let result = match call {
                Ok(call) => call.await,
                Err(result) => result,
            };
            record_to_js(&result)
        })
    }

    /// The skill catalog for the system prompt (SPEC §3); empty without a skill source.
    #[wasm_bindgen(js_name = skillsPrompt)]
    pub fn skills_prompt(&self) -> String {
        self.state.kit.skills_prompt()
    }

    /// Each MCP server's status: `"connected" | "disabled" | "failed" | "pending"` (waiting
    /// for a sign-in: [`mcpPending`](Self::mcp_pending)).
    #[wasm_bindgen(js_name = mcpStatus, unchecked_return_type = "Record<string, McpStatus>")]
    pub fn mcp_status(&self) -> Result<JsValue, JsValue> {
        match &self.state.mcp {
            Some(mcp) => sources::mcp_status(mcp),
            None => Ok(js_sys::Object::new().into()),
        }
    }

    /// The sign-in Requests (SPEC §10, kind `"authorization"`) of the MCP servers whose status
    /// is `"pending"`: OAuth servers made without `waitFor`. Send the person to `request.url`;
    /// after the redirect, hand what it came back to to [`mcpResume`](Self::mcp_resume).
    ///
    /// ```js
    /// const [request] = toolkit.mcpPending() // { id: "oauth-…", kind: "authorization", url: "https://as/authorize?…", … }
    /// ```
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = mcpPending, unchecked_return_type = "Request[]")]
    pub fn mcp_pending(&self) -> Result<JsValue, JsValue> {
        match &self.state.mcp {
            Some(mcp) => sources::mcp_pending(mcp),
            None => Ok(js_sys::Array::new().into()),
        }
    }

    /// Finishes a pending MCP sign-in: `answer` is `{id, ok: true, data: {url}}` with `url` the
    /// whole URL the authorization server redirected to. The state (and `iss`) is checked, the
    /// code exchanged once, the tokens kept in the `tokenStore`, and the server connected: its
    /// tools join the toolkit. Resolves with the server's new status (`"connected"`, or
    /// `"failed"` with the reason in `mcpErrors()`); an answer to no pending sign-in rejects
    /// (`invalid_argument`).
    ///
    /// ```js
    /// await toolkit.mcpResume({ id: request.id, ok: true, data: { url: location.href } }) // "connected"
    /// ```
    #[cfg(feature = "full")]
    #[wasm_bindgen(js_name = mcpResume, unchecked_return_type = "Promise<McpStatus>")]
    pub fn mcp_resume(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Answer")] answer: JsValue,
    ) -> js_sys::Promise {
        match &self.state.mcp {
            Some(mcp) => sources::mcp_resume(mcp, &answer),
            None => js_sys::Promise::reject(&super::convert::js_error(
                "invalid_argument",
                "mcpResume: this toolkit has no MCP servers",
            )),
        }
    }

    /// Why each failed MCP server failed, by server name (secrets redacted).
    ///
    /// ```js
    /// toolkit.mcpErrors() // { flaky: "timed out after 5000 ms during initialize" }
    /// ```
    #[wasm_bindgen(js_name = mcpErrors, unchecked_return_type = "Record<string, string>")]
    pub fn mcp_errors(&self) -> Result<JsValue, JsValue> {
        match &self.state.mcp {
            Some(mcp) => sources::mcp_errors(mcp),
            None => Ok(js_sys::Object::new().into()),
        }
    }

    /// Each A2A agent's status by card URL: `"connected" | "failed"` (agents of `createToolkit`
    /// and of `addAgent`, in order).
    ///
    /// ```js
    /// toolkit.agentStatus() // { "http://127.0.0.1:8000/.well-known/agent-card.json": "connected" }
    /// ```
    #[wasm_bindgen(js_name = agentStatus, unchecked_return_type = "Record<string, AgentStatus>")]
    pub fn agent_status(&self) -> Result<JsValue, JsValue> {
        let map: Map<String, Value> = self
            .state
            .agents
            .borrow()
            .iter()
            .map(|a| (a.card.clone(), Value::from(a.status)))
            .collect();
        from_json(&Value::Object(map))
    }

    /// Why each failed A2A agent failed, by card URL (header values never in it).
    ///
    /// ```js
    /// toolkit.agentErrors() // { "http://127.0.0.1:9/.well-known/agent-card.json": "A2A Agent Card: could not reach …" }
    /// ```
    #[wasm_bindgen(js_name = agentErrors, unchecked_return_type = "Record<string, string>")]
    pub fn agent_errors(&self) -> Result<JsValue, JsValue> {
        let map: Map<String, Value> = self
            .state
            .agents
            .borrow()
            .iter()
            .filter_map(|a| a.error.clone().map(|e| (a.card.clone(), Value::from(e))))
            .collect();
        from_json(&Value::Object(map))
    }

    /// Fetches a remote A2A agent's card and registers one tool per skill (the first of a
    /// duplicate name wins). Takes an `agent({card, …})` descriptor, or a card URL with
    /// `{headers?, timeout?, pollEvery?}`. Rejects when the card cannot be had (`network`,
    /// `http_status`, `timeout`, `bad_response`); the lean build rejects `unsupported`.
    ///
    /// ```js
    /// await toolkit.addAgent("http://127.0.0.1:8000/.well-known/agent-card.json", { pollEvery: 250 })
    /// ```
    #[wasm_bindgen(js_name = addAgentTools, unchecked_return_type = "Promise<void>")]
    pub fn add_agent_tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Agent | string")] agent: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AgentOptions")] options: Option<JsValue>,
    ) -> js_sys::Promise {
        let state = self.state.clone();
        let options = options.unwrap_or(JsValue::UNDEFINED);
        crate::js::promise::promise(async move { add_agent(state, agent, options).await })
    }

    /// OpenAI tool schemas: `[{type: "function", function: {name, description, parameters}}]`.
    #[wasm_bindgen(js_name = toOpenAI, unchecked_return_type = "OpenAITool[]")]
    pub fn to_openai(&self) -> Result<JsValue, JsValue> {
        let list = self.state.kit.tool_list("openai", |specs| {
            adapters::openai_text(specs.iter().copied())
        });
        from_json_text(list.text())
    }

    /// Anthropic tool schemas: `[{name, description, input_schema}]`.
    #[wasm_bindgen(js_name = toAnthropic, unchecked_return_type = "AnthropicTool[]")]
    pub fn to_anthropic(&self) -> Result<JsValue, JsValue> {
        let list = self.state.kit.tool_list("anthropic", |specs| {
            adapters::anthropic_text(specs.iter().copied())
        });
        from_json_text(list.text())
    }

    /// Gemini tool schemas: `[{functionDeclarations: [{name, description, parameters}]}]`.
    #[wasm_bindgen(js_name = toGemini, unchecked_return_type = "GeminiTools")]
    pub fn to_gemini(&self) -> Result<JsValue, JsValue> {
        let list = self.state.kit.tool_list("gemini", |specs| {
            adapters::gemini_text(specs.iter().copied())
        });
        from_json_text(list.text())
    }

    /// Ends every MCP session (a DELETE for remote servers, stopping local ones).
    ///
    /// ```js
    /// await toolkit.close()
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(&self) -> js_sys::Promise {
        let mcp = self.state.mcp.clone();
        crate::js::promise::promise(async move {
            if let Some(mcp) = mcp {
                sources::close(mcp).await;
            }
            Ok(JsValue::UNDEFINED)
        })
    }
}

#[cfg(feature = "full")]
async fn add_agent(state: Rc<State>, agent: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let spec = super::a2a::spec_from_js(&agent, &options, "addAgent")?;
    let host = super::a2a::host_for(&agent, &options)?;
    let card = spec.card.clone();
    match super::a2a::resolve(spec, host).await {
        Ok(tools) => {
            for tool in tools {
                if let Err(warning) = state.kit.register(tool) {
                    warn(&warning);
                }
            }
            state.agents.borrow_mut().push(AgentRow {
                card,
                status: "connected",
                error: None,
            });
            Ok(JsValue::UNDEFINED)
        }
        Err(error) => {
            state.agents.borrow_mut().push(AgentRow {
                card,
                status: "failed",
                error: Some(error.to_string()),
            });
            Err(super::a2a::card_error(&error))
        }
    }
}

#[cfg(not(feature = "full"))]
async fn add_agent(
    _state: Rc<State>,
    _agent: JsValue,
    _options: JsValue,
) -> Result<JsValue, JsValue> {
    Err(js_error(
        "unsupported",
        "addAgent: A2A agents need the full build: import from \"toolnexus-wasm\", not \"toolnexus-wasm/core\"",
    ))
}

/// Reads a JS array of tools; the first bad entry is a thrown error naming its position.
fn tools_from_js(value: &JsValue, what: &str) -> Result<Vec<(SharedTool, JsValue)>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    if !Array::is_array(value) {
        let message = format!(
            "{what}: expected an array of tools, got {}",
            type_name(value)
        );
        return Err(js_error("invalid_options", &message));
    }
    let mut tools = Vec::new();
    for (index, item) in Array::from(value).iter().enumerate() {
        let tool = tool_from_js(&item, "custom")
            .map_err(|why| js_error("invalid_tool", &format!("{what}[{index}]: {why}")))?;
        tools.push((tool, item));
    }
    Ok(tools)
}

fn string_list(options: &JsValue, key: &str) -> Result<Vec<String>, JsValue> {
    let refused = |got: String| {
        js_error(
            "invalid_options",
            &format!("createToolkit: {key} must be an array of strings, got {got}"),
        )
    };
    match to_json(&get(options, key)) {
        Ok(Value::Null) => Ok(Vec::new()),
        Ok(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(at, item)| match item {
                Value::String(text) => Ok(text),
                other => Err(refused(format!(
                    "{} at [{at}]",
                    crate::core::schema::type_name(&other)
                ))),
            })
            .collect(),
        _ => Err(refused(type_name(&get(options, key)))),
    }
}

/// A relay tool named like a built-in tool is refused, even with built-ins off.
fn refuse_relay_collision(tools: &[(SharedTool, JsValue)], what: &str) -> Result<(), JsValue> {
    let tools: Vec<SharedTool> = tools.iter().map(|(t, _)| t.clone()).collect();
    match crate::core::relay::relay_collision(&tools) {
        Some(why) => Err(js_error("invalid_tool", &format!("{what}: {why}"))),
        None => Ok(()),
    }
}

fn build(options: &JsValue, loaded: sources::Loaded) -> Result<ToolkitHandle, JsValue> {
    let sources::Loaded {
        skill,
        mcp,
        agents,
        agent_rows,
    } = loaded;
    if !(options.is_undefined() || options.is_null() || options.is_object()) {
        let message = format!(
            "createToolkit: options must be an object, got {}",
            type_name(options)
        );
        return Err(js_error("invalid_options", &message));
    }
    #[cfg(feature = "full")]
    let mcp_server = super::serve::mcp_server_block(options)?;
    let extras = tools_from_js(&get(options, "extraTools"), "extraTools")?;
    refuse_relay_collision(&extras, "createToolkit")?;
    #[cfg(feature = "full")]
    let (skill, skills_prompt, skill_cards) = match skill {
        Some((tool, prompt, cards)) => (Some(tool), Some(prompt), cards),
        None => (None, None, Vec::new()),
    };
    #[cfg(not(feature = "full"))]
    let (skill, skills_prompt) = skill.unzip();
    let sources = Sources {
        mcp: mcp.as_ref().map(sources::mcp_tools).unwrap_or_default(),
        skill,
        skills_prompt: skills_prompt.unwrap_or_default(),
        builtins: sources::builtin_tools(options)?,
        builtins_config: sources::builtins_config(options)?,
        disable_tools: string_list(options, "disableTools")?,
        agents,
        extras: extras.iter().map(|(t, _)| t.clone()).collect(),
    };
    let (mut kit, warnings) = Toolkit::assemble(sources);
    warnings.iter().for_each(|w| warn(w));
    kit.set_clock(Rc::new(JsClock));
    let mut faces = Names::default();
    for (tool, face) in extras {
        let kept = kit.get(&tool.spec().name);
        if kept.is_some_and(|k| std::ptr::addr_eq(Rc::as_ptr(&k), Rc::as_ptr(&tool))) {
            faces.insert(tool.spec().name.clone(), face);
        }
    }
    let kit = Rc::new(kit);
    let id = NEXT_ID.with(|next| {
        let id = next.get();
        next.set(id.wrapping_add(1));
        id
    });
    LIVE.with(|live| live.borrow_mut().insert(id, Rc::downgrade(&kit)));
    let state = State {
        kit,
        faces: RefCell::new(faces),
        mcp,
        #[cfg(feature = "full")]
        mcp_server,
        #[cfg(feature = "full")]
        a2a_block: super::serve::a2a_block_of(options),
        #[cfg(feature = "full")]
        skill_cards,
        agents: RefCell::new(agent_rows),
    };
    let state = Rc::new(state);
    if let Some(mcp) = &state.mcp {
        // A server's changed tool list swaps its tools in place (their JS faces with them).
        let watched = Rc::downgrade(&state);
        sources::on_tools_changed(
            mcp,
            Rc::new(move |old: &[SharedTool], new: &[SharedTool]| {
                let Some(state) = watched.upgrade() else {
                    return;
                };
                for tool in old {
                    state.faces.borrow_mut().remove(tool.spec().name.as_str());
                }
                for warning in state.kit.replace(old, new.to_vec()) {
                    warn(&warning);
                }
            }),
        );
    }
    Ok(ToolkitHandle { state, id })
}

/// Assembles a toolkit (SPEC §4). Resolves to a [`Toolkit`]; invalid options reject with an
/// `Error` whose `code` says what kind of problem it is. `signal` bounds the loading (skills,
/// MCP servers): an already-aborted signal rejects at once, one that fires stops the load and
/// the servers it started (code `"aborted"`).
///
/// ```js
/// import { createToolkit, defineTool } from "toolnexus-wasm"
/// const toolkit = await createToolkit({ extraTools: [weather], builtins: { tools: { bash: false } } })
/// ```
#[wasm_bindgen(js_name = createToolkit, unchecked_return_type = "Promise<Toolkit>")]
pub fn create_toolkit(
    #[wasm_bindgen(unchecked_optional_param_type = "ToolkitOptions")] options: Option<JsValue>,
) -> js_sys::Promise {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let planned = sources::plan(&options)
        .and_then(|plan| Ok((plan, signal_option(&options, "createToolkit")?)));
    crate::js::promise::promise(async move {
        let (plan, signal) = planned?;
        let loaded = unless_aborted(plan.load(), signal, "createToolkit").await?;
        let mcp = loaded.mcp.clone();
        match build(&options, loaded) {
            Ok(handle) => {
                let id = handle.id;
                let toolkit = JsValue::from(handle);
                shim_remember_toolkit(&toolkit, &instance_marker(), id);
                Ok(toolkit)
            }
            Err(error) => {
                if let Some(mcp) = mcp {
                    sources::close(mcp).await;
                }
                Err(error)
            }
        }
    })
}
