//! A listed MCP tool as a uniform `Tool` named `sanitize(server)_sanitize(tool)`, source
//! `"mcp"`, and the per-server `tools` filter.

use crate::core::json::value::{Map, Value};
use std::rc::Rc;

use super::content::to_tool_result;
use super::session::Session;
use super::transport::McpError;
use crate::core::host::LocalBoxFuture;
use crate::core::spec::ToolSpec;
use crate::core::tool::{Context, Tool};
use crate::core::types::{sanitize, ToolResult};

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
}

impl McpTool {
    /// The tool for listed definition `def` of `server`; `None` for an entry without a name.
    pub fn new(
        server: &str,
        def: &Value,
        session: Rc<Session>,
        redactor: Rc<Redactor>,
    ) -> Option<Result<Self, String>> {
        let (original, description, mut schema) = listed(def)?;
        schema.insert("additionalProperties".into(), Value::Bool(false));
        let name = format!("{}_{}", sanitize(server), sanitize(&original));
        let spec = ToolSpec::new(name, description, Value::Object(schema), "mcp");
        Some(spec.map_err(|e| e.to_string()).map(|spec| McpTool {
            spec,
            original,
            server: server.to_owned(),
            session,
            redactor,
        }))
    }
}

impl Tool for McpTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let (session, name, server) = (
            self.session.clone(),
            self.original.clone(),
            self.server.clone(),
        );
        let redactor = self.redactor.clone();
        let ms = ctx.timeout_ms.unwrap_or_else(|| session.timeout_ms());
        Box::pin(async move {
            // The retry of a call that halted on a sign-in: its Answer finishes the sign-in.
            if let (Some(answer), Some(request), Some(auth)) =
                (&ctx.answer, &ctx.request, session.auth())
            {
                if request.kind == "authorization" {
                    let state = request
                        .data
                        .as_ref()
                        .and_then(|d| d.get("state"))
                        .and_then(Value::as_str);
                    let answer = crate::core::json::record::Record::to_json_value(answer);
                    // A sign-in finished already (by `mcpResume` after a reload, its flow used)
                    // left a token in place: the call goes on with it.
                    let finished = auth.resume(&answer, state).await;
                    if let (Err(why), None) = (finished, auth.header()) {
                        return failed(
                            &redactor.apply(&format!("authorization failed: {why}")),
                            server,
                        );
                    }
                }
            }
            match session.call_tool(&name, args, ctx.signal, ms).await {
                Ok(result) => to_tool_result(&result, &server),
                // No waitFor: the call halts on the sign-in (SPEC §10), durably.
                Err(McpError::AuthPending(request)) => crate::core::types::pending(*request),
                Err(error) => failed(&redactor.apply(&error.to_string()), server),
            }
        })
    }
}

/// An error result naming its server.
fn failed(message: &str, server: String) -> ToolResult {
    let mut failed = ToolResult::error(message.to_owned());
    let mut metadata = Map::new();
    metadata.insert("server".into(), Value::String(server));
    failed.metadata = Some(metadata);
    failed
}
