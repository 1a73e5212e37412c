//! The default conversation store. `InMemoryConversationStore` is plain JavaScript (stores.js,
//! beside the other stores); each package entry hands its class to the module once, through
//! `__setDefaultStore`, and a client made without a `store` option gets a new one of it.

use std::cell::RefCell;
use wasm_bindgen::prelude::*;

use super::convert::{error_text, js_error};

thread_local! {
    /// The class a client's default store is made of, once an entry has registered it.
    static DEFAULT_STORE: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Registers the class of every client's default conversation store (what the package's
/// entries do with `InMemoryConversationStore` when they load; not for applications).
///
/// ```js
/// import { __setDefaultStore } from "./web/toolnexus.js"
/// import { InMemoryConversationStore } from "./stores.js"
/// __setDefaultStore(InMemoryConversationStore)
/// ```
#[wasm_bindgen(js_name = __setDefaultStore)]
pub fn set_default_store(class: js_sys::Function) {
    DEFAULT_STORE.with(|slot| *slot.borrow_mut() = Some(class));
}

/// A new default store, for a client made by `what` without a `store` option.
pub fn default_store(what: &str) -> Result<JsValue, JsValue> {
    let class = DEFAULT_STORE.with(|slot| slot.borrow().clone()).ok_or_else(|| {
        js_error(
            "invalid_options",
            &format!("{what}: no store option, and no default store: load the package through its entry (import \"toolnexus-wasm\")"),
        )
    })?;
    super::convert::construct(&class, &[]).map_err(|e| {
        js_error(
            "invalid_options",
            &format!(
                "{what}: the default store could not be made: {}",
                error_text(&e)
            ),
        )
    })
}
