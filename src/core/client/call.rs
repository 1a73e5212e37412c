//! One model call: the body built once as JSON text (request params merged, then the body
//! transform), sent, its status checked, its response read by the dialect.

use serde_json::Value;
use std::rc::Rc;

use super::config::ClientConfig;
use super::error::{redact, truncate, url_path, RunError};
use super::hooks::Hooks;
use crate::core::host::{Http, HttpError, HttpRequest, LocalBoxFuture, Signal};
use crate::core::wire::{Dialect, Reply, WireError};

/// What a model call produced: the reply, and the raw response when a hook wants it.
pub struct Completion {
    /// The dialect's reading of the response.
    pub reply: Reply,
    /// The parsed response body, present only when `afterLLM` is set.
    pub raw: Option<Value>,
}

/// Everything a model call needs.
pub struct Llm {
    /// The client's settings.
    pub config: Rc<ClientConfig>,
    /// The wire format.
    pub dialect: Rc<dyn Dialect>,
    /// The transport.
    pub http: Rc<dyn Http>,
    /// Hooks (for `bodyTransform` and whether `afterLLM` wants the raw response).
    pub hooks: Rc<dyn Hooks>,
}

impl Llm {
    /// Builds the request now and returns the future that sends it.
    pub fn call(
        &self,
        messages: &[Value],
        tools: &Value,
        system: &str,
        signal: Option<Signal>,
    ) -> Result<LocalBoxFuture<'static, Result<Completion, RunError>>, RunError> {
        let config = &self.config;
        let secrets = config.secrets();
        let url = self.dialect.endpoint(&config.base_url);
        let path = url_path(&url);
        let body = self.body_text(messages, tools, system)?;
        let request = HttpRequest {
            method: "POST".into(),
            url,
            headers: self.headers(),
            body: Some(body),
            signal,
        };
        let (http, dialect) = (self.http.clone(), self.dialect.clone());
        let wants_raw = self.hooks.has_after_llm();
        Ok(Box::pin(async move {
            let response = http.send(request).await.map_err(|e| match e {
                HttpError::Aborted(reason) => RunError::Aborted(reason),
                HttpError::Network(message) => RunError::Network {
                    path: path.clone(),
                    message: redact(&message, &secrets),
                },
                HttpError::Refused(message) => RunError::Model(redact(&message, &secrets)),
            })?;
            if !(200..300).contains(&response.status) {
                return Err(RunError::Status {
                    status: response.status,
                    path,
                    body: truncate(&redact(&response.body, &secrets), 2000),
                });
            }
            let reply = dialect.parse(&response.body).map_err(|source| {
                let source = match source {
                    WireError::Provider(message) => WireError::Provider(redact(&message, &secrets)),
                    other => other,
                };
                RunError::BadResponse { path, source }
            })?;
            let raw = wants_raw
                .then(|| serde_json::from_str(&response.body).ok())
                .flatten();
            Ok(Completion { reply, raw })
        }))
    }

    fn body_text(
        &self,
        messages: &[Value],
        tools: &Value,
        system: &str,
    ) -> Result<String, RunError> {
        let config = &self.config;
        let mut body = self
            .dialect
            .body(&config.model, system, messages, tools, false);
        let allowed = config
            .request_params
            .iter()
            .filter(|(key, _)| !matches!(key.as_str(), "messages" | "tools" | "stream"));
        for (key, value) in allowed {
            body.insert(key.clone(), value.clone());
        }
        let body = self
            .hooks
            .body_transform(Value::Object(body))
            .map_err(|message| RunError::Hook {
                hook: "bodyTransform",
                message,
            })?;
        Ok(body.to_string())
    }

    /// The dialect's headers, then the configured ones; a later header replaces an earlier
    /// one of the same name (case-insensitively).
    fn headers(&self) -> Vec<(String, String)> {
        let mut headers: Vec<(String, String)> = Vec::new();
        let own = self.dialect.auth_headers(self.config.api_key.as_deref());
        for (name, value) in own.into_iter().chain(self.config.headers.iter().cloned()) {
            headers.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
            headers.push((name, value));
        }
        headers
    }
}
