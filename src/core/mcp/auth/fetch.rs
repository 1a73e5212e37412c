//! The HTTP exchanges of OAuth (metadata documents, registration, the token endpoint): each
//! one request read whole, bounded by the server's timeout, answered as status and text.

use std::rc::Rc;

use crate::core::host::{Clock, Http, HttpRequest};
use crate::core::json::value::Value;
use crate::core::mcp::m2m::dpop::DpopBinding;
use crate::core::mcp::session::bounded;
use crate::core::mcp::transport::McpError;

/// What an OAuth exchange needs from the host.
#[derive(Clone)]
pub struct Exchange {
    /// `fetch`.
    pub http: Rc<dyn Http>,
    /// Bounds each request.
    pub clock: Rc<dyn Clock>,
    /// The budget of one request, in milliseconds.
    pub timeout_ms: f64,
    /// DPoP proofs for token requests (`auth.dpop`, `core::mcp::m2m::dpop`).
    pub dpop: Option<Rc<DpopBinding>>,
}

/// An answer: its status and its body as text.
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub text: String,
    /// The `DPoP-Nonce` header (RFC 9449 §8), when the server sent one.
    pub dpop_nonce: Option<String>,
}

impl Answer {
    /// The body as a JSON object, `None` when it is not one.
    pub fn object(&self) -> Option<Value> {
        crate::core::json::parse::from_str(&self.text)
            .ok()
            .filter(Value::is_object)
    }
}

impl Exchange {
    /// Sends one request; a network failure or a timeout is an error naming `what`.
    pub async fn send(
        &self,
        what: &str,
        method: &'static str,
        url: &str,
        headers: Vec<(String, String)>,
        body: Option<String>,
    ) -> Result<Answer, String> {
        let request = HttpRequest {
            method: method.into(),
            url: url.into(),
            headers: headers.into(),
            body,
            splice: None,
            signal: None,
        };
        let http = self.http.clone();
        let work = async move {
            let response = http
                .open_with_headers(&request)
                .await
                .map_err(|e| McpError::Transport(e.to_string()))?;
            let status = response.status;
            let dpop_nonce = response.header("dpop-nonce").map(str::to_owned);
            let mut body = response.body;
            let mut bytes = Vec::new();
            while let Some(chunk) = body.next_chunk().await {
                bytes.extend(chunk.map_err(|e| McpError::Transport(e.to_string()))?);
            }
            Ok(Answer {
                status,
                text: crate::core::text::from_utf8_lossy(&bytes),
                dpop_nonce,
            })
        };
        bounded(work, &self.clock, self.timeout_ms, what, None)
            .await
            .map_err(|e| format!("{what} failed: {e}"))
    }

    /// GETs a JSON document.
    pub async fn get(&self, what: &str, url: &str) -> Result<Answer, String> {
        let accept = vec![("accept".to_owned(), "application/json".to_owned())];
        self.send(what, "GET", url, accept, None).await
    }
}
