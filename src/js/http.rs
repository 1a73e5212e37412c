//! The core's `Http` over a JS `fetch` (the `fetch` option, else the global one).

use js_sys::{Function, Object};
use wasm_bindgen::prelude::*;

use super::convert::{error_text, get};
use super::host::{set, JsSignal};
use super::promise::{call2, settle};
use crate::core::host::{Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};

/// `fetch(url, {method: "POST", headers, body, signal})`.
pub struct FetchHttp {
    fetch: Function,
}

impl FetchHttp {
    /// Uses `fetch` when given, else `globalThis.fetch`; `None` when neither exists.
    pub fn new(fetch: Option<Function>) -> Option<Self> {
        let fetch =
            fetch.or_else(|| get(&js_sys::global(), "fetch").dyn_into::<Function>().ok())?;
        Some(FetchHttp { fetch })
    }
}

impl Http for FetchHttp {
    fn send(
        &self,
        request: HttpRequest,
    ) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
        let fetch = self.fetch.clone();
        Box::pin(async move {
            let signal = request.signal.clone();
            let js_signal = signal.as_ref().and_then(|s| {
                s.as_any()
                    .downcast_ref::<JsSignal>()
                    .map(|s| s.js().clone())
            });
            let init = init_object(&request, js_signal.as_ref());
            let aborted = || {
                signal
                    .as_ref()
                    .filter(|s| s.is_aborted())
                    .map(|s| HttpError::Aborted(s.reason()))
            };
            let response = match call2(
                &fetch,
                &JsValue::UNDEFINED,
                &request.url.as_str().into(),
                &init,
            )
            .await
            {
                Ok(response) => response,
                Err(thrown) => {
                    return Err(
                        aborted().unwrap_or_else(|| HttpError::Network(network_text(&thrown)))
                    )
                }
            };
            let status = get(&response, "status").as_f64().unwrap_or(0.0) as u16;
            let headers = get(&response, "headers");
            let retry_after = get(&headers, "get")
                .dyn_into::<Function>()
                .ok()
                .and_then(|g| g.call1(&headers, &"retry-after".into()).ok())
                .and_then(|v| v.as_string());
            let text = get(&response, "text").dyn_into::<Function>().map_err(|_| {
                HttpError::Network("fetch returned something that is not a Response".into())
            })?;
            let body = match text.call0(&response) {
                Ok(promise) => settle(promise).await,
                Err(thrown) => Err(thrown),
            };
            let body = match body {
                Ok(body) => body.as_string().unwrap_or_default(),
                Err(thrown) => {
                    return Err(aborted().unwrap_or_else(|| {
                        HttpError::Network(format!(
                            "reading the response failed: {}",
                            error_text(&thrown)
                        ))
                    }))
                }
            };
            Ok(HttpResponse {
                status,
                retry_after,
                body,
            })
        })
    }
}

fn init_object(request: &HttpRequest, signal: Option<&JsValue>) -> JsValue {
    let init: JsValue = Object::new().into();
    set(&init, "method", &request.method.as_str().into());
    let headers: JsValue = Object::new().into();
    for (name, value) in &request.headers {
        set(&headers, name, &value.as_str().into());
    }
    set(&init, "headers", &headers);
    if let Some(body) = &request.body {
        set(&init, "body", &body.as_str().into());
    }
    if let Some(signal) = signal {
        set(&init, "signal", signal);
    }
    init
}

/// The message of a failed `fetch`, with its cause when the runtime gives one (Node's
/// `fetch failed` hides `ECONNREFUSED` there).
fn network_text(thrown: &JsValue) -> String {
    let message = error_text(thrown);
    let cause = get(thrown, "cause");
    if cause.is_undefined() || cause.is_null() {
        return message;
    }
    let detail = get(&cause, "code")
        .as_string()
        .unwrap_or_else(|| error_text(&cause));
    format!("{message} ({detail})")
}
