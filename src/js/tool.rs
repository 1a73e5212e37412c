//! Tools whose behaviour is JavaScript: `defineTool({name, description, inputSchema, run})`,
//! and any object shaped like a reference `Tool` (`execute(args, ctx)`). Both become one core
//! [`Tool`]; the exported `Tool` class gives any core tool a JS face.

use super::outcome::{Outcome, Tag};
use super::slot::{settler, Slot};
use crate::core::json::value::Value;
use js_sys::Function;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use crate::core::json::record::Record;

use super::convert::{from_json_text, get, js_error, record_to_js, to_json, type_name};
use super::host::{signal_from, JsClock, JsSignal};
use super::run_context::Unfired;
use super::tool_result::decode_outcome;
use crate::core::execute::run_checked;
use crate::core::host::LocalBoxFuture;
use crate::core::json;
use crate::core::spec::{empty_schema, ToolSpec};
use crate::core::tool::{Context, SharedTool, Tool};
use crate::core::types::{Answer, ToolResult};

/// A core tool that calls a JS function `func` (with `this`) as `func(args, ctx)`.
pub struct JsTool {
    spec: ToolSpec,
    this: JsValue,
    func: Function,
}

impl Tool for JsTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    /// Calls the function at once (a tool runs when its future is made); a result it gives
    /// synchronously is read then, so the future holds no copy of the function or the name.
    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        self.execute_ref(&args, ctx)
    }

    /// The arguments are only written out as text: never copied.
    fn execute_ref(&self, args: &Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let signal = ctx.signal.as_ref().and_then(|s| {
            let any = s.as_any();
            match any.downcast_ref::<JsSignal>() {
                Some(js) => Some(js.js().clone()),
                None => any.is::<Unfired>().then_some(JsValue::TRUE),
            }
        });
        let answer = ctx.answer.as_ref().map(Record::to_json_text);
        let args = json::text::to_text(args);
        let slot = Slot::new();
        let returned = shim_call_tool(
            &self.func,
            &self.this,
            &args,
            signal,
            ctx.timeout_ms,
            answer,
            &settler(),
            slot.id(),
        );
        if !returned.is_undefined() {
            slot.unused();
            let result = shim_result(&self.spec.name, returned);
            return Box::pin(async move { result });
        }
        let name = self.spec.name.clone();
        Box::pin(async move { shim_result(&name, slot.await) })
    }
}

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// See `shim.js`: a tool definition's fields as JSON text, or `undefined`.
    #[wasm_bindgen(js_name = toolFields)]
    fn shim_tool_fields(tool: &JsValue) -> JsValue;

    /// See `shim.js`: the whole call of a JS tool function in one crossing.
    #[wasm_bindgen(js_name = callTool)]
    fn shim_call_tool(
        func: &Function,
        this: &JsValue,
        args: &str,
        signal: Option<JsValue>,
        timeout: Option<f64>,
        answer: Option<String>,
        settle: &Function,
        slot: u32,
    ) -> JsValue;
}

/// Reads what `callTool` gave back: a string (the output), `[TOOL_RESULT, output, isError]` (a
/// plain ToolResult), `[VALUE, value]` (anything else) or `[THREW, thrown]`, as the tool's result.
fn shim_result(name: &str, outcome: JsValue) -> ToolResult {
    if let Some(output) = outcome.as_string() {
        return ToolResult::ok(output);
    }
    let outcome = Outcome(outcome);
    match outcome.tag() {
        Some(Tag::ToolResult) => ToolResult {
            parts: None,
            output: outcome.part(1).as_string().unwrap_or_default(),
            is_error: outcome.part(2).is_truthy(),
            metadata: None,
        },
        Some(Tag::Value) => decode_outcome(name, Ok(outcome.part(1))),
        _ => decode_outcome(name, Err(outcome.part(1))),
    }
}

/// Builds a core tool from a JS value: a reference-shaped tool object (`execute`), the
/// `Tool` class, or `defineTool` options (`run`). `default_source` fills a missing `source`.
pub fn tool_from_js(value: &JsValue, default_source: &str) -> Result<SharedTool, String> {
    if let Some(tool) = core_tool(value) {
        return Ok(tool);
    }
    let spec = spec_from_js(value, default_source)?;
    let execute = get(value, "execute").dyn_into::<Function>();
    let run = get(value, "run").dyn_into::<Function>();
    let (this, func) = match (execute, run) {
        (Ok(execute), _) => (value.clone(), execute),
        (Err(_), Ok(run)) => (JsValue::UNDEFINED, run),
        _ => {
            return Err(format!(
                "tool \"{}\" needs an execute(args, ctx) function",
                spec.name
            ))
        }
    };
    Ok(Rc::new(JsTool { spec, this, func }))
}

/// Reads and checks `name`, `description`, `inputSchema` and `source` of a JS tool.
pub fn spec_from_js(value: &JsValue, default_source: &str) -> Result<ToolSpec, String> {
    // The usual definition: every field read in one crossing, the schema kept as its text.
    if let Some(text) = shim_tool_fields(value).as_string() {
        if let Some(spec) = ToolSpec::from_fields_text(&text, default_source) {
            return spec.map_err(|e| e.to_string());
        }
    }
    if !value.is_object() {
        return Err(format!(
            "a tool must be an object with name, description, inputSchema and execute, got {}",
            type_name(value)
        ));
    }
    let name = get(value, "name");
    let Some(name) = name.as_string() else {
        return Err(format!(
            "a tool needs a string \"name\", got {}",
            type_name(&name)
        ));
    };
    let description = optional_string(value, "description", &name)?.unwrap_or_default();
    let source = optional_string(value, "source", &name)?.unwrap_or_else(|| default_source.into());
    let schema = get(value, "inputSchema");
    let schema = if schema.is_undefined() || schema.is_null() {
        empty_schema()
    } else {
        to_json(&schema)
            .map_err(|why| format!("tool \"{name}\": inputSchema is not JSON: {why}"))?
    };
    ToolSpec::new(name, description, schema, source).map_err(|e| e.to_string())
}

fn optional_string(value: &JsValue, key: &str, tool: &str) -> Result<Option<String>, String> {
    let field = get(value, key);
    if field.is_undefined() || field.is_null() {
        return Ok(None);
    }
    field.as_string().map(Some).ok_or_else(|| {
        format!(
            "tool \"{tool}\": \"{key}\" must be a string, got {}",
            type_name(&field)
        )
    })
}

/// Reads a JS `{signal?, timeout?, answer?}`; a value of the wrong type is an error.
pub fn ctx_from_js(value: &JsValue) -> Result<Context, String> {
    if value.is_undefined() || value.is_null() {
        return Ok(Context::default());
    }
    if !value.is_object() {
        return Err(format!("ctx must be an object, got {}", type_name(value)));
    }
    let signal = signal_from(value)?.map(|s| s as crate::core::host::Signal);
    let timeout = get(value, "timeout");
    let timeout_ms = match timeout.as_f64() {
        Some(ms) if ms.is_finite() && ms >= 0.0 => Some(ms),
        None if timeout.is_undefined() || timeout.is_null() => None,
        _ => return Err("ctx.timeout must be a non-negative number of milliseconds".into()),
    };
    let answer = get(value, "answer");
    let answer = if answer.is_undefined() || answer.is_null() {
        None
    } else {
        let json = to_json(&answer)?;
        Some(Answer::from_json(json).map_err(|_| {
            "ctx.answer must be an Answer {id: string, ok: boolean, data?: object, reason?: string}".to_owned()
        })?)
    };
    Ok(Context {
        signal,
        timeout_ms,
        answer,
        request: None,
    })
}

/// Decodes a JS call's arguments and context; a bad value becomes the error result the caller
/// gets back instead of running the tool.
pub fn decode_call(
    name: &str,
    args: &JsValue,
    ctx: &JsValue,
) -> Result<(Value, Context), ToolResult> {
    let args = to_json(args).map_err(|why| {
        ToolResult::error(format!("Invalid arguments for tool \"{name}\": {why}"))
    })?;
    let ctx = ctx_from_js(ctx)
        .map_err(|why| ToolResult::error(format!("Tool \"{name}\" was not run: {why}")))?;
    Ok((args, ctx))
}

/// A tool, whatever its source.
///
/// ```js
/// const t = defineTool({ name: "add", description: "Adds", run: ({ a, b }) => String(a + b) })
/// t.name // "add"
/// await t.execute({ a: 1, b: 2 }) // { output: "3", isError: false }
/// ```
#[wasm_bindgen(js_name = Tool)]
pub struct ToolHandle {
    inner: SharedTool,
    id: u32,
}

thread_local! {
    /// Live `Tool` objects by id, so a toolkit given one uses its core tool directly instead of
    /// calling back through the exported `execute`.
    static LIVE_TOOLS: std::cell::RefCell<crate::core::names::Names<std::rc::Weak<dyn Tool>, u32>> =
        std::cell::RefCell::new(crate::core::names::Names::default());
    static NEXT_TOOL_ID: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

impl ToolHandle {
    /// Gives a core tool its JS face.
    pub fn new(inner: SharedTool) -> Self {
        let id = NEXT_TOOL_ID.with(|next| {
            let id = next.get();
            next.set(id.wrapping_add(1));
            id
        });
        LIVE_TOOLS.with(|live| live.borrow_mut().insert(id, Rc::downgrade(&inner)));
        ToolHandle { inner, id }
    }
}

impl Drop for ToolHandle {
    fn drop(&mut self) {
        let id = self.id;
        LIVE_TOOLS.with(|live| live.borrow_mut().remove(&id));
    }
}

/// The core tool behind a JS `Tool` object made by this module, if `value` is one.
fn core_tool(value: &JsValue) -> Option<SharedTool> {
    let id = super::host::key_id(&get(value, "__toolnexusToolId"))?;
    LIVE_TOOLS.with(|live| live.borrow().get(&id).and_then(std::rc::Weak::upgrade))
}

#[wasm_bindgen(js_class = Tool)]
impl ToolHandle {
    /// Internal: lets a toolkit find this tool's core.
    #[wasm_bindgen(getter, js_name = __toolnexusToolId, skip_typescript)]
    pub fn tool_id(&self) -> String {
        super::host::instance_key(self.id)
    }

    /// The tool's unique name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner.spec().name.clone()
    }

    /// What the tool does, for the model.
    #[wasm_bindgen(getter)]
    pub fn description(&self) -> String {
        self.inner.spec().description.clone()
    }

    /// Where the tool comes from: `"native"`, `"mcp"`, `"builtin"`, …
    #[wasm_bindgen(getter)]
    pub fn source(&self) -> String {
        self.inner.spec().source.clone()
    }

    /// The JSON Schema of the arguments (a fresh copy).
    #[wasm_bindgen(getter, js_name = inputSchema, unchecked_return_type = "JSONSchema")]
    pub fn input_schema(&self) -> Result<JsValue, JsValue> {
        from_json_text(self.inner.spec().input_schema.text())
    }

    /// Runs the tool. Arguments are checked against `inputSchema` first; every failure,
    /// including a throw inside the tool, resolves to `{isError: true, output}`.
    ///
    /// ```js
    /// const r = await tool.execute({ city: "Paris" }, { signal: AbortSignal.timeout(5000) })
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolResult>")]
    pub fn execute(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "Record<string, unknown>")] args: Option<
            JsValue,
        >,
        #[wasm_bindgen(unchecked_optional_param_type = "ToolContext")] ctx: Option<JsValue>,
    ) -> js_sys::Promise {
        let (args, ctx) = (
            args.unwrap_or(JsValue::NULL),
            ctx.unwrap_or(JsValue::UNDEFINED),
        );
        let call = decode_call(&self.inner.spec().name, &args, &ctx)
            .map(|(args, ctx)| run_checked(self.inner.clone(), args, ctx, Some(Rc::new(JsClock))));
        crate::js::promise::promise(async move {
            let result = match call {
                Ok(call) => call.await,
                Err(result) => result,
            };
            record_to_js(&result)
        })
    }
}

/// Turns a JS function into a tool (`source: "native"` unless given). `run(args, ctx)` may
/// return a string, a `ToolResult`, or a Promise of either; a throw or rejection of anything
/// becomes `{isError: true, output: <message>}`. Without `inputSchema` the tool takes
/// `{type: "object", properties: {}}`: any object of arguments.
///
/// ```js
/// import { defineTool } from "toolnexus-wasm"
/// const weather = defineTool({
///   name: "get_weather",
///   description: "Current weather for a city",
///   inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
///   run: async ({ city }) => `Sunny in ${city}`,
/// })
/// ```
#[wasm_bindgen(js_name = defineTool)]
pub fn define_tool(
    #[wasm_bindgen(unchecked_param_type = "DefineToolOptions")] options: JsValue,
) -> Result<ToolHandle, JsValue> {
    let Ok(func) = get(&options, "run").dyn_into::<Function>() else {
        return Err(js_error(
            "invalid_tool",
            "defineTool: options.run must be a function (args, ctx) => string | ToolResult | Promise",
        ));
    };
    let mut spec = spec_from_js(&options, "native")
        .map_err(|why| js_error("invalid_tool", &format!("defineTool: {why}")))?;
    let schema = get(&options, "inputSchema");
    if schema.is_undefined() || schema.is_null() {
        spec.input_schema = crate::core::spec::open_schema().into();
    }
    let this = JsValue::UNDEFINED;
    Ok(ToolHandle::new(Rc::new(JsTool { spec, this, func })))
}
