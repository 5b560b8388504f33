import Synchronization

/// A flag one task sets and another reads (did the operation under test finish yet?).
public final class CompletionFlag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Creates an unset flag.
    public init() {}

    /// Sets the flag.
    public func set() { value.store(true, ordering: .sequentiallyConsistent) }

    /// Whether it was set.
    public var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// A non-`Sendable` value (a database connection) that a test hands from one thread to the next,
/// using it from one at a time.
public final class HandedOver<Value>: @unchecked Sendable {
    // @unchecked: the test uses the value from one thread at a time, in sequence, each use
    // finishing (awaited) before the next starts.
    /// The value.
    public let value: Value

    /// Wraps `value`.
    public init(_ value: Value) { self.value = value }
}
