//! The second argument of `run` / `ask` / `stream` / `conversation`: `{toolkit, signal?,
//! history?, id?, onText?}`, read once; each run gets its own signal (see `run_signal`).

use crate::core::json::value::Value;
use js_sys::Function;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::client_options::{function_field, string_field};
use super::convert::{js_error, to_json};
use super::host::{signal_of, JsSignal};
use super::run_signal::RunSignal;
use super::toolkit::{core_toolkit_by_id, instance_marker};
use crate::core::host::{Cancel, HostText, LocalBoxFuture, Signal};
use crate::core::toolkit::Toolkit;

/// How a run context keeps `ctx.history`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryMode {
    /// Decoded into messages (a hook reads them).
    Messages,
    /// Copied into the module as JSON text, never parsed there (`bodyTransform` parses it).
    Text,
    /// Left in JavaScript as JSON text: the request bodies are completed there (the
    /// transport splices it), so a long history never crosses into the module at all.
    Host,
}

/// A decoded run context.
pub struct RunContext {
    /// The core toolkit of `ctx.toolkit`.
    pub toolkit: Rc<Toolkit>,
    /// The caller's `AbortSignal`.
    pub caller: Option<Rc<JsSignal>>,
    /// `ctx.history`.
    pub history: Vec<Value>,
    /// `ctx.history` as the JSON text of a non-empty array, in [`HistoryMode::Text`] (then
    /// `history` is empty): the core splices it into requests without parsing it.
    pub history_text: Option<Rc<str>>,
    /// `ctx.history` left in JavaScript, in [`HistoryMode::Host`] (then `history` is empty).
    pub history_host: Option<HostText>,
    /// The items of `ctx.history` as a JS string (its JSON without the brackets), in the text
    /// and host modes: the result puts them before the run's own messages.
    pub history_items: Option<JsValue>,
    /// `ctx.id`.
    pub id: Option<String>,
    /// `ctx.onText` (or its deprecated spelling `ctx.on_text`).
    pub on_text: Option<Function>,
}

impl RunContext {
    /// Reads `ctx`; `what` names the method in error messages.
    pub fn read(ctx: &JsValue, what: &str) -> Result<RunContext, JsValue> {
        Self::read_with(ctx, what, HistoryMode::Messages)
    }

    /// Reads `ctx`, keeping a non-empty array `ctx.history` as `mode` says.
    pub fn read_with(ctx: &JsValue, what: &str, mode: HistoryMode) -> Result<RunContext, JsValue> {
        let invalid = |m: String| js_error("invalid_options", &m);
        // Every field in one crossing, by position (see `runOptions` in shim.js).
        let no_toolkit = || {
            invalid(format!(
                "{what}: ctx.toolkit must be a Toolkit made by createToolkit"
            ))
        };
        let fields = shim_run_options(ctx, &instance_marker());
        if fields.as_f64().is_some() {
            // Only a toolkit (see `runOptions`): every other field is absent.
            let toolkit = core_toolkit_by_id(&fields).ok_or_else(no_toolkit)?;
            return Ok(RunContext {
                toolkit,
                caller: None,
                history: Vec::new(),
                history_text: None,
                history_host: None,
                history_items: None,
                id: None,
                on_text: None,
            });
        }
        let field = |i: u32| super::convert::item(&fields, i);
        let toolkit = core_toolkit_by_id(&field(0)).ok_or_else(no_toolkit)?;
        let caller = signal_of(&field(1)).map_err(|m| invalid(format!("{what}: {m}")))?;
        let raw_history = field(2);
        let history_items = match mode {
            HistoryMode::Messages => None,
            _ => Some(shim_history_items(&raw_history)).filter(JsValue::is_string),
        };
        let history_text = match (&history_items, mode) {
            (Some(items), HistoryMode::Text) => {
                items.as_string().map(|t| Rc::from(format!("[{t}]")))
            }
            _ => None,
        };
        let history_host = match (&history_items, mode) {
            (Some(items), HistoryMode::Host) => Some(HostText::new(items.clone())),
            _ => None,
        };
        let history = if history_items.is_some() {
            Vec::new()
        } else {
            match to_json(&raw_history) {
                Ok(Value::Null) => Vec::new(),
                Ok(Value::Array(messages)) => messages,
                _ => {
                    return Err(invalid(format!(
                        "{what}: ctx.history must be an array of messages"
                    )))
                }
            }
        };
        let id = string_field(field(3), "id", what)?;
        let on_text = function_field(field(4), "on_text", what)?;
        Ok(RunContext {
            toolkit,
            caller,
            history,
            history_text,
            history_host,
            history_items,
            id,
            on_text,
        })
    }

    /// The signal of one run: a fresh controller following the caller's signal, so tools
    /// never add listeners to the caller's own. A run that nothing can abort (no caller signal,
    /// and `own` false: no deadline, no stream consumer that may stop it) makes no controller
    /// at all: [`Unfired`] stands in, and a tool that reads `ctx.signal` gets one lazily. The
    /// caller's signal itself is used where the runtime has no `AbortController`.
    pub fn run_signal(&self, own: bool) -> Option<Signal> {
        signal_for(self.caller.as_ref(), own)
    }
}

/// The signal of one run (or `translate` call) with the caller's signal `caller`: see
/// [`RunContext::run_signal`].
pub fn signal_for(caller: Option<&Rc<JsSignal>>, own: bool) -> Option<Signal> {
    if !own && caller.is_none() {
        return Some(Rc::new(Unfired));
    }
    match RunSignal::new(caller.map(|c| &**c)) {
        Some(run) => Some(Rc::new(run)),
        None => caller.cloned().map(|s| s as Signal),
    }
}

/// The core toolkit of `value` when it is a `Toolkit` this instance made and still lives.
pub fn toolkit_of(value: &JsValue) -> Option<Rc<Toolkit>> {
    core_toolkit_by_id(&shim_toolkit_id(value, &instance_marker()))
}

/// The signal of a run nothing can abort: it never fires, and costs nothing until a tool asks
/// for `ctx.signal` (then the tool gets a fresh `AbortSignal` that never fires either).
pub struct Unfired;

impl Cancel for Unfired {
    fn is_aborted(&self) -> bool {
        false
    }

    fn reason(&self) -> String {
        String::new()
    }

    fn wait(&self) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::pending())
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// See `shim.js`: the JSON text of a non-empty array's items, else `undefined`.
    #[wasm_bindgen(js_name = historyItems)]
    fn shim_history_items(history: &JsValue) -> JsValue;
    /// See `shim.js`: the id of a `Toolkit` object this instance made.
    #[wasm_bindgen(js_name = toolkitId)]
    fn shim_toolkit_id(toolkit: &JsValue, marker: &JsValue) -> JsValue;
    /// See `shim.js`: `[toolkitId, signal, history, id, on_text]` of a run's options.
    #[wasm_bindgen(js_name = runOptions)]
    fn shim_run_options(ctx: &JsValue, marker: &JsValue) -> JsValue;
}
