//! The module's memory allocator: segregated free lists of power-of-two blocks over memory
//! taken from the host a page at a time. On wasm32 it is the global allocator, in place of
//! the standard library's dlmalloc: it is a tenth of dlmalloc's code (what a browser
//! downloads) and allocates and frees in a few instructions.
//!
//! A request of `size` bytes aligned to `align` gets a block of the next power of two of
//! `max(size, align, 16)`, its *class*. Every block is aligned to its own size (up to one
//! 64 KiB page), so a block taken from a class's free list suits any request of that class.
//! A freed block goes onto its class's list and is handed out again, newest first; blocks are
//! never split or merged, so the memory a workload holds is bounded by its peak use of each
//! class (at most twice the bytes it asked for). Fresh blocks are cut from the end of the
//! memory taken so far; the padding that aligning one leaves behind, and the tail of a region
//! when the host's next pages do not follow it, are cut into the largest aligned blocks that
//! fit and put on their lists, so nothing is lost.
//!
//! ```
//! use std::alloc::Layout;
//! use toolnexus::heap::{Heap, Pages};
//!
//! /// Pages from a buffer (the wasm32 build asks `memory.grow` instead).
//! struct Buffer(usize, usize);
//! impl Pages for Buffer {
//!     fn grow(&mut self, bytes: usize) -> Option<(usize, usize)> {
//!         let start = self.0;
//!         self.0 += bytes.div_ceil(65536) * 65536;
//!         (self.0 <= self.1).then_some((start, self.0))
//!     }
//! }
//! let buffer: &'static mut [u8] = Box::leak(vec![0u8; 1 << 20].into_boxed_slice());
//! let start = (buffer.as_ptr() as usize).next_multiple_of(65536);
//! let mut heap = Heap::new(Buffer(start, buffer.as_ptr() as usize + buffer.len()));
//! let layout = Layout::from_size_align(100, 8).unwrap();
//! let block = unsafe { heap.alloc(layout) };
//! assert_eq!(block as usize % 128, 0); // a 128-byte block, aligned to its size
//! unsafe { heap.dealloc(block, layout) };
//! assert_eq!(unsafe { heap.alloc(layout) }, block); // reused
//! ```

use std::alloc::Layout;

/// The smallest class: 16-byte blocks (a free block holds its list's link).
const MIN_CLASS: u32 = 4;
/// Blocks are aligned to their size up to this; larger alignments are refused.
const MAX_ALIGN: usize = 65536;
const CLASSES: usize = usize::BITS as usize;

/// Where a [`Heap`] gets memory: `grow(bytes)` hands over at least `bytes` new bytes as
/// `(start, end)`, `start` a non-zero multiple of 64 KiB, or `None` when there is no more.
pub trait Pages {
    /// At least `bytes` more bytes of memory, as a 64 KiB-aligned `(start, end)` range.
    fn grow(&mut self, bytes: usize) -> Option<(usize, usize)>;
}

/// A power-of-two free-list allocator over the memory a [`Pages`] gives (see the module
/// docs). Not thread-safe: the wasm32 build has one thread.
pub struct Heap<P> {
    /// Per class, the address of the newest free block (0: none); each free block starts
    /// with the address of the next.
    free: [usize; CLASSES],
    /// The part of the current region no block has been cut from yet.
    next: usize,
    end: usize,
    pages: P,
}

/// The class of a request: log2 of its block size, or `None` when no block can hold it.
fn class_of(layout: Layout) -> Option<u32> {
    let need = layout.size().max(layout.align()).max(1 << MIN_CLASS);
    if layout.align() > MAX_ALIGN || need > 1 << (usize::BITS - 1) {
        return None;
    }
    Some(usize::BITS - (need - 1).leading_zeros())
}

impl<P: Pages> Heap<P> {
    /// An empty heap that takes memory from `pages` when it first needs it.
    pub const fn new(pages: P) -> Heap<P> {
        Heap {
            free: [0; CLASSES],
            next: 0,
            end: 0,
            pages,
        }
    }

    /// The source of this heap's memory.
    pub fn pages(&self) -> &P {
        &self.pages
    }

    /// A block for `layout`, or null when the memory is exhausted (or `layout.align()` is
    /// over 64 KiB).
    ///
    /// # Safety
    /// The memory `pages` hands over must be this heap's alone, readable and writable.
    pub unsafe fn alloc(&mut self, layout: Layout) -> *mut u8 {
        let Some(class) = class_of(layout) else {
            return std::ptr::null_mut();
        };
        let Some(head) = self.free.get_mut(class as usize) else {
            return std::ptr::null_mut();
        };
        if *head != 0 {
            let block = *head;
            // SAFETY: a free block is ours and starts with its list's next link.
            *head = unsafe { (block as *const usize).read() };
            return block as *mut u8;
        }
        // SAFETY: as for this function.
        unsafe { self.cut(class) }
    }

    /// Gives back a block [`alloc`](Heap::alloc) returned for `layout`.
    ///
    /// # Safety
    /// `block` must come from this heap's `alloc` (or `realloc`) with the same `layout`, and
    /// not be used after.
    pub unsafe fn dealloc(&mut self, block: *mut u8, layout: Layout) {
        if let Some(class) = class_of(layout) {
            // SAFETY: as for this function.
            unsafe { self.push(class, block as usize) }
        }
    }

    /// `block` resized to `new_size` bytes: the same block when the size stays in its class,
    /// else a new one holding the old contents (the old one freed), or null (the old one kept).
    ///
    /// # Safety
    /// As for [`dealloc`](Heap::dealloc); `new_size` rounded up to `layout.align()` must not
    /// overflow `isize`.
    pub unsafe fn realloc(&mut self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Ok(new_layout) = Layout::from_size_align(new_size, layout.align()) else {
            return std::ptr::null_mut();
        };
        let class = class_of(new_layout);
        if class.is_some() && class == class_of(layout) {
            return block;
        }
        // SAFETY: as for this function; the two blocks are distinct live blocks.
        unsafe {
            let moved = self.alloc(new_layout);
            if !moved.is_null() {
                std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
            moved
        }
    }

    unsafe fn push(&mut self, class: u32, block: usize) {
        if let Some(head) = self.free.get_mut(class as usize) {
            // SAFETY: the block is ours, at least 16 bytes and aligned for a usize.
            unsafe { (block as *mut usize).write(*head) };
            *head = block;
        }
    }

    /// Cuts a fresh block of `class` from the current region, taking more pages as needed.
    /// Out of line: only the free-list pop and push are inlined into the module's callers.
    #[cold]
    #[inline(never)]
    unsafe fn cut(&mut self, class: u32) -> *mut u8 {
        let size = 1usize << class;
        let align = size.min(MAX_ALIGN);
        loop {
            let start = self.next.checked_add(align - 1).map(|n| n & !(align - 1));
            if let Some(start) =
                start.filter(|s| s.checked_add(size).is_some_and(|e| e <= self.end))
            {
                // SAFETY: [next, start) is unused memory of the current region.
                unsafe { self.donate(self.next, start) };
                self.next = start + size;
                return start as *mut u8;
            }
            let Some((start, end)) = size.checked_add(align).and_then(|b| self.pages.grow(b))
            else {
                return std::ptr::null_mut();
            };
            if start != self.end {
                // SAFETY: the rest of the old region is unused memory.
                unsafe { self.donate(self.next, self.end) };
                self.next = start;
            }
            self.end = end;
        }
    }

    /// Puts unused memory `[from, to)` (both multiples of 16) on the free lists as the
    /// largest aligned blocks that fit.
    unsafe fn donate(&mut self, mut from: usize, to: usize) {
        while to.saturating_sub(from) >= 1 << MIN_CLASS {
            let fits = usize::BITS - 1 - (to - from).leading_zeros();
            let class = from
                .trailing_zeros()
                .min(fits)
                .min(MAX_ALIGN.trailing_zeros());
            // SAFETY: [from, from + 2^class) is unused memory, aligned to its size.
            unsafe { self.push(class, from) };
            from += 1 << class;
        }
    }
}

/// The global allocator of the wasm32 build: a [`Heap`] over `memory.grow`.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
mod global {
    use super::{Heap, Pages};
    use std::alloc::{GlobalAlloc, Layout};
    use std::cell::UnsafeCell;

    struct MemoryGrow;

    impl Pages for MemoryGrow {
        fn grow(&mut self, bytes: usize) -> Option<(usize, usize)> {
            let pages = bytes.div_ceil(65536);
            let before = core::arch::wasm32::memory_grow(0, pages);
            (before != usize::MAX).then(|| (before * 65536, (before + pages) * 65536))
        }
    }

    struct Allocator(UnsafeCell<Heap<MemoryGrow>>);

    // SAFETY: wasm32 without the atomics feature has one thread; nothing is shared.
    unsafe impl Sync for Allocator {}

    // SAFETY: the heap owns every page memory.grow gives (nothing else grows the memory), and
    // no call re-enters the allocator, so each `&mut` below is the only one.
    // Out of line: inlined, the heap's few instructions are copied into every caller in the
    // module (+150 KB in the opt-level 3 build) for no measurable gain.
    unsafe impl GlobalAlloc for Allocator {
        #[inline(never)]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            unsafe { (*self.0.get()).alloc(layout) }
        }
        #[inline(never)]
        unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
            unsafe { (*self.0.get()).dealloc(block, layout) }
        }
        #[inline(never)]
        unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            unsafe { (*self.0.get()).realloc(block, layout, new_size) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Allocator = Allocator(UnsafeCell::new(Heap::new(MemoryGrow)));
}
