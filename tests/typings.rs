//! The generated TypeScript of the contract's records (`src/ts/core/records.ts`,
//! `src/ts/records.ts`) is what their declarations say today. Run with
//! `UPDATE_TYPINGS=1` to rewrite the files after changing a record.
#![allow(clippy::unwrap_used, clippy::panic)]

use std::path::Path;

fn check(file: &str, full: bool) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/ts")
        .join(file);
    let generated = toolnexus::core::contract::typescript(full);
    if std::env::var_os("UPDATE_TYPINGS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != generated {
        panic!(
            "{} is stale: run `UPDATE_TYPINGS=1 cargo test --test units typings` and commit it",
            path.display()
        );
    }
}

#[test]
fn lean_records_typescript_is_current() {
    check("core/records.ts", false);
}

#[test]
fn full_records_typescript_is_current() {
    check("records.ts", true);
}
