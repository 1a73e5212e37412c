//! `httpTool(options)` (SPEC §7): an HTTP endpoint as a `Tool`, sent with `fetch`. A request
//! still in flight when the call gives up (its timeout, the caller's signal) is aborted.

use crate::core::value::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::aborting_fetch::AbortingFetch;
use super::client_options::{env_var, function_opt, string_opt};
use super::convert::{get, js_error, to_json};
use super::host::JsClock;
use super::http::FetchHttp;
use super::tool::ToolHandle;
use crate::core::http_tool::{BodyMode, EnvLookup, HttpTool, HttpToolOptions, ResultMode};

const WHAT: &str = "httpTool";

fn invalid(message: &str) -> JsValue {
    js_error("invalid_options", &format!("{WHAT}: {message}"))
}

fn headers_of(options: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    match to_json(&get(options, "headers")) {
        Ok(Value::Null) => Ok(Vec::new()),
        Ok(Value::Object(map)) => map
            .into_iter()
            .map(|(name, value)| match value {
                Value::String(v) => Ok((name, v)),
                _ => Err(invalid(&format!("headers[\"{name}\"] must be a string"))),
            })
            .collect(),
        _ => Err(invalid("headers must be an object of strings")),
    }
}

fn query_of(options: &JsValue) -> Result<Vec<String>, JsValue> {
    match to_json(&get(options, "query")) {
        Ok(Value::Null) => Ok(Vec::new()),
        Ok(Value::Array(items)) if items.iter().all(Value::is_string) => Ok(items
            .into_iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()),
        _ => Err(invalid("query must be an array of argument names")),
    }
}

fn modes_of(options: &JsValue) -> Result<(BodyMode, ResultMode), JsValue> {
    let body = match string_opt(options, "body", WHAT)?.as_deref() {
        None | Some("json") => BodyMode::Json,
        Some("form") => BodyMode::Form,
        Some("raw") => BodyMode::Raw,
        Some(other) => {
            return Err(invalid(&format!(
                "body must be \"json\", \"form\" or \"raw\", got \"{other}\""
            )))
        }
    };
    let result = match string_opt(options, "resultMode", WHAT)?.as_deref() {
        None | Some("text") => ResultMode::Text,
        Some("json") => ResultMode::Json,
        Some("status+text") => ResultMode::StatusText,
        Some(other) => {
            return Err(invalid(&format!(
                "resultMode must be \"text\", \"json\" or \"status+text\", got \"{other}\""
            )))
        }
    };
    Ok((body, result))
}

fn timeout_of(options: &JsValue) -> Result<Option<f64>, JsValue> {
    let value = get(options, "timeout");
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(ms) if ms.is_finite() && ms >= 0.0 => Ok(Some(ms)),
        _ => Err(invalid(
            "timeout must be a non-negative number of milliseconds",
        )),
    }
}

/// The `env` option (read at call time), else the runtime's environment.
fn env_of(options: &JsValue) -> Result<EnvLookup, JsValue> {
    let env = get(options, "env");
    if env.is_undefined() || env.is_null() {
        return Ok(Rc::new(env_var));
    }
    if !env.is_object() {
        return Err(invalid("env must be an object of strings"));
    }
    Ok(Rc::new(move |name: &str| get(&env, name).as_string()))
}

fn options_of(options: &JsValue) -> Result<HttpToolOptions, JsValue> {
    if !options.is_object() {
        return Err(invalid("options must be an object"));
    }
    let required = |key: &str| {
        string_opt(options, key, WHAT)?.ok_or_else(|| invalid(&format!("{key} is required")))
    };
    let schema = get(options, "inputSchema");
    let input_schema = if schema.is_undefined() || schema.is_null() {
        None
    } else {
        Some(to_json(&schema).map_err(|why| invalid(&format!("inputSchema is not JSON: {why}")))?)
    };
    let (body, result_mode) = modes_of(options)?;
    Ok(HttpToolOptions {
        name: required("name")?,
        description: string_opt(options, "description", WHAT)?.unwrap_or_default(),
        method: required("method")?,
        url: required("url")?,
        headers: headers_of(options)?,
        query: query_of(options)?,
        body,
        input_schema,
        timeout_ms: timeout_of(options)?,
        result_mode,
    })
}

/// Declares an HTTP endpoint as a tool (`source: "http"`). `{placeholders}` in `url` are
/// filled from the arguments (URL-encoded) and left out of the body; `query` names go to the
/// query string (every argument on `GET`); the rest is the body (`"json"` by default, `"form"`,
/// or `"raw"`: the `body` argument). Header values expand `${NAME}` from `env` (by default
/// `process.env` / `Deno.env` where the runtime has one); they are never logged or echoed. A
/// non-2xx status resolves to `{isError: true, output: "HTTP <status>: <body>"}`; a 2xx to the
/// body with `metadata.status`. `timeout` (ms, default 30000) aborts the request.
///
/// ```js
/// import { httpTool, createToolkit } from "toolnexus-wasm"
/// const issue = httpTool({
///   name: "get_issue", description: "Reads a GitHub issue", method: "GET",
///   url: "https://api.github.com/repos/{owner}/{repo}/issues/{number}",
///   headers: { Authorization: "Bearer ${GITHUB_TOKEN}" },
///   inputSchema: { type: "object", properties: { owner: { type: "string" }, repo: { type: "string" }, number: { type: "integer" } }, required: ["owner", "repo", "number"] },
/// })
/// const toolkit = await createToolkit({ extraTools: [issue] })
/// ```
#[wasm_bindgen(js_name = httpTool)]
pub fn http_tool(
    #[wasm_bindgen(unchecked_param_type = "HttpToolOptions")] options: JsValue,
) -> Result<ToolHandle, JsValue> {
    let declared = options_of(&options)?;
    let env = env_of(&options)?;
    let fetch = function_opt(&options, "fetch", WHAT)?;
    let fetch = FetchHttp::new(fetch).ok_or_else(|| {
        js_error(
            "unsupported",
            "httpTool: this runtime has no fetch; pass one as the fetch option",
        )
    })?;
    let tool = HttpTool::new(
        declared,
        Rc::new(AbortingFetch(fetch)),
        Rc::new(JsClock),
        env,
    )
    .map_err(|e| js_error("invalid_tool", &format!("httpTool: {e}")))?;
    Ok(ToolHandle::new(Rc::new(tool)))
}
