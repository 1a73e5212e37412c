//! JSON, all of it: the crate's value type, the parser, the reader that walks text without
//! building a value, the writer, building values without serde, and the contract's records
//! declared once. The wasm module links no serde_json; `tests/units` holds each piece
//! against serde_json (differential property tests).
//!
//! ```
//! use toolnexus::core::json::{parse, text};
//! let value = parse::from_str(r#"{ "a": [1, 2.5, "x"] }"#).unwrap();
//! assert_eq!(text::to_text(&value), r#"{"a":[1,2.5,"x"]}"#);
//! ```

pub mod build;
pub mod parse;
pub mod record;
pub mod scan;
pub mod text;
pub mod value;
