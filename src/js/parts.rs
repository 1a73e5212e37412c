//! Content parts at the boundary: the facade's `image`, `file`, `audio` and `part` build and
//! check parts here, where bytes are base64-encoded once (`core::parts::make`).

use wasm_bindgen::prelude::*;

use super::convert::{get, js_error, record_to_js, set, to_json, type_name};
use crate::core::parts::make::{self, Options};
use crate::core::parts::{ContentPart, PartError};

fn part_error(what: &str, error: PartError) -> JsValue {
    js_error(error.code(), &format!("{what}: {error}"))
}

/// An image, file or audio part (`kind`) from bytes (copied into the module once), a byte
/// count (the part checked and typed but without `data`, for a facade that encodes the bytes
/// with the platform's base64) or a string (a `data:` or `http(s):` URL); `fileName` (a
/// `File`'s, a path's) names it and, without `options.mimeType`, gives its MIME type through
/// the extension table. For the facade's `image`, `file` and `audio`.
///
/// ```js
/// __makePart("image", bytes, "shot.png", { maxPartBytes: 5_000_000 })
/// ```
#[wasm_bindgen(js_name = __makePart, unchecked_return_type = "ContentPart")]
pub fn make_part(
    kind: &str,
    #[wasm_bindgen(unchecked_param_type = "Uint8Array | number | string")] source: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | undefined")] file_name: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PartOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let mime_type = get(&options, "mimeType").as_string();
    let name = get(&options, "name").as_string();
    let limit = get(&options, "maxPartBytes").as_f64();
    if let Some(limit) = limit.filter(|l| !(l.is_finite() && *l >= 0.0)) {
        // JavaScript's text of the number (a float's Display would pull Rust's float formatting in).
        let got = crate::core::jsfmt::number(limit);
        let message = format!("{kind}: maxPartBytes must be a non-negative number, got {got}");
        return Err(js_error("invalid_options", &message));
    }
    let options = Options {
        mime_type: mime_type.as_deref(),
        name: name.as_deref(),
        // A limit is a whole number of bytes: a fraction rounds down.
        max_part_bytes: limit.map(|l| l as usize),
    };
    let made = match (source.as_string(), source.as_f64()) {
        (Some(text), _) => make::from_string(kind, &text, &options),
        (None, Some(size)) => {
            let file_name = file_name.as_string();
            make::from_named_size(kind, size as usize, file_name.as_deref(), &options)
        }
        (None, None) => {
            let bytes = js_sys::Uint8Array::new(&source).to_vec();
            let file_name = file_name.as_string();
            make::from_named_bytes(kind, &bytes, file_name.as_deref(), &options)
        }
    };
    Ok(part_object(&made.map_err(|e| part_error(kind, e))?))
}

/// A part as a plain object, its fields set one by one: a large part's base64 crosses once as
/// a string, with no JSON text to write and parse around it (bench/tools/parts-10mb.mjs).
fn part_object(part: &ContentPart) -> JsValue {
    let object: JsValue = js_sys::Object::new().into();
    set(&object, "type", &JsValue::from_str(&part.kind));
    let fields = [
        ("text", &part.text),
        ("mimeType", &part.mime_type),
        ("data", &part.data),
        ("url", &part.url),
        ("name", &part.name),
    ];
    for (key, value) in fields {
        if let Some(value) = value {
            set(&object, key, &JsValue::from_str(value));
        }
    }
    object
}

/// A part from its fields, checked (SPEC §1B) and in its canonical form: the facade's `part`.
///
/// ```js
/// __checkPart({ type: "image", mimeType: "image/png", url: "https://example.com/a.png" })
/// ```
#[wasm_bindgen(js_name = __checkPart, unchecked_return_type = "ContentPart")]
pub fn check_part(
    #[wasm_bindgen(unchecked_param_type = "ContentPart")] fields: JsValue,
) -> Result<JsValue, JsValue> {
    let json = to_json(&fields).map_err(|why| js_error("invalid_part", &format!("part: {why}")))?;
    if !json.is_object() {
        let message = format!(
            "part: expected {{type, text?, mimeType?, data?, url?, name?}}, got {}",
            type_name(&fields)
        );
        return Err(js_error("invalid_part", &message));
    }
    let part = ContentPart::from_json(json)
        .map_err(|why| js_error("invalid_part", &format!("part: {why}")))?;
    part.validate().map_err(|e| part_error("part", e))?;
    record_to_js(&part)
}
