//! The built-in tools of `createToolkit` from its `fs` and `exec` options: which filesystem
//! `read`/`write`/`edit`/`grep`/`glob`/`apply_patch` work on, and whether `bash` exists.

use crate::core::text::JoinWith;
use js_sys::Function;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::aborting_fetch::AbortingFetch;
use super::convert::{error_text, get, js_error, type_name};
use super::exec::{JsExec, NodeExec};
use super::fs::JsFs;
use super::host::{random_id, JsClock};
use super::http::FetchHttp;
use super::memfs::core_memory_fs;
use crate::core::builtins::{create, BuiltinHost, Exec, Regex, RegexEngine};
use crate::core::fs::{MemoryFs, SharedFs};
use crate::core::host::{Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
use crate::core::tool::SharedTool;

/// Methods a host filesystem object must have (`realPath` and `cwd` are optional).
const HOST_FS_METHODS: [&str; 5] = ["readFile", "writeFile", "remove", "readDir", "stat"];

/// Every built-in tool for these toolkit options (the `builtins` toggle is applied later).
pub fn builtin_tools(options: &JsValue) -> Result<Vec<SharedTool>, JsValue> {
    let fs = fs_option(&get(options, "fs"), "createToolkit")?;
    let exec = exec_option(&get(options, "exec"))?;
    // `webfetch`'s request is aborted when its timeout (or the call's signal) wins.
    let http: Rc<dyn Http> = match FetchHttp::new(None) {
        Some(fetch) => Rc::new(AbortingFetch(fetch)),
        None => Rc::new(NoFetch),
    };
    let host = BuiltinHost {
        exec,
        ids: Rc::new(|| random_id("pnd")),
        regex: Some(Rc::new(JsRegExp)),
        ..BuiltinHost::new(fs, http, Rc::new(JsClock))
    };
    Ok(create(&host))
}

fn unsupported(what: &str, message: &str) -> JsValue {
    js_error("unsupported", &format!("{what}: {message}"))
}

fn invalid(what: &str, message: &str) -> JsValue {
    js_error("invalid_options", &format!("{what}: {message}"))
}

/// `process.getBuiltinModule(name)` (Node ≥ 20.16, and Deno/Bun where present).
pub fn builtin_module(name: &str) -> Option<JsValue> {
    let process = get(&js_sys::global(), "process");
    let load = get(&process, "getBuiltinModule")
        .dyn_into::<Function>()
        .ok()?;
    let module = load.call1(&process, &name.into()).ok()?;
    module.is_object().then_some(module)
}

fn has_functions(value: &JsValue, names: &[&str]) -> bool {
    names.iter().all(|n| get(value, n).is_function())
}

/// The filesystem an `fs` option names (`what` prefixes its errors): absent or `"memory"` a
/// fresh in-memory one, `"node"`, `"deno"`, a MemoryFileSystem, Node's `fs/promises` module or
/// a ToolnexusFs object.
pub fn fs_option(value: &JsValue, what: &str) -> Result<SharedFs, JsValue> {
    if value.is_undefined() || value.is_null() || value.as_string().as_deref() == Some("memory") {
        return Ok(Rc::new(MemoryFs::new()));
    }
    if let Some(memory) = core_memory_fs(value) {
        return Ok(Rc::new(memory));
    }
    match value.as_string().as_deref() {
        Some("node") => {
            let module = builtin_module("node:fs/promises").ok_or_else(|| {
                unsupported(what, "fs: \"node\" needs process.getBuiltinModule (Node ≥ 20.16); pass the module instead: fs: await import(\"node:fs/promises\")")
            })?;
            return Ok(Rc::new(JsFs::node(module)));
        }
        Some("deno") => {
            let deno = get(&js_sys::global(), "Deno");
            if !deno.is_object() {
                return Err(unsupported(what, "fs: \"deno\" needs the Deno runtime"));
            }
            return Ok(Rc::new(JsFs::deno(deno)));
        }
        Some(other) => {
            return Err(invalid(what, &format!(
                "fs must be \"memory\", \"node\", \"deno\", a MemoryFileSystem, the node:fs/promises module or a ToolnexusFs object, got \"{other}\""
            )))
        }
        None => {}
    }
    if !value.is_object() {
        return Err(invalid(
            what,
            &format!("fs must be a string or an object, got {}", type_name(value)),
        ));
    }
    if has_functions(
        value,
        &["readdir", "mkdir", "readFile", "writeFile", "stat", "rm"],
    ) {
        return Ok(Rc::new(JsFs::node(value.clone())));
    }
    let missing: Vec<&str> = HOST_FS_METHODS
        .iter()
        .copied()
        .filter(|m| !get(value, m).is_function())
        .collect();
    if !missing.is_empty() {
        return Err(invalid(what, &format!(
            "fs object is missing {} (a ToolnexusFs has readFile, writeFile, remove, readDir, stat)",
            missing.join_with(", ")
        )));
    }
    Ok(Rc::new(JsFs::host(value.clone())))
}

fn exec_option(value: &JsValue) -> Result<Option<Rc<dyn Exec>>, JsValue> {
    if value.is_undefined() || value.is_null() || value.as_bool() == Some(false) {
        return Ok(None);
    }
    if let Some(f) = value.dyn_ref::<Function>() {
        return Ok(Some(Rc::new(JsExec::new(f.clone()))));
    }
    if value.as_string().as_deref() == Some("node") {
        let module = builtin_module("node:child_process").ok_or_else(|| {
            unsupported("createToolkit", "exec: \"node\" needs process.getBuiltinModule (Node ≥ 20.16); pass the module instead: exec: await import(\"node:child_process\")")
        })?;
        return Ok(Some(Rc::new(NodeExec::new(module))));
    }
    if value.is_object() && get(value, "exec").is_function() {
        return Ok(Some(Rc::new(NodeExec::new(value.clone()))));
    }
    Err(invalid("createToolkit", &format!(
        "exec must be a function (command, {{workdir, timeout}}) => {{output, exitCode}}, \"node\" or the node:child_process module, got {}",
        type_name(value)
    )))
}

/// The transport of a runtime without `fetch`: every request fails saying so.
struct NoFetch;

impl Http for NoFetch {
    fn send(
        &self,
        _request: &HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        Box::pin(async {
            Err(HttpError::Network(
                "fetch is not available in this runtime".into(),
            ))
        })
    }
}

#[wasm_bindgen(module = "/src/js/shim-builtins.js")]
extern "C" {
    #[wasm_bindgen(js_name = compileRegExp)]
    fn shim_compile_regexp(pattern: &str) -> JsValue;
    #[wasm_bindgen(js_name = matchingLines)]
    fn shim_matching_lines(re: &JsValue, text: &str, limit: u32) -> Vec<u32>;
}

/// `grep`'s engine: JavaScript's own `RegExp`, so a pattern means what it means in JS.
struct JsRegExp;

/// A compiled `RegExp`.
struct CompiledRegExp(JsValue);

impl RegexEngine for JsRegExp {
    fn compile(&self, pattern: &str) -> Result<Box<dyn Regex>, String> {
        let compiled = shim_compile_regexp(pattern);
        if compiled.is_instance_of::<js_sys::RegExp>() {
            Ok(Box::new(CompiledRegExp(compiled)))
        } else {
            let thrown = super::convert::item(&compiled, 1);
            Err(error_text(&thrown))
        }
    }
}

impl Regex for CompiledRegExp {
    fn matching_lines(&self, text: &str, limit: usize) -> Vec<usize> {
        let limit = u32::try_from(limit).unwrap_or(u32::MAX);
        shim_matching_lines(&self.0, text, limit)
            .into_iter()
            .map(|i| i as usize)
            .collect()
    }
}

/// The built-in tools (SPEC §4A) as `Tool`s, without a toolkit: `read`, `write`, `edit`,
/// `grep`, `glob`, `apply_patch`, `webfetch`, `todowrite`, `question`, and `bash` where the
/// runtime can run processes. `options` takes the `fs` and `exec` of `createToolkit`; bad ones
/// throw `invalid_options` (or `unsupported`).
///
/// ```js
/// const read = createBuiltinTools().find((t) => t.name === "read")
/// await read.execute({ path: "README.md" })
/// ```
#[wasm_bindgen(js_name = createBuiltinTools, unchecked_return_type = "Tool[]")]
pub fn create_builtin_tools(
    #[wasm_bindgen(unchecked_optional_param_type = "BuiltinToolsOptions")] options: JsValue,
) -> Result<js_sys::Array, JsValue> {
    Ok(builtin_tools(&options)?
        .into_iter()
        .map(|tool| JsValue::from(super::tool::ToolHandle::new(tool)))
        .collect())
}

/// Whether a `builtins` config leaves the built-in source on: absent is on, a boolean is
/// itself, and in an object `disabled: true` wins over everything, then `enabled: false`.
///
/// ```js
/// builtinsEnabled({ enabled: true, disabled: true }) // false
/// ```
#[wasm_bindgen(js_name = builtinsEnabled)]
pub fn builtins_enabled(
    #[wasm_bindgen(unchecked_optional_param_type = "BuiltinsConfig")] config: JsValue,
) -> Result<bool, JsValue> {
    use crate::core::json::value::Value;
    match super::convert::to_json(&config) {
        Ok(Value::Null) => Ok(true),
        Ok(value @ (Value::Bool(_) | Value::Object(_))) => {
            Ok(crate::core::builtin_toggle::enabled(Some(&value)))
        }
        _ => Err(js_error(
            "invalid_options",
            &format!(
                "builtinsEnabled: expected a boolean or {{enabled?, disabled?, tools?}}, got {}",
                type_name(&config)
            ),
        )),
    }
}
