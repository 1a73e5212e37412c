//! The wasm32 build's allocator (`toolnexus::heap`), run natively over a buffer: any sequence
//! of allocations, frees and resizes gives aligned blocks inside the memory it was handed that
//! never overlap a live block and keep their contents; freed blocks are used again, so a
//! repeated workload takes no more memory; exhaustion and absurd requests give null.
#![allow(clippy::unwrap_used, clippy::indexing_slicing)]

use proptest::prelude::*;
use std::alloc::Layout;
use std::collections::BTreeMap;
use toolnexus::heap::{Heap, Pages};

const PAGE: usize = 65536;

/// Pages from a leaked buffer. With `gap`, a page is skipped between two grows (the host's
/// next pages do not follow the last ones), so a region's tail is left over.
struct Buffer {
    next: usize,
    limit: usize,
    gap: bool,
    grows: usize,
}

impl Buffer {
    fn new(bytes: usize, gap: bool) -> Buffer {
        let buffer: &'static mut [u8] = Box::leak(vec![0u8; bytes + PAGE].into_boxed_slice());
        let base = buffer.as_ptr() as usize;
        Buffer {
            next: base.next_multiple_of(PAGE),
            limit: base + buffer.len(),
            gap,
            grows: 0,
        }
    }
}

impl Pages for Buffer {
    fn grow(&mut self, bytes: usize) -> Option<(usize, usize)> {
        if self.gap && self.grows > 0 {
            self.next += PAGE;
        }
        let start = self.next;
        let end = start.checked_add(bytes.div_ceil(PAGE) * PAGE)?;
        if end > self.limit {
            return None;
        }
        self.next = end;
        self.grows += 1;
        Some((start, end))
    }
}

/// A heap and the blocks it has given out, each filled with its own tag byte.
struct Model {
    heap: Heap<Buffer>,
    live: BTreeMap<usize, (Layout, u8)>,
    tag: u8,
}

impl Model {
    fn new(bytes: usize, gap: bool) -> Model {
        Model {
            heap: Heap::new(Buffer::new(bytes, gap)),
            live: BTreeMap::new(),
            tag: 0,
        }
    }

    fn check_fresh(&self, at: usize, layout: Layout) {
        assert_ne!(at, 0, "null for {layout:?}");
        assert_eq!(
            at % layout.align(),
            0,
            "{at:#x} is not aligned for {layout:?}"
        );
        let end = at + layout.size().max(1);
        if let Some((&before, &(l, _))) = self.live.range(..=at).next_back() {
            assert!(
                before + l.size().max(1) <= at,
                "{at:#x} overlaps the block at {before:#x}"
            );
        }
        if let Some((&after, _)) = self.live.range(at + 1..).next() {
            assert!(
                end <= after,
                "{at:#x}..{end:#x} overlaps the block at {after:#x}"
            );
        }
    }

    fn fill(&mut self, at: usize, layout: Layout) {
        self.tag = self.tag.wrapping_add(1);
        unsafe { std::ptr::write_bytes(at as *mut u8, self.tag, layout.size()) };
        self.live.insert(at, (layout, self.tag));
    }

    fn verify(at: usize, size: usize, tag: u8) {
        let bytes = unsafe { std::slice::from_raw_parts(at as *const u8, size) };
        assert!(
            bytes.iter().all(|&b| b == tag),
            "the block at {at:#x} lost its contents"
        );
    }

    fn alloc(&mut self, size: usize, align: usize) {
        let layout = Layout::from_size_align(size, align).unwrap();
        let at = unsafe { self.heap.alloc(layout) } as usize;
        self.check_fresh(at, layout);
        self.fill(at, layout);
    }

    fn nth(&self, pick: usize) -> Option<usize> {
        let n = self.live.len();
        (n > 0).then(|| *self.live.keys().nth(pick % n).unwrap())
    }

    fn free(&mut self, pick: usize) {
        let Some(at) = self.nth(pick) else { return };
        let (layout, tag) = self.live.remove(&at).unwrap();
        Self::verify(at, layout.size(), tag);
        unsafe { self.heap.dealloc(at as *mut u8, layout) };
    }

    fn realloc(&mut self, pick: usize, new_size: usize) {
        let Some(at) = self.nth(pick) else { return };
        let (layout, tag) = self.live.remove(&at).unwrap();
        let moved = unsafe { self.heap.realloc(at as *mut u8, layout, new_size) } as usize;
        let new_layout = Layout::from_size_align(new_size, layout.align()).unwrap();
        self.check_fresh(moved, new_layout);
        Self::verify(moved, layout.size().min(new_size), tag);
        self.fill(moved, new_layout);
    }
}

#[derive(Debug, Clone)]
enum Op {
    Alloc(usize, usize),
    Free(usize),
    Realloc(usize, usize),
}

fn size() -> impl Strategy<Value = usize> {
    prop_oneof![
        6 => 1usize..64,
        3 => 64usize..4096,
        1 => 4096usize..300_000,
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let align = (0u32..13).prop_map(|k| 1usize << k);
    prop_oneof![
        5 => (size(), align).prop_map(|(s, a)| Op::Alloc(s, a)),
        3 => any::<usize>().prop_map(Op::Free),
        2 => (any::<usize>(), size()).prop_map(|(i, s)| Op::Realloc(i, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn blocks_are_aligned_disjoint_and_keep_their_contents(ops in prop::collection::vec(op(), 1..200), gap in any::<bool>()) {
        let mut model = Model::new(96 << 20, gap);
        for op in ops {
            match op {
                Op::Alloc(size, align) => model.alloc(size, align),
                Op::Free(pick) => model.free(pick),
                Op::Realloc(pick, size) => model.realloc(pick, size),
            }
        }
        while !model.live.is_empty() {
            model.free(0);
        }
    }

    #[test]
    fn a_repeated_workload_takes_no_more_memory(sizes in prop::collection::vec(size(), 1..80), gap in any::<bool>()) {
        let mut model = Model::new(64 << 20, gap);
        let mut grows = Vec::new();
        for _ in 0..3 {
            for &size in &sizes {
                model.alloc(size, 8);
            }
            while !model.live.is_empty() {
                model.free(0);
            }
            grows.push(model.heap.pages().grows);
        }
        prop_assert_eq!(grows[1], grows[0]);
        prop_assert_eq!(grows[2], grows[0]);
    }
}

#[test]
fn a_freed_block_is_the_next_one_given_for_its_class() {
    let mut heap = Heap::new(Buffer::new(1 << 20, false));
    let small = Layout::from_size_align(24, 8).unwrap();
    let a = unsafe { heap.alloc(small) };
    let b = unsafe { heap.alloc(small) };
    assert_ne!(a, b);
    unsafe { heap.dealloc(a, small) };
    // 17..32 bytes share a class: a 30-byte request takes the freed 24-byte request's block.
    assert_eq!(
        unsafe { heap.alloc(Layout::from_size_align(30, 4).unwrap()) },
        a
    );
}

#[test]
fn realloc_within_a_class_keeps_the_block() {
    let mut heap = Heap::new(Buffer::new(1 << 20, false));
    let layout = Layout::from_size_align(40, 8).unwrap();
    let block = unsafe { heap.alloc(layout) };
    assert_eq!(unsafe { heap.realloc(block, layout, 64) }, block);
    let grown = unsafe { heap.realloc(block, Layout::from_size_align(64, 8).unwrap(), 65) };
    assert_ne!(grown, block);
}

#[test]
fn exhaustion_and_absurd_requests_give_null() {
    let mut heap = Heap::new(Buffer::new(4 * PAGE, false));
    let big = Layout::from_size_align(8 * PAGE, 8).unwrap();
    assert!(
        unsafe { heap.alloc(big) }.is_null(),
        "more than the buffer holds"
    );
    let aligned = Layout::from_size_align(16, 2 * PAGE).unwrap();
    assert!(
        unsafe { heap.alloc(aligned) }.is_null(),
        "an alignment over 64 KiB"
    );
    let huge = Layout::from_size_align(usize::MAX / 2, 1).unwrap();
    assert!(unsafe { heap.alloc(huge) }.is_null(), "no class holds it");
    let fits = Layout::from_size_align(PAGE, 8).unwrap();
    assert!(
        !unsafe { heap.alloc(fits) }.is_null(),
        "still usable after the refusals"
    );
}

#[test]
fn the_padding_before_an_aligned_block_is_used_for_smaller_ones() {
    let mut heap = Heap::new(Buffer::new(1 << 20, false));
    let tiny = Layout::from_size_align(16, 16).unwrap();
    let first = unsafe { heap.alloc(tiny) } as usize;
    // A 4 KiB block is cut at the next 4 KiB boundary; the 4 KiB - 32 bytes skipped go to the
    // smaller classes, so the next 2 KiB, 1 KiB, ... 16-byte requests are served from them.
    let page = unsafe { heap.alloc(Layout::from_size_align(4096, 8).unwrap()) } as usize;
    assert_eq!(page, first + 4096);
    for class in 4..12 {
        let block = unsafe { heap.alloc(Layout::from_size_align(1 << class, 8).unwrap()) } as usize;
        assert!(
            block > first && block < page,
            "class {class}: {block:#x} not in the padding"
        );
    }
}
