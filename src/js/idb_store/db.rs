//! The IndexedDB connection behind `IndexedDbConversationStore`: opening (creating the object
//! store on first use, upgrading the version when it is missing), closing when another tab
//! upgrades, and one transaction per read or write, each awaited through its DOM events.

use js_sys::{Array, Function, Promise};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::js::convert::{get, js_error};
use crate::js::host::set;

const MISSING: &str = "IndexedDB is not available in this runtime (it exists in browsers and \
    their workers, not in Node or Deno): use InMemoryConversationStore or a store of your own";

/// Calls `target[method](...args)`.
fn call(target: &JsValue, method: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = get(target, method)
        .dyn_into()
        .map_err(|_| js_error("store", &format!("IndexedDB: {method} is not a function")))?;
    f.apply(target, &args.iter().copied().collect::<Array>())
}

/// A failed IndexedDB operation as an `Error`: code `"quota_exceeded"` when storage is full.
fn failure(what: &str, error: &JsValue) -> JsValue {
    let name = get(error, "name").as_string().unwrap_or_default();
    let detail = get(error, "message")
        .as_string()
        .or_else(|| error.as_string())
        .unwrap_or_default();
    let code = if name == "QuotaExceededError" {
        "quota_exceeded"
    } else {
        "store"
    };
    js_error(code, &format!("IndexedDB {what} failed: {name}: {detail}"))
}

/// Waits for `target`'s `ok` event (resolving with `target.result`) or one of `fails`
/// (rejecting with `target.error`). The handlers live until the wait ends.
async fn event(target: &JsValue, ok: &str, fails: &[&str], what: &str) -> Result<JsValue, JsValue> {
    let slot: Rc<RefCell<Option<(Function, Function)>>> = Rc::default();
    let inner = slot.clone();
    let promise =
        Promise::new(&mut |resolve, reject| *inner.borrow_mut() = Some((resolve, reject)));
    let Some((resolve, reject)) = slot.borrow_mut().take() else {
        return Err(js_error("store", "IndexedDB: could not create a promise"));
    };
    let (t, what_owned) = (target.clone(), what.to_owned());
    let on_ok = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
        let _ = resolve.call1(&JsValue::UNDEFINED, &get(&t, "result"));
    });
    let t = target.clone();
    let on_fail = Closure::<dyn FnMut(JsValue)>::new(move |ev: JsValue| {
        let mut error = get(&t, "error");
        if error.is_null() || error.is_undefined() {
            error = get(&ev, "type");
        }
        let _ = reject.call1(&JsValue::UNDEFINED, &failure(&what_owned, &error));
    });
    set(target, &format!("on{ok}"), on_ok.as_ref());
    for name in fails {
        set(target, &format!("on{name}"), on_fail.as_ref());
    }
    let outcome = JsFuture::from(promise).await;
    set(target, &format!("on{ok}"), &JsValue::NULL);
    for name in fails {
        set(target, &format!("on{name}"), &JsValue::NULL);
    }
    outcome
}

pub(super) fn factory() -> Result<JsValue, JsValue> {
    let factory = get(&js_sys::global(), "indexedDB");
    if factory.is_object() {
        Ok(factory)
    } else {
        Err(js_error("unsupported", MISSING))
    }
}

/// The connection and the names it serves, shared by a store's calls in flight.
pub(super) struct Shared {
    db_name: String,
    store_name: String,
    /// The connection being opened or open (a Promise of the `IDBDatabase`).
    opening: RefCell<Option<Promise>>,
    /// The open connection, to close it when another tab upgrades the database.
    db: RefCell<Option<JsValue>>,
    on_version_change: Closure<dyn FnMut(JsValue)>,
}

impl Drop for Shared {
    fn drop(&mut self) {
        if let Some(db) = self.db.borrow_mut().take() {
            set(&db, "onversionchange", &JsValue::NULL);
            let _ = call(&db, "close", &[]);
        }
    }
}

impl Shared {
    pub(super) fn new(db_name: String, store_name: String) -> Rc<Shared> {
        Rc::new_cyclic(|weak: &Weak<Shared>| {
            let weak = weak.clone();
            let on_version_change = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
                if let Some(shared) = weak.upgrade() {
                    shared.forget_connection();
                }
            });
            Shared {
                db_name,
                store_name,
                opening: RefCell::new(None),
                db: RefCell::new(None),
                on_version_change,
            }
        })
    }

    /// Closes the connection (another tab wants to upgrade); the next call reopens.
    pub(super) fn forget_connection(&self) {
        self.opening.borrow_mut().take();
        if let Some(db) = self.db.borrow_mut().take() {
            let _ = call(&db, "close", &[]);
        }
    }

    /// Opens the database with this store's object store in it, upgrading when it is missing.
    async fn open(self: Rc<Self>) -> Result<JsValue, JsValue> {
        let factory = factory()?;
        let (name, store) = (JsValue::from_str(&self.db_name), self.store_name.clone());
        let mut version: Option<f64> = None;
        for _ in 0..8 {
            let request = match version {
                Some(v) => call(&factory, "open", &[&name, &JsValue::from_f64(v)])?,
                None => call(&factory, "open", &[&name])?,
            };
            let (req, wanted) = (request.clone(), JsValue::from_str(&store));
            let upgrade = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
                let db = get(&req, "result");
                let names = get(&db, "objectStoreNames");
                if call(&names, "contains", &[&wanted])
                    .ok()
                    .and_then(|b| b.as_bool())
                    != Some(true)
                {
                    let _ = call(&db, "createObjectStore", &[&wanted]);
                }
            });
            set(&request, "onupgradeneeded", upgrade.as_ref());
            let db = event(&request, "success", &["error"], "open").await?;
            set(&request, "onupgradeneeded", &JsValue::NULL);
            let names = get(&db, "objectStoreNames");
            let has = call(&names, "contains", &[&JsValue::from_str(&store)])?;
            if has.as_bool() == Some(true) {
                set(&db, "onversionchange", self.on_version_change.as_ref());
                *self.db.borrow_mut() = Some(db.clone());
                return Ok(db);
            }
            version = Some(get(&db, "version").as_f64().unwrap_or(1.0) + 1.0);
            call(&db, "close", &[])?;
        }
        Err(js_error(
            "store",
            "IndexedDB: could not create the object store",
        ))
    }

    async fn connection(self: &Rc<Self>) -> Result<JsValue, JsValue> {
        let existing = self.opening.borrow().clone();
        let promise = match existing {
            Some(promise) => promise,
            None => {
                let promise = crate::js::promise::promise(self.clone().open());
                *self.opening.borrow_mut() = Some(promise.clone());
                promise
            }
        };
        let opened = JsFuture::from(promise).await;
        if opened.is_err() {
            self.opening.borrow_mut().take();
        }
        opened
    }

    /// The object store in a new transaction, reopening once if the connection was closed.
    async fn store(self: &Rc<Self>, mode: &str) -> Result<(JsValue, JsValue), JsValue> {
        let (name, mode) = (JsValue::from_str(&self.store_name), JsValue::from_str(mode));
        let db = self.connection().await?;
        let tx = match call(&db, "transaction", &[&name, &mode]) {
            Ok(tx) => tx,
            Err(_) => {
                self.forget_connection();
                let db = self.connection().await?;
                call(&db, "transaction", &[&name, &mode]).map_err(|e| failure("transaction", &e))?
            }
        };
        let store = call(&tx, "objectStore", &[&name]).map_err(|e| failure("transaction", &e))?;
        Ok((tx, store))
    }

    /// The record under `key`, or `undefined`.
    pub(super) async fn read(self: Rc<Self>, key: JsValue) -> Result<JsValue, JsValue> {
        let (_tx, store) = self.store("readonly").await?;
        let request = call(&store, "get", &[&key]).map_err(|e| failure("read", &e))?;
        event(&request, "success", &["error"], "read").await
    }

    /// Puts `record` under `key` (or deletes it), resolving once the transaction committed.
    pub(super) async fn write(
        self: Rc<Self>,
        key: JsValue,
        record: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let (tx, store) = self.store("readwrite").await?;
        let what = if record.is_some() { "save" } else { "delete" };
        match &record {
            Some(record) => call(&store, "put", &[record, &key]),
            None => call(&store, "delete", &[&key]),
        }
        .map_err(|e| failure(what, &e))?;
        event(&tx, "complete", &["error", "abort"], what)
            .await
            .map(|_| ())
    }
}
