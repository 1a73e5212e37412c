//! `webfetch`: one `GET` over the host's `Http`, raced against a timeout on the host's clock.

use futures_util::future::{select, Either};
use std::rc::Rc;

use super::args;
use super::html::{html_to_markdown, html_to_text};
use super::tool::{err_with, ok_with, Builtin};
use crate::core::host::{Clock, Http, HttpRequest};

const DEFAULT_TIMEOUT_S: f64 = 30.0;

/// `webfetch {url, format?, timeout?}`: the body as `markdown` (default), `text` or `html`.
/// A non-2xx status is the error `HTTP <status>`; an HTML body is converted for `markdown` and
/// `text`, any other body (JSON, plain text) is returned as it came.
pub fn tool(http: Rc<dyn Http>, clock: Rc<dyn Clock>) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "url": {"type": "string", "description": "URL to fetch"},
            "format": {
                "type": "string",
                "enum": ["text", "markdown", "html"],
                "description": "Response format (default markdown)"
            },
            "timeout": {"type": "number", "description": "Timeout in seconds (default 30)"}
        },
        "required": ["url"],
        "additionalProperties": false
    }"#;
    let description = "Fetches a URL with GET and returns the page as markdown (default), plain \
                       text, or raw html.";
    Builtin::new("webfetch", description, schema, move |args, ctx| {
        let (http, clock) = (http.clone(), clock.clone());
        Box::pin(async move {
            let url = args::required(&args, "url")?;
            let format = match args::text(&args, "format").as_str() {
                "text" => "text",
                "html" => "html",
                _ => "markdown",
            };
            let seconds = args::number(&args, "timeout").unwrap_or(DEFAULT_TIMEOUT_S);
            let request = HttpRequest {
                method: "GET".into(),
                url: url.into(),
                headers: Rc::from([]),
                body: None,
                splice: None,
                signal: ctx.signal.clone(),
            };
            let sent = http.send(&request);
            let timer = clock.sleep((seconds * 1000.0).max(0.0));
            let response = match select(sent, timer).await {
                Either::Left((response, _)) => response.map_err(|e| e.to_string())?,
                Either::Right(_) => {
                    return Err(format!(
                        "timed out after {} s",
                        crate::core::jsfmt::number(seconds)
                    ))
                }
            };
            let status = response.status;
            if !(200..300).contains(&status) {
                return Ok(err_with(
                    format!("HTTP {status}"),
                    crate::json_value!({"status": status}),
                ));
            }
            let body = response.body;
            let output = match format {
                "html" => body,
                _ if !looks_like_html(&body) => body,
                "text" => html_to_text(&body),
                _ => html_to_markdown(&body),
            };
            Ok(ok_with(
                output,
                crate::json_value!({"status": status, "format": format}),
            ))
        })
    })
}

/// Whether a body is HTML: its first non-blank character opens a tag, a comment or a doctype.
fn looks_like_html(body: &str) -> bool {
    let start = body.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    let mut chars = start.chars();
    chars.next() == Some('<')
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '!')
}
