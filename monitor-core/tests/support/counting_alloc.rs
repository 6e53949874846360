//! A counting allocator for the tests that bound memory: the system
//! allocator, counting the bytes allocated now and their peak (every
//! thread's: a test binary that uses it holds one test). Included with
//! `#[path]` by monitor-core's `keyed_memory` and mongen's
//! `keyed_json_stream`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes allocated now and their peak.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe {
            let p = System.alloc(layout);
            if !p.is_null() {
                let now = NOW.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            }
            p
        }
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe {
            NOW.fetch_sub(layout.size(), Ordering::Relaxed);
            System.dealloc(p, layout)
        }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak of the bytes allocated by `f` beyond those allocated before
/// it, and its result.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = NOW.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (PEAK.load(Ordering::Relaxed) - before, out)
}
