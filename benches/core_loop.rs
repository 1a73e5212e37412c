//! The agent loop's own cost, natively: scenario 1 of the bench (one question, two parallel tool
//! calls, then the answer) through the pure core (`core::bench_loop`: the bench endpoint's
//! bytes, tools that answer at once). No JS, no wasm: what is left is the core's parsing, body
//! building, tool dispatch, metrics and result.
//!
//! ```sh
//! cargo bench --features bench-core --bench core_loop   # µs per run (wall clock: noisy here)
//! bash bench/tools/core-instructions.sh                 # instructions per run: repeatable
//! ```
//! `N` runs are timed after `W` warm-up runs (defaults 20,000 and 2,000); every run is checked.

use std::time::Instant;
use toolnexus::core::bench_loop::Scenario;

fn env_or(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> Result<(), String> {
    let scenario = Scenario::new()?;
    for _ in 0..env_or("W", 2_000) {
        scenario.run_once()?;
    }
    let n = env_or("N", 20_000).max(1);
    let start = Instant::now();
    for _ in 0..n {
        scenario.run_once()?;
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    println!("core loop, scenario 1 (k2t1), native: {us:.2} µs per run over {n} runs");
    Ok(())
}
