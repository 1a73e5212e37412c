//! [`Builtin`]: a built-in tool as a spec plus an async function. A function's `Err(message)`
//! becomes the error result `<name>: <message>`, so no failure ever escapes as anything else.

use crate::core::json::value::Value;

use crate::core::host::LocalBoxFuture;
use crate::core::input_schema::InputSchema;
use crate::core::spec::{empty_schema, ToolSpec};
use crate::core::tool::{Context, Tool};
use crate::core::types::ToolResult;

type Run = Box<dyn Fn(Value, Context) -> LocalBoxFuture<'static, Result<ToolResult, String>>>;

/// One built-in tool.
///
/// ```
/// use toolnexus::core::builtins::Builtin;
/// use toolnexus::core::tool::Tool;
/// let t = Builtin::new("fail", "Always fails", r#"{"type": "object"}"#,
///     |_args, _ctx| Box::pin(async { Err("nope".to_owned()) }));
/// let r = futures_executor::block_on(t.execute(toolnexus::json!({}), Default::default()));
/// assert_eq!((r.output.as_str(), r.is_error, t.spec().source.as_str()), ("fail: nope", true, "builtin"));
/// ```
pub struct Builtin {
    spec: ToolSpec,
    run: Run,
}

impl Builtin {
    /// A tool of source `"builtin"`. `name` must already be a valid tool name; `input_schema`
    /// is JSON text (kept as text: it is far smaller in the module than code that builds it).
    pub fn new(
        name: &str,
        description: &str,
        input_schema: &str,
        run: impl Fn(Value, Context) -> LocalBoxFuture<'static, Result<ToolResult, String>> + 'static,
    ) -> Self {
        let input_schema = InputSchema::from_json_text(input_schema).unwrap_or_else(|| {
            crate::core::json::parse::from_str(input_schema)
                .unwrap_or_else(|_| empty_schema())
                .into()
        });
        let spec = ToolSpec {
            name: name.to_owned(),
            description: description.to_owned(),
            input_schema,
            source: "builtin".to_owned(),
        };
        Builtin {
            spec,
            run: Box::new(run),
        }
    }
}

impl Tool for Builtin {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn execute(&self, args: Value, ctx: Context) -> LocalBoxFuture<'static, ToolResult> {
        let name = self.spec.name.clone();
        let args = if args.is_null() {
            Value::Object(Default::default())
        } else {
            args
        };
        let run = (self.run)(args, ctx);
        Box::pin(async move {
            match run.await {
                Ok(result) => result,
                Err(message) => ToolResult::error(format!("{name}: {message}")),
            }
        })
    }
}

/// A successful result with metadata.
pub fn ok_with(output: impl Into<String>, metadata: Value) -> ToolResult {
    ToolResult {
        metadata: metadata.as_object().cloned(),
        ..ToolResult::ok(output)
    }
}

/// A failed result with metadata.
pub fn err_with(output: impl Into<String>, metadata: Value) -> ToolResult {
    ToolResult {
        metadata: metadata.as_object().cloned(),
        ..ToolResult::error(output)
    }
}
