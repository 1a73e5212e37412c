//! `__benchCoreLoop(n)`: scenario 1 run `n` times inside wasm with no JS in the loop (see
//! `core::bench_loop`). Only in builds with the `bench-core` feature, never in the package;
//! the bench times it beside the same loop natively and through the JS API.
//!
//! ```js
//! const t = performance.now(); __benchCoreLoop(10000); const usPerRun = (performance.now() - t) * 100
//! ```

use wasm_bindgen::prelude::*;

use crate::core::bench_loop::Scenario;

thread_local! {
    /// The scenario, made on the first call and kept: a call of one run times the run alone,
    /// as the JS API's client and toolkit are made once too.
    static SCENARIO: std::cell::RefCell<Option<Scenario>> = const { std::cell::RefCell::new(None) };
}

/// Runs scenario 1 `n` times; throws the first run's error, if any.
#[wasm_bindgen(js_name = "__benchCoreLoop")]
pub fn bench_core_loop(n: u32) -> Result<(), JsError> {
    SCENARIO.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Some(Scenario::new().map_err(|e| JsError::new(&e))?);
        }
        let Some(scenario) = slot.as_ref() else {
            return Ok(());
        };
        for _ in 0..n {
            scenario.run_once().map_err(|e| JsError::new(&e))?;
        }
        Ok(())
    })
}
