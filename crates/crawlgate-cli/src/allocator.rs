//! The binary's allocator, and the one option it sets.

/// mimalloc, not glibc's malloc: a crawl allocates a page's strings on the thread that fetched
/// it and frees many on another, and glibc's malloc and free took a fifth of a crawl's
/// instructions, plus lock waits and 10,000 `mprotect` calls growing its per-thread arenas
/// (callgrind, strace). With mimalloc a 20,000-page crawl takes about a tenth less CPU and wall
/// time (BENCHMARKS.md, "Crawler").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in `mi_option_e` (mimalloc 3's `mimalloc.h`; the Rust bindings do
/// not name it). The test below checks the index against the option's default.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// How long freed memory stays with the process before mimalloc gives it back, in
/// milliseconds. mimalloc 3 waits a second: while the report's build frees the crawled site and
/// makes its records, a second's worth of freed site stayed resident beside the new records,
/// and that was the audit's peak (BENCHMARKS.md, "Audit memory").
const PURGE_DELAY_MILLIS: std::ffi::c_long = 10;

/// Set the allocator's options; called first thing in `main`, before anything is allocated on
/// another thread.
pub(crate) fn configure() {
    // SAFETY: `mi_option_set` takes a plain option number and value (no pointers), and
    // mimalloc's options are safe to set from any thread at any time.
    #[allow(unsafe_code)]
    unsafe {
        libmimalloc_sys::mi_option_set(PURGE_DELAY, PURGE_DELAY_MILLIS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_purge_delay_option_is_the_one_set() {
        // Read before `configure` (no test calls it): mimalloc 3's default purge delay is
        // 1,000 ms, and no neighbouring option has that default.
        // SAFETY: reads an option by number, as `configure` sets it.
        #[allow(unsafe_code)]
        let default = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(default, 1_000);
        configure();
        #[allow(unsafe_code)]
        let set = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(set, PURGE_DELAY_MILLIS);
    }
}
