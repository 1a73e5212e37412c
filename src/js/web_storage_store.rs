//! `WebStorageConversationStore`: transcripts and halted runs in `localStorage` or
//! `sessionStorage` (or any object with `getItem`/`setItem`/`removeItem`), as JSON text under
//! `<prefix>conversation:<id>` and `<prefix>pending:<key>`. `setItem` replaces a whole value at
//! once, so the last writer of an id wins and no reader sees half a transcript.

use js_sys::{Promise, Reflect};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, from_json, get, js_error, to_json, type_name};
use crate::core::types::request_from_value;

/// A string argument, else an `invalid_argument` error naming `what`.
pub(crate) fn string_arg(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| {
        let message = format!("{what} must be a string, got {}", type_name(value));
        js_error("invalid_argument", &message)
    })
}

/// A transcript argument (an array) as JSON, else `invalid_argument`.
fn messages_json(messages: &JsValue, what: &str) -> Result<Value, JsValue> {
    match to_json(messages) {
        Ok(list @ Value::Array(_)) => Ok(list),
        _ => Err(js_error(
            "invalid_argument",
            &format!(
                "{what}: messages must be an array, got {}",
                type_name(messages)
            ),
        )),
    }
}

/// A plain-JSON copy of a transcript argument (an array), else `invalid_argument`.
pub(crate) fn messages_arg(messages: &JsValue, what: &str) -> Result<JsValue, JsValue> {
    messages_json(messages, what).map(|list| from_json(&list))
}

fn halted_json(result: &JsValue) -> Result<Value, JsValue> {
    let json = to_json(result).unwrap_or(Value::Null);
    let halted = json.get("pending").and_then(request_from_value).is_some()
        && json.get("messages").is_some_and(Value::is_array);
    if halted {
        Ok(json)
    } else {
        Err(js_error(
            "invalid_argument",
            &format!("savePending: expected a halted RunResult (status \"pending\", with pending and messages), got {}", type_name(result)),
        ))
    }
}

/// A plain-JSON copy of a halted `RunResult`, else `invalid_argument`.
pub(crate) fn pending_arg(result: &JsValue) -> Result<JsValue, JsValue> {
    halted_json(result).map(|json| from_json(&json))
}

/// Whether a thrown value is a "storage is full" error, in any browser's spelling.
fn is_quota(error: &JsValue) -> bool {
    let name = get(error, "name").as_string().unwrap_or_default();
    let code = get(error, "code").as_f64();
    name == "QuotaExceededError" || name == "NS_ERROR_DOM_QUOTA_REACHED" || code == Some(22.0)
}

fn storage_call(storage: &JsValue, method: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = get(storage, method).dyn_into().map_err(|_| {
        js_error(
            "invalid_argument",
            &format!("the storage has no {method}()"),
        )
    })?;
    f.apply(storage, &args.iter().copied().collect::<js_sys::Array>())
}

fn resolve_storage(storage: &JsValue) -> Result<JsValue, JsValue> {
    let name = match storage.as_string().as_deref() {
        None if storage.is_undefined() => "localStorage",
        None => return Ok(storage.clone()),
        Some("local") => "localStorage",
        Some("session") => "sessionStorage",
        Some(other) => {
            let message = format!("WebStorageConversationStore: storage must be a Storage object, \"local\" or \"session\", got \"{other}\"");
            return Err(js_error("invalid_argument", &message));
        }
    };
    let unsupported = |why: String| {
        let message =
            format!("WebStorageConversationStore: {name} is not available in this runtime{why}");
        js_error("unsupported", &message)
    };
    let found = Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .map_err(|e| unsupported(format!(": {}", error_text(&e))))?;
    if found.is_object() && get(&found, "setItem").is_function() {
        Ok(found)
    } else {
        Err(unsupported(String::new()))
    }
}

/// A conversation store (the `get`/`save` of `ask`) and a store of halted runs over Web
/// Storage. A full storage rejects with `code: "quota_exceeded"`.
///
/// ```js
/// const store = new WebStorageConversationStore("session", "myapp:")
/// await store.save("t1", [{ role: "user", content: "hi" }]) // sessionStorage["myapp:conversation:t1"]
/// const client = createClient({ baseUrl, style: "openai", model, store })
/// ```
#[wasm_bindgen]
pub struct WebStorageConversationStore {
    storage: JsValue,
    prefix: String,
}

impl WebStorageConversationStore {
    fn read(&self, key: &str) -> Result<Option<Value>, JsValue> {
        let text = storage_call(&self.storage, "getItem", &[&key.into()]).map_err(|e| {
            js_error(
                "store",
                &format!("reading \"{key}\" failed: {}", error_text(&e)),
            )
        })?;
        let Some(text) = text.as_string() else {
            return Ok(None);
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|_| js_error("store", &format!("the value under \"{key}\" is not JSON")))
    }

    fn write(&self, key: &str, value: &Value, what: &str) -> Result<(), JsValue> {
        let text = value.to_string();
        storage_call(
            &self.storage,
            "setItem",
            &[&key.into(), &text.as_str().into()],
        )
        .map_err(|e| {
            if is_quota(&e) {
                let message = format!(
                    "{what}: the storage is full: {} characters under \"{key}\" did not fit ({}); \
                     free space or use IndexedDbConversationStore",
                    text.len(),
                    error_text(&e)
                );
                js_error("quota_exceeded", &message)
            } else {
                js_error(
                    "store",
                    &format!("{what}: writing \"{key}\" failed: {}", error_text(&e)),
                )
            }
        })?;
        Ok(())
    }

    fn key(&self, kind: &str, id: &str) -> String {
        format!("{}{kind}:{id}", self.prefix)
    }
}

fn promise(outcome: Result<JsValue, JsValue>) -> Promise {
    match outcome {
        Ok(value) => Promise::resolve(&value),
        Err(error) => Promise::reject(&error),
    }
}

#[wasm_bindgen]
impl WebStorageConversationStore {
    /// A store over `storage` (a `Storage` object, `"local"` (the default) or `"session"`),
    /// with keys starting with `prefix` (default `"toolnexus:"`). Throws `code: "unsupported"`
    /// when the runtime has no such storage.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "StorageLike | \"local\" | \"session\" | undefined")]
        storage: JsValue,
        prefix: Option<String>,
    ) -> Result<WebStorageConversationStore, JsValue> {
        Ok(WebStorageConversationStore {
            storage: resolve_storage(&storage)?,
            prefix: prefix.unwrap_or_else(|| "toolnexus:".into()),
        })
    }

    /// The transcript saved under `id`, or `undefined`.
    ///
    /// ```js
    /// const messages = await store.get("thread-1")
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<Message[] | undefined>")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue) -> Promise {
        promise(string_arg(&id, "get: id").and_then(|id| {
            let key = self.key("conversation", &id);
            match self.read(&key)? {
                None => Ok(JsValue::UNDEFINED),
                Some(list @ Value::Array(_)) => Ok(from_json(&list)),
                Some(_) => Err(js_error(
                    "store",
                    &format!("the value under \"{key}\" is not a transcript"),
                )),
            }
        }))
    }

    /// Saves `messages` under `id`.
    ///
    /// ```js
    /// await store.save("thread-1", result.messages)
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn save(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Message[]")] messages: JsValue,
    ) -> Promise {
        promise(string_arg(&id, "save: id").and_then(|id| {
            let list = messages_json(&messages, "save")?;
            self.write(&self.key("conversation", &id), &list, "save")?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// Keeps a halted `RunResult` (status `"pending"`) under `key`, as JSON text.
    ///
    /// ```js
    /// await store.savePending("checkout", result)
    /// ```
    #[wasm_bindgen(js_name = savePending, unchecked_return_type = "Promise<void>")]
    pub fn save_pending(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunResult")] result: JsValue,
    ) -> Promise {
        promise(string_arg(&key, "savePending: key").and_then(|key| {
            let json = halted_json(&result)?;
            self.write(&self.key("pending", &key), &json, "savePending")?;
            Ok(JsValue::UNDEFINED)
        }))
    }

    /// The halted `RunResult` saved under `key`, or `undefined`.
    ///
    /// ```js
    /// const halted = await store.loadPending("checkout")
    /// ```
    #[wasm_bindgen(js_name = loadPending, unchecked_return_type = "Promise<RunResult | undefined>")]
    pub fn load_pending(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
    ) -> Promise {
        promise(string_arg(&key, "loadPending: key").and_then(|key| {
            Ok(self
                .read(&self.key("pending", &key))?
                .map_or(JsValue::UNDEFINED, |json| from_json(&json)))
        }))
    }

    /// Forgets the halted run under `key`.
    ///
    /// ```js
    /// await store.deletePending("checkout")
    /// ```
    #[wasm_bindgen(js_name = deletePending, unchecked_return_type = "Promise<void>")]
    pub fn delete_pending(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
    ) -> Promise {
        promise(string_arg(&key, "deletePending: key").and_then(|key| {
            let key = self.key("pending", &key);
            storage_call(&self.storage, "removeItem", &[&key.as_str().into()]).map_err(|e| {
                js_error(
                    "store",
                    &format!("removing \"{key}\" failed: {}", error_text(&e)),
                )
            })?;
            Ok(JsValue::UNDEFINED)
        }))
    }
}
