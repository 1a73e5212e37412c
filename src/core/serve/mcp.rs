//! The MCP server profile (SPEC §7C): one JSON-RPC message in, at most one out. It advertises
//! tools verbatim (`tools/list`) and runs them through the same checks as the toolkit
//! (`tools/call`: the arguments against the schema, the caller's signal), answering
//! `initialize`, `ping` and notifications as a stateless server does. The transport
//! (streamable HTTP) is [`super::http`]. A tool that suspends (SPEC §10) is asked of the
//! client through `elicitation/create` when the transport gives an [`Asker`] (the client
//! declared elicitation), and run again with the answer; otherwise its call is an error result
//! naming the suspension.

use super::elicit::{answer_of, elicitation_params, unanswerable, Asker};
use crate::core::client::suspend::check_answer;
use crate::core::execute::run_checked;
use crate::core::host::{Clock, LocalBoxFuture, Signal};
use crate::core::json::record::Record;
use crate::core::json::text::{buffer_text, write_str, write_value, Object};
use crate::core::json::value::Value;
use crate::core::tool::{Context, SharedTool};
use crate::core::toolkit::Toolkit;
use crate::core::types::{pending_of, Request, ToolResult};
use futures_util::future::{select, Either};
use std::rc::Rc;

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The message is not a valid JSON-RPC request.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters (an unknown tool among them).
pub const INVALID_PARAMS: i64 = -32602;

/// The protocol revisions this server speaks, newest first; `initialize` echoes the client's
/// when it is one of them, else offers the first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
/// [`PROTOCOL_VERSIONS`] as an error message lists them (written out: a `join` would cost the
/// module its generic joining code).
pub const PROTOCOL_VERSIONS_TEXT: &str = "2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05";

/// The advertised name when the profile gives none.
pub const DEFAULT_NAME: &str = "toolnexus";
/// The advertised version when the profile gives none.
pub const DEFAULT_VERSION: &str = "0.1.0";

pub use super::profile::{McpServeConfig, OnCallEvent};

/// The tools `config` exposes: all of them, or those named in `config.tools` (in the tools'
/// order; unknown names are ignored, never an error).
///
/// ```
/// # use toolnexus::core::serve::mcp::{exposed, McpServeConfig};
/// let config = McpServeConfig { tools: Some(vec!["nope".into()]), ..Default::default() };
/// assert!(exposed(Vec::new(), &config).is_empty());
/// ```
pub fn exposed(tools: Vec<SharedTool>, config: &McpServeConfig) -> Vec<SharedTool> {
    match &config.tools {
        None => tools,
        Some(wanted) => tools
            .into_iter()
            .filter(|t| wanted.contains(&t.spec().name))
            .collect(),
    }
}

/// Where a server's tools come from.
enum Tools {
    /// A list fixed when the server was built (`buildMcpServer(tools)`).
    Fixed(Vec<SharedTool>),
    /// A toolkit, read at each request (a tool registered later is served), narrowed to the
    /// names given.
    Live(Rc<Toolkit>, Option<Vec<String>>),
}

impl Tools {
    fn list(&self) -> Vec<SharedTool> {
        match self {
            Tools::Fixed(tools) => tools.clone(),
            Tools::Live(kit, wanted) => {
                let config = McpServeConfig {
                    tools: wanted.clone(),
                    ..McpServeConfig::default()
                };
                exposed(kit.tools(), &config)
            }
        }
    }

    fn find(&self, name: &str) -> Option<SharedTool> {
        match self {
            Tools::Fixed(tools) => tools.iter().find(|t| t.spec().name == name).cloned(),
            Tools::Live(kit, wanted) => match wanted {
                Some(wanted) if !wanted.iter().any(|w| w == name) => None,
                _ => kit.get(name),
            },
        }
    }
}

/// What one message came to: the reply to send (JSON text), if any, and the call to report.
#[derive(Debug, Default)]
pub struct Handled {
    /// The JSON-RPC response; `None` for a notification or a client's response.
    pub reply: Option<String>,
    /// The `onCall` event of a `tools/call` that reached its tool.
    pub call: Option<OnCallEvent>,
}

impl Handled {
    fn reply(text: String) -> Self {
        Handled {
            reply: Some(text),
            call: None,
        }
    }
}

/// A stateless MCP server over a set of tools: each message is answered on its own.
///
/// ```
/// # use toolnexus::core::serve::mcp::{McpServer, McpServeConfig};
/// let server = McpServer::new(Vec::new(), &McpServeConfig::default(), None);
/// let out = futures_executor::block_on(server.handle_text(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, None));
/// assert_eq!(out.reply.unwrap(), r#"{"jsonrpc":"2.0","id":1,"result":{}}"#);
/// ```
pub struct McpServer {
    tools: Tools,
    name: String,
    version: String,
    clock: Option<Rc<dyn Clock>>,
}

impl McpServer {
    /// A server over exactly `tools` (filter them first with [`exposed`]); `config` names it.
    /// `clock` times the calls for `onCall` and enforces a tool's time budget.
    pub fn new(
        tools: Vec<SharedTool>,
        config: &McpServeConfig,
        clock: Option<Rc<dyn Clock>>,
    ) -> Self {
        Self::with(Tools::Fixed(tools), config, clock)
    }

    /// A server over a toolkit's tools as they are at each request, narrowed by
    /// `config.tools`.
    pub fn over_toolkit(
        kit: Rc<Toolkit>,
        config: &McpServeConfig,
        clock: Option<Rc<dyn Clock>>,
    ) -> Self {
        Self::with(Tools::Live(kit, config.tools.clone()), config, clock)
    }

    fn with(tools: Tools, config: &McpServeConfig, clock: Option<Rc<dyn Clock>>) -> Self {
        McpServer {
            tools,
            name: config.name.clone().unwrap_or_else(|| DEFAULT_NAME.into()),
            version: config
                .version
                .clone()
                .unwrap_or_else(|| DEFAULT_VERSION.into()),
            clock,
        }
    }

    /// One message as JSON text; text that is not JSON is answered `-32700`.
    pub async fn handle_text(&self, text: &str, signal: Option<Signal>) -> Handled {
        self.handle_text_asking(text, signal, None).await
    }

    /// [`handle_text`](Self::handle_text) on a transport that can ask the client: a tool's
    /// suspension becomes an `elicitation/create` through `asker`.
    pub async fn handle_text_asking(
        &self,
        text: &str,
        signal: Option<Signal>,
        asker: Option<Rc<dyn Asker>>,
    ) -> Handled {
        match crate::core::json::parse::from_str(text) {
            Ok(message) => self.handle(message, signal, asker).await,
            Err(why) => Handled::reply(error_text(
                &Value::Null,
                PARSE_ERROR,
                &format!("Parse error: {why}"),
            )),
        }
    }

    /// One parsed message: a request gets its response; a notification (any
    /// `notifications/…`, `notifications/cancelled` included, which a stateless server cannot
    /// tie to a request) and a client's response get none.
    pub async fn handle(
        &self,
        message: Value,
        signal: Option<Signal>,
        asker: Option<Rc<dyn Asker>>,
    ) -> Handled {
        let Value::Object(mut map) = message else {
            let why = if matches!(message, Value::Array(_)) {
                "Invalid Request: a batch (JSON array) is not supported; send one message per request"
            } else {
                "Invalid Request: a JSON-RPC message is an object"
            };
            return Handled::reply(error_text(&Value::Null, INVALID_REQUEST, why));
        };
        let id = map.remove("id");
        let valid_id = matches!(id, None | Some(Value::String(_) | Value::Number(_)));
        let version_ok = matches!(map.get("jsonrpc"), Some(Value::String(v)) if v == "2.0");
        let method = match map.remove("method") {
            Some(Value::String(method)) => Some(method),
            None => None,
            Some(_) => return Handled::reply(invalid(id, "\"method\" must be a string")),
        };
        if !valid_id {
            return Handled::reply(invalid(None, "\"id\" must be a string or a number"));
        }
        if !version_ok {
            return Handled::reply(invalid(id, "\"jsonrpc\" must be \"2.0\""));
        }
        let (Some(method), Some(id)) = (method, id.clone()) else {
            let answer = map.contains_key("result") || map.contains_key("error");
            return match id {
                // A notification, or the client's answer to a request we never send.
                None => Handled::default(),
                Some(_) if answer => Handled::default(),
                Some(id) => Handled::reply(invalid(Some(id), "a request needs a \"method\"")),
            };
        };
        let params = map.remove("params").unwrap_or(Value::Null);
        self.request(&id, &method, params, signal, asker).await
    }

    async fn request(
        &self,
        id: &Value,
        method: &str,
        params: Value,
        signal: Option<Signal>,
        asker: Option<Rc<dyn Asker>>,
    ) -> Handled {
        match method {
            "initialize" => Handled::reply(result_text(id, &self.initialize(&params))),
            "ping" => Handled::reply(result_text(id, "{}")),
            "tools/list" => Handled::reply(result_text(id, &self.tool_list())),
            "tools/call" => self.call(id, params, signal, asker).await,
            other => Handled::reply(error_text(
                id,
                METHOD_NOT_FOUND,
                &format!("Method not found: {other}"),
            )),
        }
    }

    fn initialize(&self, params: &Value) -> String {
        let asked = params.get("protocolVersion").and_then(Value::as_str);
        let version = PROTOCOL_VERSIONS
            .iter()
            .find(|v| Some(**v) == asked)
            .unwrap_or(&PROTOCOL_VERSIONS[0]);
        let mut out = Vec::new();
        let mut result = Object::new(&mut out);
        result.str("protocolVersion", version);
        result.raw("capabilities", r#"{"tools":{}}"#);
        let info = result.key("serverInfo");
        let mut server = Object::new(info);
        server.str("name", &self.name);
        server.str("version", &self.version);
        server.end();
        result.end();
        buffer_text(out)
    }

    /// `{"tools":[{name, description, inputSchema}, ...]}`, each as the toolkit has it.
    fn tool_list(&self) -> String {
        let mut out = Vec::from(&br#"{"tools":["#[..]);
        for (at, tool) in self.tools.list().iter().enumerate() {
            if at > 0 {
                out.push(b',');
            }
            let spec = tool.spec();
            let mut entry = Object::new(&mut out);
            entry.str("name", &spec.name);
            entry.str("description", &spec.description);
            entry.raw("inputSchema", spec.input_schema.text());
            entry.end();
        }
        out.extend_from_slice(b"]}");
        buffer_text(out)
    }

    async fn call(
        &self,
        id: &Value,
        params: Value,
        signal: Option<Signal>,
        asker: Option<Rc<dyn Asker>>,
    ) -> Handled {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            let why = "Invalid params: tools/call needs a string \"name\"";
            return Handled::reply(error_text(id, INVALID_PARAMS, why));
        };
        let Some(tool) = self.tools.find(name) else {
            let why = format!("Unknown tool: {name}");
            return Handled::reply(error_text(id, INVALID_PARAMS, &why));
        };
        let args = match params {
            Value::Object(mut map) => map.remove("arguments").unwrap_or(Value::Null),
            _ => Value::Null,
        };
        let started = self.now();
        let ctx = Context {
            signal: signal.clone(),
            ..Context::default()
        };
        // Kept only where a suspension could be asked and the tool run again.
        let kept = asker.as_ref().map(|_| args.clone());
        let result = run_checked(tool.clone(), args, ctx, self.clock.clone()).await;
        let result = match pending_of(&result) {
            None => result,
            Some(request) => match (asker, kept) {
                (Some(asker), Some(args)) => {
                    let asked = self.ask(&tool, args, request, asker, signal);
                    Box::pin(asked).await
                }
                _ => ToolResult::error(unanswerable(&request)),
            },
        };
        let body = call_result(&result);
        let spec = tool.spec();
        Handled {
            reply: Some(result_text(id, &body)),
            call: Some(OnCallEvent {
                name: spec.name.clone(),
                source: spec.source.clone(),
                ms: (self.now() - started).max(0.0),
                is_error: suspended_or_failed(&result),
            }),
        }
    }

    fn now(&self) -> f64 {
        self.clock.as_ref().map_or(0.0, |c| c.now_ms())
    }

    /// The loop rule of SPEC §10 with the client as `waitFor`: ask, then run the tool again
    /// once with the checked answer (its id and `expiresAt`); a refusal is `declined/expired`,
    /// a second suspension `unresolved`.
    async fn ask(
        &self,
        tool: &SharedTool,
        args: Value,
        request: Request,
        asker: Rc<dyn Asker>,
        signal: Option<Signal>,
    ) -> ToolResult {
        let Some(params) = elicitation_params(&request, asker.modes()) else {
            return ToolResult::error(unanswerable(&request));
        };
        let asked = asker.ask(params);
        let raw = match &signal {
            None => asked.await,
            Some(signal) => match select(asked, signal.wait()).await {
                Either::Left((raw, _)) => raw,
                Either::Right(_) => return ToolResult::error("cancelled: the client went away"),
            },
        };
        let answer = answer_of(raw, &request.id).to_json_value();
        let clock: &dyn Clock = match &self.clock {
            Some(clock) => clock.as_ref(),
            None => &Epoch,
        };
        let answer = check_answer(&request, Ok(answer), clock);
        if !answer.ok {
            return ToolResult::error(format!("declined/expired: {}", request.prompt));
        }
        let ctx = Context {
            signal,
            answer: Some(answer),
            request: Some(request.clone()),
            ..Context::default()
        };
        let again = run_checked(tool.clone(), args, ctx, self.clock.clone()).await;
        if pending_of(&again).is_some() {
            return ToolResult::error(format!("unresolved: {}", request.prompt));
        }
        again
    }
}

/// The time of a server built without a clock: no request it asks about has expired.
struct Epoch;

impl Clock for Epoch {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _ms: f64) -> LocalBoxFuture<'static, ()> {
        Box::pin(std::future::pending())
    }
}

/// A suspension (`metadata.pending`) is never a success on the wire: the client reads its
/// prompt as an error result, as the reference's `pending()` results already are.
fn suspended_or_failed(result: &ToolResult) -> bool {
    result.is_error
        || result
            .metadata
            .as_ref()
            .is_some_and(|m| m.contains_key("pending"))
}

/// A `CallToolResult`: the output as one text block, then the tool's images and audio
/// carried as bytes (as MCP image / audio blocks) and parts by URL (as resource links).
///
/// ```
/// # use toolnexus::core::{serve::mcp::call_result, types::ToolResult};
/// assert_eq!(call_result(&ToolResult::ok("hi")), r#"{"content":[{"type":"text","text":"hi"}],"isError":false}"#);
/// ```
pub fn call_result(result: &ToolResult) -> String {
    let mut out = Vec::from(&br#"{"content":[{"type":"text","text":"#[..]);
    write_str(&mut out, &result.output);
    out.push(b'}');
    for part in result.parts.iter().flatten() {
        let mime = part
            .mime_type
            .as_deref()
            .unwrap_or("application/octet-stream");
        let block = match (part.kind.as_str(), &part.data, &part.url) {
            ("image" | "audio", Some(data), _) => Some((part.kind.as_str(), data.as_str())),
            (_, None, Some(_)) => Some(("resource_link", "")),
            _ => None,
        };
        let Some((kind, data)) = block else { continue };
        out.push(b',');
        let mut entry = Object::new(&mut out);
        entry.str("type", kind);
        if kind == "resource_link" {
            let uri = part.url.as_deref().unwrap_or_default();
            entry.str("uri", uri);
            entry.str("name", part.name.as_deref().unwrap_or(uri));
        } else {
            entry.str("data", data);
        }
        entry.str("mimeType", mime);
        entry.end();
    }
    out.extend_from_slice(br#"],"isError":"#);
    let failed: &[u8] = if suspended_or_failed(result) {
        b"true"
    } else {
        b"false"
    };
    out.extend_from_slice(failed);
    out.push(b'}');
    buffer_text(out)
}

/// `{"jsonrpc":"2.0","id":…,"result":…}` around a result's JSON text.
fn result_text(id: &Value, result: &str) -> String {
    let mut out = Vec::new();
    let mut message = Object::new(&mut out);
    message.str("jsonrpc", "2.0");
    write_value(message.key("id"), id);
    message.raw("result", result);
    message.end();
    buffer_text(out)
}

/// `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`.
///
/// ```
/// # use toolnexus::core::serve::mcp::error_text;
/// let text = error_text(&toolnexus::json!(null), -32700, "Parse error");
/// assert_eq!(text, r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#);
/// ```
pub fn error_text(id: &Value, code: i64, message: &str) -> String {
    let mut out = Vec::new();
    let mut envelope = Object::new(&mut out);
    envelope.str("jsonrpc", "2.0");
    write_value(envelope.key("id"), id);
    let mut error = Object::new(envelope.key("error"));
    write_value(error.key("code"), &Value::from(code));
    error.str("message", message);
    error.end();
    envelope.end();
    buffer_text(out)
}

fn invalid(id: Option<Value>, why: &str) -> String {
    let id = id.unwrap_or(Value::Null);
    error_text(&id, INVALID_REQUEST, &format!("Invalid Request: {why}"))
}
