//! `outcome`: the tags the Rust side reads are the ones `shim.js` writes, name for name.

use toolnexus::js::outcome::{shim_tags, Outcome, Tag};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::support::js;

#[wasm_bindgen_test]
fn every_tag_has_the_shim_number_of_its_name() {
    let shim = shim_tags();
    let names = js_sys::Object::keys(shim.unchecked_ref::<js_sys::Object>());
    assert_eq!(
        names.length() as usize,
        Tag::ALL.len(),
        "the shim has a tag the Rust side lacks"
    );
    for (tag, name) in Tag::ALL {
        let number = js_sys::Reflect::get(&shim, &name.into()).unwrap();
        assert_eq!(number.as_f64(), Some(f64::from(tag as u8)), "{name}");
    }
}

#[wasm_bindgen_test]
fn an_outcome_is_read_by_its_tag() {
    let outcome = Outcome(js("[8, 'done', true]"));
    assert_eq!(outcome.tag(), Some(Tag::ToolResult));
    assert_eq!(outcome.part(1).as_string().as_deref(), Some("done"));
    assert!(outcome.part(3).is_undefined());
    assert_eq!(Outcome(js("'text'")).tag(), None);
    assert_eq!(Outcome(js("[99]")).tag(), None);
}
