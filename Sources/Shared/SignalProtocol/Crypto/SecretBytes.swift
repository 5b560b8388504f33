/// Secret key material that is zeroed when freed and never printed.
///
/// The bytes live in one heap allocation owned by an immutable storage object, so copies of a
/// `SecretBytes` share one buffer instead of scattering copies of the secret through memory.
public struct SecretBytes: Sendable, CustomStringConvertible, CustomDebugStringConvertible, Equatable {
    private let storage: Storage

    /// Copies `bytes` into a new zero-on-free buffer.
    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        storage = Storage(count: bytes.count)
        _ = storage.pointer.initialize(from: bytes)
    }

    /// Creates a buffer of `count` bytes filled by `body`.
    init(count: Int, fill body: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        storage = Storage(count: count)
        try body(UnsafeMutableRawBufferPointer(storage.pointer))
    }

    /// The number of bytes.
    public var count: Int { storage.pointer.count }

    /// Calls `body` with a read-only view of the secret; the pointer must not escape.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(storage.pointer))
    }

    /// Copies a sub-range into a new secret.
    func slice(_ range: Range<Int>) -> SecretBytes {
        withUnsafeBytes { SecretBytes($0[range]) }
    }

    /// Copies the secret out; only for serialising into a caller's own store.
    public var unsafeCopiedBytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Never shows the bytes.
    public var description: String { "SecretBytes(\(count) bytes)" }
    /// Never shows the bytes.
    public var debugDescription: String { description }

    /// Constant-time comparison.
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool {
        lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in Sodium.constantTimeEqual(l, r) } }
    }

    // Safe to share: the buffer is written only in `init` before the storage is published and
    // is read-only afterwards; `deinit` runs when no reference remains.
    private final class Storage: @unchecked Sendable {
        let pointer: UnsafeMutableBufferPointer<UInt8>
        init(count: Int) {
            pointer = .allocate(capacity: max(count, 0))
            pointer.initialize(repeating: 0)
        }
        deinit {
            Sodium.zero(UnsafeMutableRawBufferPointer(pointer))
            pointer.deallocate()
        }
    }
}
