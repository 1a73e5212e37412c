//! The shared conformance fixture, read at run time: the registry renders
//! `../shared/conformance/metrics/golden.prom` byte for byte for its three events, and the
//! project's pinned copy still equals it. Skips (saying so) where the fixture is not checked out.
#![allow(clippy::unwrap_used)]

mod common;

use common::golden::{conformance_events, GOLDEN};
use std::path::PathBuf;
use toolnexus::core::client::telemetry::Telemetry;
use toolnexus::core::metrics::Registry;

fn fixture() -> Option<String> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/metrics/golden.prom");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!("SKIP metrics conformance: {} is not readable ({e}); only the pinned copy is checked", path.display());
            None
        }
    }
}

#[test]
fn the_registry_renders_the_shared_golden_text_byte_for_byte() {
    let mut registry = Registry::default();
    for event in conformance_events() {
        registry.record(&event);
    }
    let rendered = registry.render();
    assert_eq!(rendered, GOLDEN, "against the pinned copy");
    let Some(golden) = fixture() else { return };
    assert_eq!(
        rendered.as_bytes(),
        golden.as_bytes(),
        "against golden.prom:\n{rendered}"
    );
}

#[test]
fn the_pinned_copy_is_still_the_shared_fixture() {
    let Some(golden) = fixture() else { return };
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
