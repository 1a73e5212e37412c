//! The shared conformance fixture, read at run time: the registry renders
//! `../shared/conformance/metrics/golden.prom` byte for byte for its three events, and the
//! project's pinned copy still equals it. Without `../shared/conformance` the tests that read it
//! are ignored (`build.rs`), and only the pinned copy is checked.
#![allow(clippy::unwrap_used, clippy::panic)]

use crate::common;

use common::golden::{conformance_events, GOLDEN};
use std::path::PathBuf;
use toolnexus::core::client::telemetry::Telemetry;
use toolnexus::core::metrics::Registry;

fn fixture() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/metrics/golden.prom");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} is not readable: {e}", path.display()))
}

fn rendered() -> String {
    let mut registry = Registry::default();
    for event in conformance_events() {
        registry.record(&event);
    }
    registry.render()
}

#[test]
fn the_registry_renders_the_pinned_golden_text_byte_for_byte() {
    assert_eq!(rendered(), GOLDEN, "against the pinned copy");
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn the_registry_renders_the_shared_golden_text_byte_for_byte() {
    let rendered = rendered();
    let golden = fixture();
    assert_eq!(
        rendered.as_bytes(),
        golden.as_bytes(),
        "against golden.prom:\n{rendered}"
    );
}

#[test]
#[cfg_attr(
    not(shared_conformance),
    ignore = "../shared/conformance is not beside the project"
)]
fn the_pinned_copy_is_still_the_shared_fixture() {
    let golden = fixture();
    assert_eq!(
        GOLDEN, golden,
        "shared/conformance/metrics/golden.prom changed: update tests/common/golden.rs"
    );
    assert!(golden.ends_with('\n') && !golden.ends_with("\n\n"));
}

#[test]
fn telemetry_renders_the_same_text_as_its_registry() {
    let telemetry = Telemetry::default();
    for event in conformance_events() {
        telemetry.emit(event);
    }
    assert_eq!(telemetry.render(), GOLDEN);
}
