import Synchronization

/// Counters of an `ImageLoader`: hits per tier, downloads, bytes, decodes and decode time. Tests
/// read them to count downloads and decodes.
public final class ImagePipelineMetrics: Sendable {
    /// A copy of the counters at one moment.
    public struct Snapshot: Sendable, Equatable {
        /// Requests answered from the memory cache.
        public var memoryHits = 0
        /// Loads answered from a fresh disk entry.
        public var diskHits = 0
        /// Network requests started (downloads and revalidations).
        public var downloads = 0
        /// Network requests cancelled because their last waiter left.
        public var downloadsCancelled = 0
        /// Revalidations answered `304 Not Modified`.
        public var notModified = 0
        /// Body bytes received.
        public var bytesDownloaded = 0
        /// Images decoded.
        public var decodes = 0
        /// Time spent decoding, in nanoseconds.
        public var decodeNanoseconds = 0
    }

    private let counters = Mutex(Snapshot())

    /// Creates zeroed counters.
    public init() {}

    /// The counters now.
    public var snapshot: Snapshot { counters.withLock { $0 } }

    func record(_ change: (inout Snapshot) -> Void) { counters.withLock { change(&$0) } }
}
