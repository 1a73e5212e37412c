//! `__benchCoreLoop(n)`: scenario 1 run `n` times inside wasm with no JS in the loop (see
//! `core::bench_loop`). Only in builds with the `bench-core` feature, never in the package;
//! the bench times it beside the same loop natively and through the JS API.
//!
//! ```js
//! const t = performance.now(); __benchCoreLoop(10000); const usPerRun = (performance.now() - t) * 100
//! ```

use wasm_bindgen::prelude::*;

use crate::core::bench_loop::Scenario;

/// Runs scenario 1 `n` times; throws the first run's error, if any.
#[wasm_bindgen(js_name = "__benchCoreLoop")]
pub fn bench_core_loop(n: u32) -> Result<(), JsError> {
    let scenario = Scenario::new().map_err(|e| JsError::new(&e))?;
    for _ in 0..n {
        scenario.run_once().map_err(|e| JsError::new(&e))?;
    }
    Ok(())
}
