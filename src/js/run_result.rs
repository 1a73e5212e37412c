//! A run's result as a JS object. The small fields cross at once; `messages` and `toolCalls`
//! cross as JSON text that JavaScript parses only when they are first read, so a caller that
//! reads `text` and `status` never pays for turning the transcript into JS objects.

use wasm_bindgen::prelude::*;

use crate::core::client::result::RunResult;

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// See `shim.js`: the result object, its two lists parsed on first read.
    #[wasm_bindgen(js_name = runResult)]
    fn shim_run_result(
        text: &str,
        messages: String,
        tool_calls: String,
        history: Option<JsValue>,
        counts: &[f64],
        model: &str,
        status: &str,
        extra: Option<String>,
    ) -> JsValue;
}

/// `result` as the plain JS object `run` resolves to; `history` (a JS string: the JSON text of
/// the items of the history the run continued) goes before the run's own messages.
///
/// ```ignore
/// let value = run_result(&result, None); // { text, messages, toolCalls, toolCallCount, … }
/// ```
pub fn run_result(result: &RunResult, history: Option<&JsValue>) -> JsValue {
    let parts = result.to_json_parts();
    let usage = &result.usage;
    let counts = [
        result.tool_call_count as f64,
        f64::from(result.turns),
        usage.prompt_tokens as f64,
        usage.completion_tokens as f64,
        usage.total_tokens as f64,
    ];
    shim_run_result(
        &result.text,
        parts.messages,
        parts.tool_calls,
        history.cloned(),
        &counts,
        &result.model,
        result.status.as_str(),
        parts.extra,
    )
}
