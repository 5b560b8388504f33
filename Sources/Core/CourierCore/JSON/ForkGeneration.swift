#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif
import Synchronization

/// Counts the forks this process has been the child of, so that randomness buffered before a
/// `fork()` is never used on both sides of it: `RandomUUIDGenerator` compares the count it
/// filled its buffer under with this one and refills when they differ.
///
/// The count goes up in a `pthread_atfork` child handler (an atomic add, safe in a child of a
/// threaded process), registered the first time anything reads it.
package enum ForkGeneration {
    private static let count = Atomic<Int>(0)
    private static let registered: Bool = {
        pthread_atfork(nil, nil, { ForkGeneration.childAfterFork() }) == 0
    }()

    /// The forks so far; registers the handler on first use.
    package static var current: Int {
        _ = registered
        return count.load(ordering: .acquiring)
    }

    /// What the child handler does: randomness buffered until now is the parent's too.
    package static func childAfterFork() {
        count.add(1, ordering: .releasing)
    }
}
