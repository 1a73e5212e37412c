//! HTTP / REST tools (SPEC §7, source `"http"`): one endpoint as a tool over [`Http::send`].
//! `{placeholders}` in the URL come from the arguments (URL-encoded, then removed from the
//! body), `query` names go to the query string (every argument on `GET`), header values expand
//! `${ENV}` from the host's environment and are never logged or echoed, a non-2xx status is an
//! error result `HTTP <status>: <body>`, and the call is bounded by a timeout.

use crate::core::value::{Map, Value};
use futures_util::future::{select, Either};
use std::rc::Rc;

use super::host::{Clock, Http, HttpRequest, LocalBoxFuture};
use super::jsfmt::{encode_uri_component, form_urlencode, string_of, stringify};
use super::spec::{empty_schema, SpecError, ToolSpec};
use super::tool::{Context, Tool};
use super::types::ToolResult;

/// How the remaining arguments become the request body (methods other than `GET`/`HEAD`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BodyMode {
    /// `JSON.stringify(args)`, `Content-Type: application/json` unless given.
    #[default]
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// The `body` argument as text.
    Raw,
}

/// What a 2xx response becomes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ResultMode {
    /// The body text.
    #[default]
    Text,
    /// The body re-serialized as compact JSON (a non-JSON body as a JSON string).
    Json,
    /// `<status>\n<body>`.
    StatusText,
}

/// Reads an environment variable for `${NAME}` in a header value (`None`: expands to empty).
pub type EnvLookup = Rc<dyn Fn(&str) -> Option<String>>;

/// The declaration of an HTTP tool.
#[derive(Debug, Clone, Default)]
pub struct HttpToolOptions {
    /// The tool's name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// `GET`, `POST`, … (any case).
    pub method: String,
    /// The URL, with `{name}` placeholders.
    pub url: String,
    /// Static headers; values may contain `${ENV}`.
    pub headers: Vec<(String, String)>,
    /// Argument names sent in the query string.
    pub query: Vec<String>,
    /// How the body is encoded.
    pub body: BodyMode,
    /// The arguments' JSON Schema (an empty object schema when `None`).
    pub input_schema: Option<Value>,
    /// Milliseconds before the call gives up (30 000 by default; `ctx.timeout` wins).
    pub timeout_ms: Option<f64>,
    /// What a 2xx response becomes.
    pub result_mode: ResultMode,
}

/// The default time budget of a call.
pub const DEFAULT_TIMEOUT_MS: f64 = 30_000.0;

/// An HTTP endpoint as a [`Tool`].
///
/// ```
/// use std::rc::Rc;
/// use toolnexus::core::host::{Clock, Http, HttpError, HttpRequest, HttpResponse, LocalBoxFuture};
/// use toolnexus::core::http_tool::{HttpTool, HttpToolOptions};
/// use toolnexus::core::tool::Tool;
/// struct Echo;
/// impl Http for Echo {
///     fn send(&self, r: &HttpRequest) -> LocalBoxFuture<'static, Result<HttpResponse, HttpError>> {
///         let body = r.url.to_string();
///         Box::pin(async move { Ok(HttpResponse { status: 200, retry_after: None, body }) })
///     }
/// }
/// struct Never;
/// impl Clock for Never {
///     fn now_ms(&self) -> f64 { 0.0 }
///     fn sleep(&self, _: f64) -> LocalBoxFuture<'static, ()> { Box::pin(std::future::pending()) }
/// }
/// let options = HttpToolOptions { name: "city".into(), method: "get".into(),
///     url: "https://x.test/cities/{id}".into(), ..Default::default() };
/// let tool = HttpTool::new(options, Rc::new(Echo), Rc::new(Never), Rc::new(|_: &str| None)).unwrap();
/// let args = toolnexus::json!({"id": "a b", "lang": "fr"});
/// let out = futures_executor::block_on(tool.execute(args, Default::default()));
/// assert_eq!(out.output, "https://x.test/cities/a%20b?lang=fr");
/// ```
pub struct HttpTool {
    spec: ToolSpec,
    options: HttpToolOptions,
    http: Rc<dyn Http>,
    clock: Rc<dyn Clock>,
    env: EnvLookup,
}

impl HttpTool {
    /// Checks the declaration and builds the tool.
    pub fn new(
        mut options: HttpToolOptions,
        http: Rc<dyn Http>,
        clock: Rc<dyn Clock>,
        env: EnvLookup,
    ) -> Result<Self, SpecError> {
        let schema = options.input_schema.clone().unwrap_or_else(empty_schema);
        let spec = ToolSpec::new(&options.name, &options.description, schema, "http")?;
        // A method is an ASCII token (fetch refuses anything else), so ASCII case is all there is.
        options.method = options.method.to_ascii_uppercase();
        Ok(HttpTool {
            spec,
            options,
            http,
            clock,
            env,
        })
    }
}

/// Replaces each `${NAME}` (`NAME` of letters, digits and `_`) with `env(NAME)`, or nothing.
fn expand_env(value: &str, env: &EnvLookup) -> String {
    replace_braced(value, "${", |name| env(name).unwrap_or_default())
}

/// Replaces every `<open>NAME}` (NAME of `[A-Za-z0-9_]+`) with `f(NAME)`; anything else stays.
fn replace_braced(text: &str, open: &str, mut f: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = crate::core::text::find(rest, open) {
        out.push_str(rest.get(..at).unwrap_or(""));
        let from = rest.get(at..).unwrap_or("");
        let inner = from.get(open.len()..).unwrap_or("");
        let len = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let name = inner.get(..len).unwrap_or("");
        if !name.is_empty() && inner.get(len..).is_some_and(|r| r.starts_with('}')) {
            out.push_str(&f(name));
            rest = inner.get(len + 1..).unwrap_or("");
        } else {
            let first = from.chars().next().map_or(1, char::len_utf8);
            out.push_str(from.get(..first).unwrap_or(""));
            rest = from.get(first..).unwrap_or("");
        }
    }
    out.push_str(rest);
    out
}

/// The request a call sends, built from the declaration and the arguments.
fn build_request(options: &HttpToolOptions, args: Value, env: &EnvLookup) -> HttpRequest {
    let mut args = match args {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let mut url = replace_braced(&options.url, "{", |key| match args.shift_remove(key) {
        None | Some(Value::Null) => String::new(),
        Some(value) => encode_uri_component(&string_of(&value)),
    });
    let method = options.method.as_str();
    let to_query: Vec<String> = args
        .keys()
        .filter(|k| method == "GET" || options.query.contains(k))
        .cloned()
        .collect();
    let pairs: Vec<(String, String)> = to_query
        .into_iter()
        .filter_map(|k| args.shift_remove(&k).map(|v| (k, string_of(&v))))
        .collect();
    if !pairs.is_empty() {
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str(&form_urlencode(&pairs));
    }
    let mut headers: Vec<(String, String)> = options
        .headers
        .iter()
        .map(|(name, value)| (name.clone(), expand_env(value, env)))
        .collect();
    let mut body = None;
    if method != "GET" && method != "HEAD" && !args.is_empty() {
        let has_type = headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
        let (content_type, text) = match options.body {
            BodyMode::Json => (Some("application/json"), stringify(&Value::Object(args))),
            BodyMode::Form => {
                let pairs: Vec<(String, String)> = args
                    .iter()
                    .map(|(k, v)| (k.clone(), string_of(v)))
                    .collect();
                (
                    Some("application/x-www-form-urlencoded"),
                    form_urlencode(&pairs),
                )
            }
            BodyMode::Raw => match args.get("body") {
                None | Some(Value::Null) => (None, String::new()),
                Some(value) => (None, string_of(value)),
            },
        };
        if let (Some(content_type), false) = (content_type, has_type) {
            headers.push(("Content-Type".into(), content_type.into()));
        }
        body = Some(text);
    }
    HttpRequest {
        method: options.method.clone().into(),
        url: url.into(),
        headers: headers.into(),
        body,
        splice: None,
        signal: None,
    }
}

fn with_status(mut result: ToolResult, status: u16) -> ToolResult {
    let mut metadata = Map::new();
    metadata.insert("status".into(), crate::json_value!(status));
    result.metadata = Some(metadata);
    result
}

impl Tool for HttpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let mut request = build_request(&self.options, args, &self.env);
        request.signal = ctx.signal.clone();
        let timeout = ctx
            .timeout_ms
            .or(self.options.timeout_ms)
            .unwrap_or(DEFAULT_TIMEOUT_MS);
        let sent = self.http.send(&request);
        let timer = self.clock.sleep(timeout);
        let name = self.spec.name.clone();
        let mode = self.options.result_mode;
        Box::pin(async move {
            let response = match select(sent, timer).await {
                Either::Left((Ok(response), _)) => response,
                Either::Left((Err(error), _)) => return ToolResult::error(error.to_string()),
                Either::Right(_) => {
                    let message = format!(
                        "HTTP tool \"{name}\" timed out after {} ms",
                        super::jsfmt::number(timeout)
                    );
                    return ToolResult::error(message);
                }
            };
            let status = response.status;
            let text = response.body;
            if !(200..300).contains(&status) {
                return with_status(ToolResult::error(format!("HTTP {status}: {text}")), status);
            }
            let output = match mode {
                ResultMode::Text => text,
                ResultMode::StatusText => format!("{status}\n{text}"),
                ResultMode::Json => match crate::core::json_parse::from_str(&text) {
                    Ok(value) => stringify(&value),
                    Err(_) => stringify(&Value::String(text)),
                },
            };
            with_status(ToolResult::ok(output), status)
        })
    }
}
