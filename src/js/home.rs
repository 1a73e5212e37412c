//! Agent homes at the boundary (SPEC §7E): the facade's `agents.composeSoul` and
//! `agents.memoryTool` over a home's filesystem (`core::home`).

use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::builtins::{builtin_module, fs_option};
use super::convert::{get, js_error, set};
use super::fs::JsFs;
use super::promise::promise;
use crate::core::fs::SharedFs;

/// A home's filesystem: `fs` as `createToolkit` takes it, and when absent the runtime's own
/// (Node's, Deno's); a page has none, so there it must be given.
fn home_fs(fs: &JsValue, what: &str) -> Result<SharedFs, JsValue> {
    if !fs.is_undefined() && !fs.is_null() {
        return fs_option(fs, what);
    }
    let deno = get(&js_sys::global(), "Deno");
    if deno.is_object() {
        return Ok(Rc::new(JsFs::deno(deno)));
    }
    match builtin_module("node:fs/promises") {
        Some(module) => Ok(Rc::new(JsFs::node(module))),
        None => Err(js_error(
            "unsupported",
            &format!("{what}: this runtime has no filesystem of its own: pass fs (an IndexedDbFileSystem in a page, a MemoryFileSystem or a ToolnexusFs)"),
        )),
    }
}

/// The soul of the home at `dir` (`{soul, found}`), read through `fs`. For the facade's
/// `agents.composeSoul`.
///
/// ```js
/// const { soul, found } = await __composeSoul("./personas/ava", undefined)
/// ```
#[wasm_bindgen(js_name = __composeSoul, unchecked_return_type = "Promise<{ soul: string; found: string[] }>")]
pub fn compose_soul(
    dir: String,
    #[wasm_bindgen(unchecked_param_type = "unknown")] fs: JsValue,
) -> Result<js_sys::Promise, JsValue> {
    let fs = home_fs(&fs, "composeSoul")?;
    Ok(promise(async move {
        let soul = crate::core::home::compose_soul(fs.as_ref(), &dir)
            .await
            .map_err(|why| js_error("store", &format!("composeSoul: {why}")))?;
        let out: JsValue = js_sys::Object::new().into();
        set(&out, "soul", &JsValue::from_str(&soul.soul));
        let found: js_sys::Array = soul.found.iter().map(|f| JsValue::from_str(f)).collect();
        set(&out, "found", &found.into());
        Ok(out)
    }))
}

/// The `memory` tool of the home at `dir`, over `fs`. For the facade's `agents.memoryTool`.
///
/// ```js
/// const memory = __memoryTool("./personas/ava", undefined)
/// ```
#[wasm_bindgen(js_name = __memoryTool, unchecked_return_type = "Tool")]
pub fn memory_tool(
    dir: &str,
    #[wasm_bindgen(unchecked_param_type = "unknown")] fs: JsValue,
) -> Result<JsValue, JsValue> {
    let fs = home_fs(&fs, "memoryTool")?;
    let tool = Rc::new(crate::core::home::memory_tool(fs, dir));
    Ok(super::tool::ToolHandle::new(tool).into())
}
