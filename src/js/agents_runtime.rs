//! The agent runtime (SPEC §7D) at the boundary: the facade's `agents.AgentRuntime` drives this
//! class by handle id (`"root"`, `"root/coordinator.1"`, …); the facade keeps the `Handle`
//! objects. A refused verb is returned as its sentence, never thrown; bad arguments throw a
//! `ToolnexusError` (`invalid_argument`). Escalation and durable resume cross here too:
//! `resume(answer)`, `savedState()`, the static `restore(options, state)`, `haltedCall(id)`
//! and `suspended()`; a refused resume or restore throws (or rejects) with the core's code
//! (`invalid_resume`, `invalid_argument`, `store`, `invalid_options`).

use futures_util::FutureExt;
use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::agents_options::{budget_from_js, runtime_options};
use super::convert::{
    described, from_json, get, js_error, messages_to_js, record_to_js, to_json, type_name,
};
use super::promise::promise;
use crate::core::agents::close::CloseOptions;
use crate::core::agents::data::{CloseReason, InboxItem};
use crate::core::agents::resume::ResumeError;
use crate::core::agents::runtime::{AgentRuntime, Handle, WaitOptions};
use crate::core::json::value::Value;
use crate::core::message::from_values;

/// The records the class's typings name (the full build's facade types; `Request` is already
/// among the glue's own imports; the lean build has no runtime: it costs the lean download
/// 43 KiB gzip, and `agents.AgentRuntime` refuses there).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r##"import type { HaltedCall, HandleDetail, HandleView, InboxItem, RuntimeState, TaskResult } from "#types-full""##;

/// The runtime the facade's `agents.AgentRuntime` wraps.
///
/// ```js
/// const rt = new __AgentRuntime({ registry: { peer: { does: "team member" } }, fetch })
/// const id = rt.spawn("root", "peer", undefined) // "root/peer.1"
/// ```
#[wasm_bindgen(js_name = __AgentRuntime)]
pub struct AgentRuntimeHandle {
    rt: AgentRuntime,
}

fn bad(message: String) -> JsValue {
    js_error("invalid_argument", &message)
}

/// A refused resume or restore as the `ToolnexusError` of its code.
fn refused(e: ResumeError) -> JsValue {
    js_error(e.code(), &e.to_string())
}

fn records<'a, R: crate::core::json::record::Record + 'a>(
    items: impl IntoIterator<Item = &'a R>,
) -> Result<JsValue, JsValue> {
    let out = Array::new();
    for item in items {
        out.push(&record_to_js(item)?);
    }
    Ok(out.into())
}

fn text_field(item: &JsValue, key: &str) -> Result<String, String> {
    let value = get(item, key);
    value.as_string().ok_or_else(|| {
        format!(
            "post: item.{key} must be a string, got {}",
            type_name(&value)
        )
    })
}

impl AgentRuntimeHandle {
    fn handle(&self, id: &str) -> Result<Handle, String> {
        self.rt
            .find(id)
            .ok_or_else(|| format!("no handle \"{id}\" in this runtime"))
    }
}

#[wasm_bindgen(js_class = __AgentRuntime)]
impl AgentRuntimeHandle {
    /// A runtime over `options` (see `agents_options`); bad options throw `invalid_options`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "unknown")] options: JsValue,
    ) -> Result<AgentRuntimeHandle, JsValue> {
        let options = runtime_options(&options)?;
        let rt = AgentRuntime::new(options)
            .map_err(|e| js_error("invalid_options", &format!("AgentRuntime: {e}")))?;
        Ok(AgentRuntimeHandle { rt })
    }

    /// `spawn(parent, name, budget?)`: the new handle's id, or `{error}`.
    pub fn spawn(
        &self,
        parent: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] budget: JsValue,
    ) -> JsValue {
        let refused = |text: String| -> JsValue {
            let out: JsValue = js_sys::Object::new().into();
            super::convert::set(&out, "error", &text.into());
            out
        };
        let Some(name) = name.as_string() else {
            return refused(format!(
                "spawn: the agent name must be a string, got {}",
                type_name(&name)
            ));
        };
        let budget = match budget_from_js(&budget) {
            Ok(b) => b,
            Err(why) => return refused(why),
        };
        let spawned = self
            .handle(parent)
            .and_then(|p| self.rt.spawn(p, &name, budget.as_ref()).map_err(|e| e.0));
        match spawned {
            Ok(h) => self.rt.id(h).into(),
            Err(why) => refused(why),
        }
    }

    /// `post(h, item)`: `undefined`, or the refusal's sentence.
    pub fn post(
        &self,
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] item: JsValue,
    ) -> Option<String> {
        let item = (|| {
            if !item.is_object() {
                return Err(format!(
                    "post: item must be {{from, channel, text}}, got {}",
                    type_name(&item)
                ));
            }
            Ok(InboxItem {
                from: text_field(&item, "from")?,
                channel: text_field(&item, "channel")?,
                text: text_field(&item, "text")?,
            })
        })();
        let posted = item.and_then(|item| {
            let h = self.handle(id)?;
            self.rt.post(h, item).map_err(|e| e.0)
        });
        posted.err()
    }

    /// `wake(h, prompt?)`: `undefined`, or the refusal's sentence.
    pub fn wake(
        &self,
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] prompt: JsValue,
    ) -> Option<String> {
        let prompt = if prompt.is_undefined() || prompt.is_null() {
            None
        } else if let Some(p) = prompt.as_string() {
            Some(p)
        } else {
            return Some(format!(
                "wake: prompt must be a string, got {}",
                type_name(&prompt)
            ));
        };
        let h = match self.handle(id) {
            Ok(h) => h,
            Err(why) => return Some(why),
        };
        self.rt.wake(h, prompt.as_deref()).err().map(|e| e.0)
    }

    /// `wait(h, {timeoutMs?, by?})`: a Promise of the `TaskResult`.
    #[wasm_bindgen(unchecked_return_type = "Promise<TaskResult>")]
    pub fn wait(
        &self,
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown")] timeout_ms: JsValue,
        by: Option<String>,
    ) -> Result<js_sys::Promise, JsValue> {
        let timeout_ms = if timeout_ms.is_undefined() || timeout_ms.is_null() {
            None
        } else {
            match timeout_ms.as_f64() {
                Some(ms) if ms.is_finite() && ms >= 0.0 => (ms > 0.0).then_some(ms),
                _ => {
                    return Err(bad(format!(
                        "wait: timeoutMs must be a number of milliseconds, 0 or more, got {}",
                        described(&timeout_ms)
                    )))
                }
            }
        };
        let h = self.handle(id).map_err(bad)?;
        let by = match by {
            Some(by) => Some(self.handle(&by).map_err(bad)?),
            None => None,
        };
        let waited = self.rt.wait(h, WaitOptions { timeout_ms, by });
        Ok(promise(async move { record_to_js(&waited.await) }))
    }

    /// `interrupt(h)`.
    pub fn interrupt(&self, id: &str) -> Result<(), JsValue> {
        self.rt.interrupt(self.handle(id).map_err(bad)?);
        Ok(())
    }

    /// `close(h, {force?, reason?})`: a Promise settled once the subtree is closed.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn close(
        &self,
        id: &str,
        force: bool,
        reason: Option<String>,
    ) -> Result<js_sys::Promise, JsValue> {
        let reason = match reason.as_deref() {
            None => None,
            Some("closed") => Some(CloseReason::Closed),
            Some("interrupted") => Some(CloseReason::Interrupted),
            Some("budget") => Some(CloseReason::Budget),
            Some("error") => Some(CloseReason::Error),
            Some(other) => {
                return Err(bad(format!(
                "close: reason must be \"closed\", \"interrupted\", \"budget\" or \"error\", got \"{other}\""
            )))
            }
        };
        let h = self.handle(id).map_err(bad)?;
        let closing = self.rt.close(h, CloseOptions { force, reason });
        Ok(promise(async move {
            closing.await;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Every handle but the root, in tree order (`HandleView[]`).
    #[wasm_bindgen(unchecked_return_type = "HandleView[]")]
    pub fn list(&self) -> Result<JsValue, JsValue> {
        records(&self.rt.list())
    }

    /// One handle's detail (`HandleDetail`).
    #[wasm_bindgen(unchecked_return_type = "HandleDetail")]
    pub fn inspect(&self, id: &str) -> Result<JsValue, JsValue> {
        let h = self.handle(id).map_err(bad)?;
        record_to_js(&self.rt.inspect(h))
    }

    /// The handle's children's ids, in spawn order.
    pub fn children(&self, id: &str) -> Result<Vec<String>, JsValue> {
        let h = self.handle(id).map_err(bad)?;
        Ok(self
            .rt
            .children(h)
            .into_iter()
            .map(|c| self.rt.id(c))
            .collect())
    }

    /// The handle's buffered inbox items (`InboxItem[]`).
    #[wasm_bindgen(unchecked_return_type = "InboxItem[]")]
    pub fn inbox(&self, id: &str) -> Result<JsValue, JsValue> {
        let h = self.handle(id).map_err(bad)?;
        records(&self.rt.inbox(h))
    }

    /// `AgentRuntime.restore(options, state)`: a runtime over `options` (the constructor's)
    /// holding a saved `state` (what `savedState()` gave, as plain JSON). A corrupt or foreign
    /// state throws `invalid_argument`; bad options `invalid_options`.
    pub fn restore(
        #[wasm_bindgen(unchecked_param_type = "unknown")] options: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] state: JsValue,
    ) -> Result<AgentRuntimeHandle, JsValue> {
        let options = runtime_options(&options)?;
        let state = to_json(&state).map_err(|why| {
            js_error(
                "invalid_argument",
                &format!("saved runtime state refused: it is not plain JSON ({why})"),
            )
        })?;
        let rt = AgentRuntime::restore(options, &state).map_err(refused)?;
        Ok(AgentRuntimeHandle { rt })
    }

    /// `resume(answer)`: a Promise of the last replayed handle's `TaskResult`; an
    /// answer that fits no suspended handle rejects with `invalid_resume`.
    #[wasm_bindgen(unchecked_return_type = "Promise<TaskResult>")]
    pub fn resume(
        &self,
        #[wasm_bindgen(unchecked_param_type = "unknown")] answer: JsValue,
    ) -> js_sys::Promise {
        let answer = to_json(&answer);
        let rt = self.rt.clone();
        promise(async move {
            let answer = answer.map_err(|why| {
                js_error(
                    "invalid_resume",
                    &format!(
                        "the answer is not an Answer object ({{id, ok, data?, reason?}}): {why}"
                    ),
                )
            })?;
            let resumed = rt.resume(answer).await;
            record_to_js(&resumed.map_err(refused)?)
        })
    }

    /// The runtime's state as plain JSON (`RuntimeState`), to save between turns.
    #[wasm_bindgen(js_name = savedState, unchecked_return_type = "RuntimeState")]
    pub fn saved_state(&self) -> Result<JsValue, JsValue> {
        from_json(&self.rt.saved_state())
    }

    /// The first handle with a turn in flight (a state saved now could not be restored).
    pub fn running(&self) -> Option<String> {
        self.rt.running()
    }

    /// The tool call behind the suspended request `requestId` (`HaltedCall`), or `undefined`.
    #[wasm_bindgen(js_name = haltedCall, unchecked_return_type = "HaltedCall | undefined")]
    pub fn halted_call(&self, request_id: &str) -> Result<JsValue, JsValue> {
        match self.rt.halted_call(request_id) {
            Some(call) => record_to_js(&call),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every suspended handle and its request, in tree order (`{handle: id, request}[]`).
    #[wasm_bindgen(unchecked_return_type = "{ handle: string; request: Request }[]")]
    pub fn suspended(&self) -> Result<JsValue, JsValue> {
        let out = Array::new();
        for (h, request) in self.rt.suspended() {
            let row: JsValue = js_sys::Object::new().into();
            super::convert::set(&row, "handle", &self.rt.id(h).into());
            super::convert::set(&row, "request", &record_to_js(&request)?);
            out.push(&row);
        }
        Ok(out.into())
    }

    /// `store.get(id)` of the runtime's own in-memory store (the one it keeps when no `store`
    /// option is given): a copy of the transcript saved under `id`, or `undefined`. The
    /// facade's default `runtime.store` reads through this, so no turn crosses to JavaScript
    /// to load or save its transcript.
    #[wasm_bindgen(js_name = storeGet, unchecked_return_type = "unknown[] | undefined")]
    pub fn store_get(&self, id: &str) -> Result<JsValue, JsValue> {
        match self.rt.store().get(id).now_or_never() {
            Some(Ok(Some(messages))) => messages_to_js(&messages),
            Some(Ok(None)) => Ok(JsValue::UNDEFINED),
            Some(Err(why)) => Err(js_error("store", &why)),
            None => Err(js_error(
                "store",
                "storeGet: the runtime's store is not its own",
            )),
        }
    }

    /// `store.save(id, messages)` of the runtime's own in-memory store (see `storeGet`):
    /// `messages` (plain JSON, an array) replaces what is saved under `id`.
    #[wasm_bindgen(js_name = storeSave)]
    pub fn store_save(
        &self,
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "unknown[]")] messages: JsValue,
    ) -> Result<(), JsValue> {
        let Ok(Value::Array(items)) = to_json(&messages) else {
            return Err(bad(format!(
                "save: messages must be an array of JSON messages, got {}",
                type_name(&messages)
            )));
        };
        match self.rt.store().save(id, &from_values(items)).now_or_never() {
            Some(Ok(())) => Ok(()),
            Some(Err(why)) => Err(js_error("store", &why)),
            None => Err(js_error(
                "store",
                "storeSave: the runtime's store is not its own",
            )),
        }
    }

    /// The transition trace.
    pub fn trace(&self) -> Vec<String> {
        self.rt.trace()
    }

    /// The most model calls ever in flight at once.
    #[wasm_bindgen(js_name = maxObservedConcurrentTurns)]
    pub fn max_observed_concurrent_turns(&self) -> usize {
        self.rt.max_observed_concurrent_turns()
    }
}
