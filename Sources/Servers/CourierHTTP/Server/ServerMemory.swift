import CourierCore

#if os(Linux)
    import CMalloc
#endif

/// How a server process's allocator keeps freed memory and gives it back: glibc's `mallopt` and
/// `malloc_trim`, for server executables only (an app's allocator is the app's; client libraries
/// never call this).
///
/// By default glibc hands the free top of an arena back to the kernel once it passes 128 KB (a
/// little more after large blocks are freed), with `madvise` or `sbrk`. On a busy server, whose
/// request and loop threads allocate and free a few MB a second each, every such return makes the
/// other cores flush their TLBs and the next burst faults the pages in again: 1.9 % of both cores in
/// shootdowns under messenger routing (docs/benchmarks-history.md). A server executable keeps up to
/// `retainedBytesPerArena` per arena while it works, and gives back on a slow tick the free pages
/// glibc can return:
/// ```swift
/// ServerMemory.retainFreedMemory()
/// let server = HTTPServer(
///     configuration: http, router: router, jobs: [ServerMemory.releasingFreeMemory()] + messenger.backgroundJobs)
/// ```
public enum ServerMemory {
    /// What `retainFreedMemory()` keeps per arena unless told otherwise: 4 MB, so at most 4 MB
    /// times glibc's arenas (eight per core) in all; glibc's own dynamic threshold reaches 64 MB
    /// once a 32 MB block has been freed. Messenger routing gained about as much with 4 MB as
    /// with 32 MB (docs/benchmarks-history.md).
    public static let retainedBytesPerArena = 4 << 20

    /// Asks glibc to keep up to `bytes` of free memory at the top of each arena instead of giving
    /// it back on every `free` (`M_TRIM_THRESHOLD`). Blocks of 128 KB or more still get pages of
    /// their own, returned as soon as they are freed (setting a threshold fixes glibc's mmap
    /// threshold at its default).
    /// - Parameter bytes: the free memory an arena may keep; at least 128 KB.
    /// - Returns: whether the C library took the setting (`false` where it is not glibc, or for a
    ///   value it refuses).
    @discardableResult
    public static func retainFreedMemory(upTo bytes: Int = retainedBytesPerArena) -> Bool {
        guard bytes >= 128 << 10, bytes <= Int(Int32.max) else { return false }
        #if os(Linux)
            return mallopt(M_TRIM_THRESHOLD, Int32(bytes)) == 1
        #else
            return false
        #endif
    }

    /// Gives free memory back to the kernel now (`malloc_trim(0)`): the whole pages inside every
    /// arena's free blocks, and the main arena's free top. A thread arena's free top is glibc's to
    /// trim on a `free` only, so it keeps at most the threshold of `retainFreedMemory(upTo:)`.
    /// - Returns: whether any memory was given back.
    @discardableResult
    public static func releaseFreeMemory() -> Bool {
        #if os(Linux)
            return malloc_trim(0) == 1
        #else
            return false
        #endif
    }

    /// The bytes glibc holds free in all arenas, resident or not (`mallinfo2().fordblks`); `nil`
    /// where the C library is not glibc.
    public static var freeBytesHeld: Int? {
        #if os(Linux)
            return Int(mallinfo2().fordblks)
        #else
            return nil
        #endif
    }

    /// A background job that gives free memory back every `interval` (`releaseFreeMemory`), so a
    /// server that went quiet returns what it kept while busy within one interval.
    /// - Parameters:
    ///   - interval: the time between two returns; a minute by default.
    ///   - clock: whose time the interval is measured in.
    ///   - release: what one return does (tests count them).
    public static func releasingFreeMemory(
        every interval: Duration = .seconds(60), on clock: any Clock = SystemClock(),
        release: @escaping @Sendable () -> Void = { releaseFreeMemory() }
    ) -> BackgroundJob {
        .every(interval, on: clock, name: "server.memory-release", blocking: release)
    }
}
