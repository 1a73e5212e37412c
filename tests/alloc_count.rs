//! Heap allocations per steady-state run of scenario 1 (`core::bench_loop`), natively: a
//! counting global allocator around `System` (it applies to this whole test binary, hence its
//! own root). With the wasm allocator `talc`, alloc/dealloc is ~5 % of the scenario's profile,
//! so a change that makes a run allocate more fails here rather than in a timing.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use toolnexus::core::bench_loop::Scenario;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Whether this thread's allocations count: only the measuring thread's do, so the test
    /// harness's own threads cannot add to a run's count.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to `System` unchanged; the counter only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations (alloc, alloc_zeroed and realloc calls) per run, averaged over `RUNS` runs after
/// `WARM_UP` (the request cache and the metrics registry's series exist by then).
fn allocations_per_run() -> Result<f64, String> {
    const WARM_UP: u32 = 10;
    const RUNS: u32 = 100;
    let scenario = Scenario::new()?;
    for _ in 0..WARM_UP {
        scenario.run_once()?;
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|counting| counting.set(true));
    let runs = (0..RUNS).try_for_each(|_| scenario.run_once());
    COUNTING.with(|counting| counting.set(false));
    runs?;
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    Ok((after - before) as f64 / f64::from(RUNS))
}

#[test]
fn scenario_1_allocations_per_run() -> Result<(), String> {
    let per_run = allocations_per_run()?;
    println!("scenario 1: {per_run} allocations per run");
    // What this test measures (`cargo test --features bench-core --test alloc_count --
    // --nocapture`; the same in a release build): 84 before the allocation cuts, 50 now. 12 are
    // the scenario's stand-ins for the host (the prompt, the transport's bodies and futures, the
    // tools' outputs and futures). The core's 38: the run's future; the transcript's five
    // messages (each written, then shared as an `Rc<str>`), its list and one growth of it; two
    // request bodies; per response the reader's key list; per call its id, name and arguments
    // text and the parsed arguments (two strings, the entries, the map); the calls list; the
    // turn's join (its futures, its outcomes); the results and records lists; the final text;
    // the result's model name (a copy: sharing it took a record field type of its own).
    const MAX: f64 = 50.0;
    if per_run > MAX {
        return Err(format!(
            "{per_run} allocations per run, at most {MAX} expected"
        ));
    }
    Ok(())
}
