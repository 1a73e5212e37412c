//! `IndexedDbConversationStore`: transcripts and halted runs in the browser's IndexedDB, so they
//! survive reloads and are shared by every tab (and worker) of the origin. Reached through
//! `Reflect` and `Function` calls on `globalThis.indexedDB`: no `web-sys` features.
//!
//! Records live in one object store under array keys, `["conversation", id]` and
//! `["pending", key]`, so the two kinds never collide. Each write is one `readwrite` transaction
//! putting the whole record: writers of the same id are serialized by IndexedDB and the last one
//! wins, and a reader sees one whole record or the one before it, never a mix.

mod db;

use super::promise::promise;
use js_sys::{Array, Promise};
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::convert::get;
use super::host::set;
use super::web_storage_store::{messages_arg, pending_arg, string_arg};
use db::{factory, Shared};

fn record_key(kind: &str, id: &str) -> JsValue {
    Array::of2(&kind.into(), &id.into()).into()
}

fn record(pairs: &[(&str, &JsValue)]) -> JsValue {
    let object: JsValue = js_sys::Object::new().into();
    for (name, value) in pairs {
        set(&object, name, value);
    }
    set(&object, "savedAt", &js_sys::Date::now().into());
    object
}

/// A conversation store (the `get`/`save` of `ask`) and a store of halted runs, in IndexedDB.
/// Survives reloads; tabs share it; concurrent saves never mix (last writer wins per id).
///
/// ```js
/// const store = new IndexedDbConversationStore()          // database "toolnexus", store "conversations"
/// const client = createClient({ baseUrl, style: "openai", model, store })
/// const r = await client.ask("Book it", { toolkit, id: "thread-1" })
/// if (r.status === "pending") await store.savePending("thread-1", r)
/// ```
#[wasm_bindgen]
pub struct IndexedDbConversationStore {
    shared: Rc<Shared>,
}

#[wasm_bindgen]
impl IndexedDbConversationStore {
    /// A store over database `dbName` (default `"toolnexus"`), object store `storeName`
    /// (default `"conversations"`), created on first use. Throws `code: "unsupported"` where
    /// there is no `indexedDB`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(js_name = dbName)] db_name: Option<String>,
        #[wasm_bindgen(js_name = storeName)] store_name: Option<String>,
    ) -> Result<IndexedDbConversationStore, JsValue> {
        factory()?;
        let db_name = db_name.unwrap_or_else(|| "toolnexus".into());
        let store_name = store_name.unwrap_or_else(|| "conversations".into());
        Ok(IndexedDbConversationStore {
            shared: Shared::new(db_name, store_name),
        })
    }

    /// The transcript saved under `id`, or `undefined`.
    ///
    /// ```js
    /// const messages = await store.get("thread-1")
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<Message[] | undefined>")]
    pub fn get(&self, #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue) -> Promise {
        let shared = self.shared.clone();
        promise(async move {
            let id = string_arg(&id, "get: id")?;
            let found = shared.read(record_key("conversation", &id)).await?;
            Ok(get(&found, "messages"))
        })
    }

    /// Saves `messages` under `id` in one transaction; resolves once it is committed.
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
        let shared = self.shared.clone();
        promise(async move {
            let id = string_arg(&id, "save: id")?;
            let messages = messages_arg(&messages, "save")?;
            let value = record(&[("id", &id.as_str().into()), ("messages", &messages)]);
            shared
                .write(record_key("conversation", &id), Some(value))
                .await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Keeps a halted `RunResult` (status `"pending"`) under `key`, as plain JSON.
    ///
    /// ```js
    /// await store.savePending("checkout", result); location.href = result.pending.url
    /// ```
    #[wasm_bindgen(js_name = savePending, unchecked_return_type = "Promise<void>")]
    pub fn save_pending(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_param_type = "RunResult")] result: JsValue,
    ) -> Promise {
        let shared = self.shared.clone();
        promise(async move {
            let name = string_arg(&key, "savePending: key")?;
            let result = pending_arg(&result)?;
            let value = record(&[("key", &name.as_str().into()), ("result", &result)]);
            shared
                .write(record_key("pending", &name), Some(value))
                .await?;
            Ok(JsValue::UNDEFINED)
        })
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
        let shared = self.shared.clone();
        promise(async move {
            let name = string_arg(&key, "loadPending: key")?;
            let found = shared.read(record_key("pending", &name)).await?;
            Ok(get(&found, "result"))
        })
    }

    /// Forgets the halted run under `key` (nothing happens when there is none).
    ///
    /// ```js
    /// await store.deletePending("checkout")
    /// ```
    #[wasm_bindgen(js_name = deletePending, unchecked_return_type = "Promise<void>")]
    pub fn delete_pending(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
    ) -> Promise {
        let shared = self.shared.clone();
        promise(async move {
            let name = string_arg(&key, "deletePending: key")?;
            shared.write(record_key("pending", &name), None).await?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Closes the connection now (it reopens on the next call).
    ///
    /// ```js
    /// store.close()
    /// ```
    pub fn close(&self) {
        self.shared.forget_connection();
    }
}
