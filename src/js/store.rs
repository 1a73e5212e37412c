//! `InMemoryConversationStore`: the default conversation store, exported so hosts can share it.

use wasm_bindgen::prelude::*;

use super::convert::{js_error, messages_to_js, to_json, type_name};
use crate::core::client::store::{InMemoryStore, Store};
use crate::core::value::Value;

/// Keeps transcripts in memory for the page's (or process's) lifetime. `get` and `save` copy.
///
/// ```js
/// const store = new InMemoryConversationStore()
/// await store.save("t1", [{ role: "user", content: "hi" }])
/// await store.get("t1") // [{ role: "user", content: "hi" }]
/// ```
#[wasm_bindgen]
pub struct InMemoryConversationStore {
    inner: std::rc::Rc<InMemoryStore>,
}

impl Default for InMemoryConversationStore {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl InMemoryConversationStore {
    /// An empty store.
    #[wasm_bindgen(constructor)]
    pub fn new() -> InMemoryConversationStore {
        InMemoryConversationStore {
            inner: std::rc::Rc::new(InMemoryStore::default()),
        }
    }

    /// The transcript saved under `id`, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Message[] | undefined>")]
    pub fn get(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> js_sys::Promise {
        let inner = self.inner.clone();
        crate::js::promise::promise(async move {
            let id = id
                .as_string()
                .ok_or_else(|| js_error("invalid_argument", "get: id must be a string"))?;
            let found = inner.get(&id).await.map_err(|e| js_error("store", &e))?;
            Ok(found.map_or(JsValue::UNDEFINED, |messages| messages_to_js(&messages)))
        })
    }

    /// Saves a copy of `messages` under `id`.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn save(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Message[]")] messages: JsValue,
    ) -> js_sys::Promise {
        let inner = self.inner.clone();
        crate::js::promise::promise(async move {
            let id = id
                .as_string()
                .ok_or_else(|| js_error("invalid_argument", "save: id must be a string"))?;
            let messages = match to_json(&messages) {
                Ok(Value::Array(messages)) => messages,
                _ => {
                    return Err(js_error(
                        "invalid_argument",
                        &format!(
                            "save: messages must be an array, got {}",
                            type_name(&messages)
                        ),
                    ))
                }
            };
            inner
                .save(&id, &crate::core::message::from_values(messages))
                .await
                .map_err(|e| js_error("store", &e))?;
            Ok(JsValue::UNDEFINED)
        })
    }
}
