//! Giving freed memory back to the operating system.
//!
//! glibc's allocator keeps what a program frees in its arenas for the next allocation, and
//! gives back only the free space at an arena's top. After a burst (a backlog of a million
//! visit entries, its hash tables and breakdowns freed once written) the freed pages sit in
//! the middle of the arenas and the process stays at its peak size for good: 30 MB at a
//! million chains, measured. `malloc_trim` hands every whole free page back.
//!
//! Under steady load there is no burst's end to trim after: the flusher's backlog is written
//! while the next one fills, and the hash tables of each (a few hundred KB to a few MB per
//! shard at a million chains) are freed and grown again round after round. glibc serves
//! such sizes from its arenas once a freed mapping has raised its mmap threshold, and the
//! holes they leave add up: 45 MB free in one arena against 21 MB in use, under uniform
//! traffic at a million chains. [`map_large_allocations`] fixes the threshold, so each large
//! table is its own mapping, returned whole when freed.

/// Returns the allocator's free pages to the operating system, where the allocator keeps them
/// (glibc); elsewhere it does nothing. It walks every arena, locking each in turn, so it is
/// for after a burst, not for every request: a few milliseconds on a heap of 300 MB.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub(crate) fn release_free_memory() {
    // SAFETY: malloc_trim takes no pointers and has no precondition; glibc documents it as
    // safe to call from any thread at any time (MT-Safe).
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Largest allocation glibc serves from its arenas; larger ones are mappings of their own.
/// glibc's starting value, which it otherwise raises (up to 32 MiB) as mappings are freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 128 * 1024;

/// Has every allocation above 128 KiB mapped on its own and unmapped when freed (glibc);
/// elsewhere it does nothing. A setting of the whole process, so the binaries make it, first
/// thing: call it before any thread starts (a server embedding the library may too).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn map_large_allocations() {
    // SAFETY: mallopt takes no pointers. glibc marks it MT-Unsafe (it changes settings other
    // threads' allocations read without a lock), hence the contract above: before threads.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// Has every large allocation mapped on its own (glibc); elsewhere it does nothing.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn map_large_allocations() {}

/// Returns the allocator's free pages to the operating system, where the allocator keeps them
/// (glibc); elsewhere it does nothing.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn release_free_memory() {}
