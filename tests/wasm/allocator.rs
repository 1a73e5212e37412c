//! The module's global allocator, inside the wasm32 module: a workload whose live bytes rise
//! in one size class, fall to nearly nothing, then rise in others must not take much more
//! linear memory than its peak. An allocator that never splits or merges blocks fails it (the
//! small blocks' memory never serves the large ones, and each large block takes the next power
//! of two).

use core::arch::wasm32::memory_size;
use std::hint::black_box;
use wasm_bindgen_test::wasm_bindgen_test;

const PAGE: usize = 65536;

/// Live bytes as the workload counts them (the sizes it asked for), their peak, and the
/// linear memory grown since the start at the end of each phase. Nothing here allocates, so
/// the workload's blocks are the only ones the allocator places while it runs.
struct Watch {
    start: usize,
    live: usize,
    peak: usize,
    /// Per phase: its peak live bytes and the memory grown by its end.
    phases: [(usize, usize); 3],
}

impl Watch {
    fn take(&mut self, bytes: usize) {
        self.live += bytes;
        self.peak = self.peak.max(self.live);
    }
    fn give(&mut self, bytes: usize) {
        self.live -= bytes;
    }
    fn end(&mut self, phase: usize) {
        self.phases[phase] = (self.peak, memory_size(0) * PAGE - self.start);
    }
}

#[wasm_bindgen_test]
fn memory_follows_live_bytes_across_size_classes() {
    let mut w = Watch {
        start: memory_size(0) * PAGE,
        live: 0,
        peak: 0,
        phases: [(0, 0); 3],
    };

    // 1. ~100-byte blocks up to 4 MiB, then all freed.
    let count = (4 << 20) / 100;
    let mut small: Vec<Box<[u8]>> = Vec::with_capacity(count);
    w.take(small.capacity() * size_of::<Box<[u8]>>());
    for i in 0..count {
        let size = 90 + i % 21;
        small.push(vec![i as u8; size].into_boxed_slice());
        w.take(size);
    }
    black_box(&small);
    w.end(0);
    w.give(small.iter().map(|b| b.len()).sum::<usize>());
    w.give(small.capacity() * size_of::<Box<[u8]>>());
    drop(small);

    // 2. 1.1 MB blocks, 8.8 MB in all, then freed.
    let mut large: Vec<Box<[u8]>> = Vec::with_capacity(8);
    w.take(large.capacity() * size_of::<Box<[u8]>>());
    for i in 0..8 {
        large.push(vec![i as u8; 1_100_000].into_boxed_slice());
        w.take(1_100_000);
    }
    black_box(&large);
    w.end(1);
    w.give(8 * 1_100_000 + large.capacity() * size_of::<Box<[u8]>>());
    drop(large);

    // 3. A buffer grown 64 KiB at a time: Vec doubles its capacity, up to 16 MiB. A move
    // holds the old and the new block at once, so each growth counts both for the peak.
    let chunk = [7u8; PAGE];
    let mut buffer: Vec<u8> = Vec::new();
    while buffer.len() < 16 << 20 {
        let before = buffer.capacity();
        buffer.extend_from_slice(&chunk);
        if buffer.capacity() != before {
            w.take(buffer.capacity());
            w.give(before);
        }
    }
    black_box(&buffer);
    w.end(2);

    drop(buffer);

    // Each phase's memory within 1.25x its peak live bytes (so far) plus one page.
    let names = [
        "4 MiB of 90-110 B blocks",
        "then 8 blocks of 1.1 MB",
        "then a Vec<u8> grown to 16 MiB",
    ];
    let mut ok = true;
    let mut report = String::new();
    for (name, (peak, grown)) in names.iter().zip(w.phases) {
        let within = grown <= peak + peak / 4 + PAGE;
        ok &= within;
        report += &format!(
            "{name}: peak live {peak} B, memory grown {grown} B ({:.2}x){}\n",
            grown as f64 / peak as f64,
            if within { "" } else { " OVER" }
        );
    }
    assert!(ok, "{report}");
    wasm_bindgen_test::console_log!("{report}");
}
