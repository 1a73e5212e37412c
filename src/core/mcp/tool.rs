//! A listed MCP tool as a uniform `Tool` named `sanitize(server)_sanitize(tool)`, source
//! `"mcp"`, and the per-server `tools` filter. A call a 2026-07-28 server answers with
//! `input_required` is asked through the toolkit's `waitFor` and sent again, or becomes a
//! `pending` result (SPEC §10) whose retry carries the answer (`mrtr.rs`).

use crate::core::json::value::{Map, Value};
use futures_util::future::{select, Either};
use std::rc::Rc;

use super::content::to_tool_result;
use super::mrtr::{
    elicit_result, entry_request, input_required, round_request, InputRequired, Retry, MAX_ROUNDS,
};
use super::param_headers::{call_headers, param_headers, ParamHeader};
use super::session::{Session, ToolCall};
use super::transport::McpError;
use crate::core::host::{LocalBoxFuture, Signal};
use crate::core::spec::ToolSpec;
use crate::core::tool::{Context, Tool};
use crate::core::types::{pending, sanitize, Request, ToolResult};

/// Replaces every secret (expanded header values, environment values) with `[redacted]`.
#[derive(Debug, Default, Clone)]
pub struct Redactor(Vec<String>);

impl Redactor {
    /// Redacts these values, longest first.
    pub fn new(mut secrets: Vec<String>) -> Self {
        secrets.retain(|s| s.chars().count() >= 4);
        // Longest first; equal ones side by side for `dedup`.
        crate::core::sorting::sort_by(&mut secrets, &|a, b| {
            b.len().cmp(&a.len()).then_with(|| a.cmp(b))
        });
        secrets.dedup();
        Redactor(secrets)
    }

    /// `text` with every secret replaced.
    ///
    /// ```
    /// # use toolnexus::core::mcp::tool::Redactor;
    /// let r = Redactor::new(vec!["s3cret-token".into()]);
    /// assert_eq!(r.apply("bad token s3cret-token"), "bad token [redacted]");
    /// ```
    pub fn apply(&self, text: &str) -> String {
        self.0.iter().fold(text.to_owned(), |t, secret| {
            t.replace(secret.as_str(), "[redacted]")
        })
    }
}

/// A listed tool's name, description and input schema (an object schema, `properties`
/// always present); `None` for an entry without a name.
pub fn listed(def: &Value) -> Option<(String, String, Map<String, Value>)> {
    let name = def
        .get("name")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())?;
    let description = def.get("description").and_then(Value::as_str).unwrap_or("");
    let mut schema = match def.get("inputSchema") {
        Some(Value::Object(schema)) => schema.clone(),
        _ => Map::new(),
    };
    let properties = match schema.get("properties") {
        Some(Value::Object(p)) => Value::Object(p.clone()),
        _ => Value::Object(Map::new()),
    };
    schema.insert("type".into(), Value::String("object".into()));
    schema.insert("properties".into(), properties);
    Some((name.to_owned(), description.to_owned(), schema))
}

/// Keeps the listed tools the filter allows: no entries keep all; any `true` makes it an
/// allowlist; only `false` entries drop those. A name that matches no tool is a warning.
///
/// ```
/// # use toolnexus::core::mcp::tool::filter;
/// let defs = vec![toolnexus::json!({"name": "a"}), toolnexus::json!({"name": "b"})];
/// let kept = filter("srv", defs, &[("b".into(), true), ("zz".into(), true)], &mut Vec::new());
/// assert_eq!(kept.len(), 1);
/// ```
pub fn filter(
    server: &str,
    defs: Vec<Value>,
    tools: &[(String, bool)],
    warnings: &mut Vec<String>,
) -> Vec<Value> {
    if tools.is_empty() {
        return defs;
    }
    let name_of = |d: &Value| d.get("name").and_then(Value::as_str).map(str::to_owned);
    for (name, _) in tools {
        if !defs
            .iter()
            .any(|d| name_of(d).as_deref() == Some(name.as_str()))
        {
            warnings.push(format!(
                "server \"{server}\" tools filter name \"{name}\" matched no tool"
            ));
        }
    }
    let allowlist = tools.iter().any(|(_, on)| *on);
    let entry = |name: &str| tools.iter().find(|(n, _)| n == name).map(|(_, on)| *on);
    defs.into_iter()
        .filter(|d| {
            let found = name_of(d).and_then(|n| entry(&n));
            if allowlist {
                found == Some(true)
            } else {
                found != Some(false)
            }
        })
        .collect()
}

/// One remote tool.
pub struct McpTool {
    spec: ToolSpec,
    original: String,
    server: String,
    session: Rc<Session>,
    redactor: Rc<Redactor>,
    /// The arguments mirrored into `Mcp-Param-*` headers (2026-07-28 over HTTP).
    headers: Rc<[ParamHeader]>,
}

impl McpTool {
    /// The tool for listed definition `def` of `server`; `None` for an entry without a name,
    /// an error for one the client must reject (a bad `x-mcp-header` under 2026-07-28).
    pub fn new(
        server: &str,
        def: &Value,
        session: Rc<Session>,
        redactor: Rc<Redactor>,
    ) -> Option<Result<Self, String>> {
        let (original, description, mut schema) = listed(def)?;
        let headers = if session.is_modern() {
            match param_headers(&Value::Object(schema.clone())) {
                Ok(headers) => headers,
                Err(why) => return Some(Err(format!("tool \"{original}\" left out: {why}"))),
            }
        } else {
            Vec::new()
        };
        schema.insert("additionalProperties".into(), Value::Bool(false));
        let name = format!("{}_{}", sanitize(server), sanitize(&original));
        let spec = ToolSpec::new(name, description, Value::Object(schema), "mcp");
        Some(spec.map_err(|e| e.to_string()).map(|spec| McpTool {
            spec,
            original,
            server: server.to_owned(),
            session,
            redactor,
            headers: headers.into(),
        }))
    }
}

impl Tool for McpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let call = Call {
            session: self.session.clone(),
            name: self.original.clone(),
            server: self.server.clone(),
            headers: call_headers(&self.headers, &args),
            ms: ctx.timeout_ms.unwrap_or_else(|| self.session.timeout_ms()),
            signal: ctx.signal.clone(),
        };
        let redactor = self.redactor.clone();
        // The retry of a halted multi-round-trip input carries its answer.
        let retry = match (&ctx.request, &ctx.answer) {
            (Some(request), Some(answer)) => {
                Retry::resumed(&call.server, &call.name, request, answer)
            }
            _ => None,
        };
        Box::pin(async move {
            // The retry of a call that halted on a sign-in: its Answer finishes the sign-in
            // (unless the host finished it already with `mcpResume`, after a reload).
            if let (Some(answer), Some(request), Some(auth)) =
                (&ctx.answer, &ctx.request, call.session.auth())
            {
                let state = request
                    .data
                    .as_ref()
                    .and_then(|d| d.get("state"))
                    .and_then(Value::as_str);
                if let (true, Some(state)) = (request.kind == "authorization", state) {
                    if let Err(why) = signed_in(auth, answer, state).await {
                        return failed(
                            &redactor.apply(&format!("authorization failed: {why}")),
                            call.server,
                        );
                    }
                }
            }
            match call.rounds(args, retry).await {
                Ok(result) => result,
                Err(error) => failed(&redactor.apply(&error), call.server),
            }
        })
    }
}

/// Finishes the sign-in a halted call's Answer carries. A flow no longer kept under its
/// `state` while the server holds a token was finished already (`mcpResume` after a reload):
/// the call goes on with that token.
async fn signed_in(
    auth: &crate::core::mcp::auth::Authorizer,
    answer: &crate::core::types::Answer,
    state: &str,
) -> Result<(), String> {
    if auth.flow_server(state).await.is_none() && auth.header().is_some() {
        return Ok(());
    }
    let answer = crate::core::json::record::Record::to_json_value(answer);
    auth.resume(&answer, Some(state)).await
}

/// An error result naming its server.
fn failed(message: &str, server: String) -> ToolResult {
    let mut failed = ToolResult::error(message.to_owned());
    let mut metadata = Map::new();
    metadata.insert("server".into(), Value::String(server));
    failed.metadata = Some(metadata);
    failed
}

/// One tool call, through as many input rounds as the server asks for.
struct Call {
    session: Rc<Session>,
    name: String,
    server: String,
    headers: Vec<(String, String)>,
    ms: f64,
    signal: Option<Signal>,
}

impl Call {
    /// A round of several forms as one Request (`None` when one of them is a URL: that round
    /// halts on its first entry, its retry asked for the rest).
    fn whole_round(&self, asked: &InputRequired, now: f64) -> Result<Option<Request>, String> {
        let state = asked.state.as_deref();
        let mut entries = Vec::new();
        for (key, entry) in &asked.requests {
            let request = entry_request(&self.server, &self.name, key, entry, state, now)?;
            if request.kind != "input" {
                return Ok(None);
            }
            entries.push((key.clone(), request));
        }
        Ok(Some(round_request(
            &self.server,
            &self.name,
            &entries,
            state,
        )))
    }

    async fn rounds(&self, args: Value, mut retry: Option<Retry>) -> Result<ToolResult, String> {
        for _ in 0..MAX_ROUNDS {
            let call = ToolCall {
                retry: retry.take(),
                headers: self.headers.clone(),
                signal: self.signal.clone(),
                ms: self.ms,
            };
            let result = match self.session.call_tool(&self.name, args.clone(), call).await {
                Ok(result) => result,
                // No waitFor: the call halts on the sign-in (SPEC §10), durably.
                Err(McpError::AuthPending(request)) => return Ok(pending(*request)),
                Err(error) => return Err(error.to_string()),
            };
            let Some(asked) = input_required(&result) else {
                return Ok(to_tool_result(&result, &self.server));
            };
            let now = self.session.clock_now();
            let mut next = Retry {
                responses: Map::new(),
                state: asked.state.clone(),
            };
            if asked.requests.len() > 1 && !self.session.can_ask() {
                if let Some(round) = self.whole_round(&asked, now)? {
                    // No `waitFor`: the round's forms halt as one Request (SPEC §10).
                    return Ok(pending(round));
                }
            }
            for (key, entry) in &asked.requests {
                let request = entry_request(
                    &self.server,
                    &self.name,
                    key,
                    entry,
                    asked.state.as_deref(),
                    now,
                )?;
                let Some(asking) = self.session.ask(&request) else {
                    // No `waitFor` on the toolkit: the run's loop asks, or halts (SPEC §10).
                    return Ok(pending(request));
                };
                let answer = match &self.signal {
                    Some(signal) => match select(asking, signal.wait()).await {
                        Either::Left((answer, _)) => answer,
                        Either::Right(_) => return Err(format!("aborted: {}", signal.reason())),
                    },
                    None => asking.await,
                };
                next.responses
                    .insert(key.clone(), elicit_result(&request, answer));
            }
            retry = Some(next);
        }
        Err(format!(
            "MCP server \"{}\" still asked for input after {MAX_ROUNDS} rounds; the call was given up",
            self.server
        ))
    }
}
