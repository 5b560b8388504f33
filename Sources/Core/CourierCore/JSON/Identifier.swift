import Synchronization

/// Random identifiers.
public enum Identifier {
    /// One generator for the process: its random words are fetched 4 KiB at a time.
    private static let generator = Mutex(RandomUUIDGenerator())

    /// A new lowercase version-4 UUID string, as Segment's `messageId`s are written.
    public static func uuid() -> String { generator.withLock { $0.next() } }
}
