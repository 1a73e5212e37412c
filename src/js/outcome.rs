//! The outcomes the shim's crossings hand back (`shim.js`): `[tag, ...parts]` arrays whose tag
//! is one of [`Tag`], the same names and numbers as `OUTCOME` in `shim.js`
//! (`tests/wasm/outcome.rs` checks the two agree). Reading one goes through [`Outcome`], the
//! one place that takes such an array apart.

use super::convert::item;
use wasm_bindgen::prelude::*;

/// What an outcome array says happened; `OUTCOME` in `shim.js` gives the same numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// A value: a chunk, a tool's return value. `[VALUE, value]`
    Value = 0,
    /// The call threw or its promise rejected. `[THREW, thrown]`
    Threw = 1,
    /// A response other than a plain 200. `[RESPONSE, status, retryAfter?, text]`
    Response = 2,
    /// Reading the response body failed. `[BODY_FAILED, thrown]`
    BodyFailed = 3,
    /// `fetch` gave something that is not a `Response`. `[NOT_A_RESPONSE]`
    NotAResponse = 4,
    /// A body reader is done. `[DONE]`
    Done = 5,
    /// A body has no reader with `read()`. `[NO_READER]`
    NoReader = 6,
    /// A reader's `read()` gave no `{done, value}` object. `[NOT_A_STEP]`
    NotAStep = 7,
    /// A plain `ToolResult` without metadata. `[TOOL_RESULT, output, isError]`
    ToolResult = 8,
}

impl Tag {
    /// Every tag with the name `shim.js` gives it.
    pub const ALL: [(Tag, &'static str); 9] = [
        (Tag::Value, "VALUE"),
        (Tag::Threw, "THREW"),
        (Tag::Response, "RESPONSE"),
        (Tag::BodyFailed, "BODY_FAILED"),
        (Tag::NotAResponse, "NOT_A_RESPONSE"),
        (Tag::Done, "DONE"),
        (Tag::NoReader, "NO_READER"),
        (Tag::NotAStep, "NOT_A_STEP"),
        (Tag::ToolResult, "TOOL_RESULT"),
    ];
}

/// An outcome array the shim gave.
///
/// ```ignore
/// let outcome = Outcome(slot.await);
/// match outcome.tag() { Some(Tag::Value) => use(outcome.part(1)), _ => fail(outcome.part(1)) }
/// ```
pub struct Outcome(pub JsValue);

impl Outcome {
    /// The tag, or `None` when the value is no outcome array (a plain string outcome).
    pub fn tag(&self) -> Option<Tag> {
        let number = item(&self.0, 0).as_f64()?;
        Tag::ALL
            .iter()
            .find(|(tag, _)| f64::from(*tag as u8) == number)
            .map(|(tag, _)| *tag)
    }

    /// Part `i` of the array (`undefined` when it has none).
    pub fn part(&self, i: u32) -> JsValue {
        item(&self.0, i)
    }
}

#[wasm_bindgen(module = "/src/js/shim.js")]
extern "C" {
    /// `OUTCOME` of `shim.js` (the tags by name), for the test that holds it against
    /// [`Tag::ALL`].
    #[wasm_bindgen(js_name = outcomeTags)]
    pub fn shim_tags() -> JsValue;
}
