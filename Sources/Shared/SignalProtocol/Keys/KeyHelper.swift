/// Generates the identifiers and key batches a device publishes.
public enum KeyHelper {
    /// libsignal keeps prekey ids below 2^24 - 1 and wraps around.
    public static let preKeyIdModulus: UInt32 = 0xFF_FFFE

    /// A random registration id in `1...16380`, the range libsignal uses.
    public static func generateRegistrationId() throws -> UInt32 {
        try Sodium.randomUniform(16380) + 1
    }

    /// `count` one-time prekeys with ids starting at `start`, wrapping as libsignal does.
    /// - Throws: `.invalidArgument` when `count` is larger than the id space.
    public static func generatePreKeys(start: UInt32, count: Int) throws -> [PreKeyRecord] {
        guard count >= 0, count <= Int(preKeyIdModulus) else {
            throw SignalProtocolError(.invalidArgument, "prekey count out of range")
        }
        let first = start % preKeyIdModulus
        return try (0..<count).map { offset in
            let id = (UInt64(first) + UInt64(offset)) % UInt64(preKeyIdModulus) + 1
            return PreKeyRecord(id: UInt32(id), keyPair: try .generate())
        }
    }
}
