//! `createClient`: options in, a `Client` out (`createInProcessClient` is plain JavaScript over
//! it, `src/js/in-process.js`).

use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::callbacks::{JsHooks, JsMetricSink, JsWaitFor};
use super::client::ClientHandle;
use super::client_options::{api_key, common, function_opt, string_opt};
use super::convert::{described, get, js_error, type_name};
use super::host::JsClock;
use super::http::FetchHttp;
use super::store::default_store;
use crate::core::client::config::Style;
use crate::core::client::run::Client;
use crate::core::client::telemetry::{MetricSink, Telemetry};
use crate::core::host::Http;

/// The hooks a `hooks` object may carry.
const HOOKS: [&str; 4] = ["beforeLLM", "afterLLM", "beforeTool", "afterTool"];

fn build(
    options: &JsValue,
    style: Style,
    base_url: String,
    http: Rc<dyn Http>,
    what: &str,
) -> Result<ClientHandle, JsValue> {
    let mut config = common(options, style, base_url, what)?;
    let browser_access = get(options, "anthropicBrowserAccess").as_bool() == Some(true);
    if style == Style::Anthropic && browser_access {
        let header = (
            "anthropic-dangerous-direct-browser-access".to_owned(),
            "true".to_owned(),
        );
        config.headers.insert(0, header);
    }
    // A function carrying a hook as a property is a hooks object too (`agents.compactor` makes
    // one); a bare function is still refused, as the likely mistake `hooks: beforeLLM`.
    let hooks = get(options, "hooks");
    let carries_hook = || HOOKS.iter().any(|key| get(&hooks, key).is_function());
    let accepted = hooks.is_undefined()
        || hooks.is_null()
        || hooks.is_object()
        || (hooks.is_function() && carries_hook());
    if !accepted {
        return Err(js_error(
            "invalid_options",
            &format!("{what}: hooks must be an object, got {}", type_name(&hooks)),
        ));
    }
    let body_transform = function_opt(options, "bodyTransform", what)?;
    let on_error = function_opt(options, "onError", what)?;
    let on_metric = function_opt(options, "onMetric", what)?
        .map(|f| Rc::new(JsMetricSink(f)) as Rc<dyn MetricSink>);
    let wait_for = function_opt(options, "waitFor", what)?
        .map(|f| Rc::new(JsWaitFor(f)) as Rc<dyn crate::core::client::hooks::WaitFor>);
    let store = get(options, "store");
    let store = if store.is_undefined() || store.is_null() {
        default_store(what)?
    } else if get(&store, "get").is_function() && get(&store, "save").is_function() {
        store
    } else {
        return Err(js_error(
            "invalid_options",
            &format!("{what}: store must have get(id) and save(id, messages) functions"),
        ));
    };
    let core = Client {
        config: Rc::new(config),
        dialect: style.dialect(),
        http,
        hooks: Rc::new(JsHooks::new(hooks, body_transform, on_error)),
        wait_for,
        clock: Rc::new(JsClock),
        telemetry: Rc::new(Telemetry::with_sink(on_metric)),
        requests: Default::default(),
    };
    Ok(ClientHandle { core, store })
}

/// A client for any OpenAI- or Anthropic-style endpoint, over `fetch`.
///
/// ```js
/// const client = createClient({
///   baseUrl: "http://127.0.0.1:11434/v1", style: "openai", model: "llama3.2",
///   waitFor: async (request) => ({ id: request.id, ok: confirm(request.prompt) }),
/// })
/// ```
#[wasm_bindgen(js_name = createClient)]
pub fn create_client(
    #[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue,
) -> Result<ClientHandle, JsValue> {
    let what = "createClient";
    let given_style = get(&options, "style");
    let style = match given_style.as_string().as_deref().and_then(Style::parse) {
        Some(style) => style,
        None => {
            return Err(js_error(
                "invalid_options",
                &format!(
                    "createClient: style must be \"openai\" or \"anthropic\", got {}",
                    described(&given_style)
                ),
            ))
        }
    };
    let base_url = string_opt(&options, "baseUrl", what)?
        .ok_or_else(|| js_error("invalid_options", "createClient: baseUrl is required"))?;
    let fetch = function_opt(&options, "fetch", what)?;
    let http = FetchHttp::new(fetch).ok_or_else(|| {
        js_error(
            "unsupported",
            "createClient: this runtime has no fetch; pass the fetch option",
        )
    })?;
    let mut client = build(&options, style, base_url, Rc::new(http), what)?;
    let config = Rc::make_mut(&mut client.core.config);
    config.api_key = api_key(&options, style, what)?;
    Ok(client)
}
