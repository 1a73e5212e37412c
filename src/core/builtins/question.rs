//! `question` (asks the human through a suspension, SPEC §10) and `todowrite`.

use crate::core::json::value::{Map, Value};
use crate::core::text::JoinWith;

use super::args::js_join_item;
use super::tool::{ok_with, Builtin};
use super::IdMaker;
use crate::core::types::{pending, Request, ToolResult};

/// The prompt of a `question` suspension, byte-identical across ports: each question's text,
/// with ` (options: a, b, c)` when it has options, joined by `\n`; `header` is not rendered.
///
/// ```
/// # use toolnexus::core::builtins::render_questions;
/// let qs = toolnexus::json!([
///     {"question": "Which color?", "header": "Color", "options": ["red", "blue"]},
///     {"question": "Why?", "options": []}
/// ]);
/// assert_eq!(render_questions(qs.as_array().unwrap()), "Which color? (options: red, blue)\nWhy?");
/// ```
pub fn render_questions(questions: &[Value]) -> String {
    let lines: Vec<String> = questions
        .iter()
        .map(|q| {
            let mut line = q
                .get("question")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let options = q.get("options").and_then(Value::as_array);
            if let Some(options) = options.filter(|o| !o.is_empty()) {
                let items: Vec<String> = options.iter().map(js_join_item).collect();
                line.push_str(&format!(" (options: {})", items.join_with(", ")));
            }
            line
        })
        .collect();
    lines.join_with("\n")
}

/// `question {questions}`: the first call suspends with `kind: "question"`; the retry with
/// `ctx.answer` returns the answer's `data` as JSON text.
pub fn question(ids: IdMaker) -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "questions": {
                "type": "array",
                "description": "Questions to ask",
                "items": {
                    "type": "object",
                    "properties": {
                        "question": {"type": "string"},
                        "header": {"type": "string"},
                        "options": {"type": "array", "items": {"type": "string"}},
                        "multiple": {"type": "boolean"}
                    },
                    "required": ["question"]
                }
            }
        },
        "required": ["questions"],
        "additionalProperties": false
    }"#;
    let description = "Asks the user one or more questions (optionally with choices) and \
                       waits for the answers, which come back as JSON.";
    Builtin::new("question", description, schema, move |args, ctx| {
        let result = match ctx.answer {
            Some(answer) => {
                let data = Value::Object(answer.data.unwrap_or_default());
                ToolResult::ok(crate::core::json::text::to_text(&data))
            }
            None => {
                let questions = args.get("questions").and_then(Value::as_array);
                let questions = questions.cloned().unwrap_or_default();
                let mut data = Map::new();
                let prompt = render_questions(&questions);
                data.insert("questions".into(), Value::Array(questions));
                pending(Request {
                    id: ids(),
                    kind: "question".into(),
                    prompt,
                    url: None,
                    data: Some(data),
                    expires_at: None,
                })
            }
        };
        Box::pin(async move { Ok(result) })
    })
}

/// `todowrite {todos}`: replaces the todo list and renders it as `[x] text` / `[ ] text` lines
/// (`(no todos)` when empty). Nothing is kept between calls.
pub fn todowrite() -> Builtin {
    let schema = r#"{
        "type": "object",
        "properties": {
            "todos": {
                "type": "array",
                "description": "The full todo list to store",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "text": {"type": "string"},
                        "completed": {"type": "boolean"}
                    },
                    "required": ["id", "text", "completed"]
                }
            }
        },
        "required": ["todos"],
        "additionalProperties": false
    }"#;
    let description = "Replaces the current todo list with the given items and shows it back \
                       as a checklist.";
    Builtin::new("todowrite", description, schema, move |args, _ctx| {
        let todos = args.get("todos").and_then(Value::as_array);
        let todos = todos.cloned().unwrap_or_default();
        let lines: Vec<String> = todos
            .iter()
            .map(|t| {
                let done = truthy(t.get("completed"));
                let text = t.get("text").map(js_join_item).unwrap_or_default();
                format!("[{}] {text}", if done { "x" } else { " " })
            })
            .collect();
        let rendered = if lines.is_empty() {
            "(no todos)".to_owned()
        } else {
            lines.join_with("\n")
        };
        let result = ok_with(rendered, crate::json_value!({"todos": todos}));
        Box::pin(async move { Ok(result) })
    })
}

/// JavaScript truthiness of a JSON value (`undefined` is `None`).
fn truthy(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0 && !n.is_nan()),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}
