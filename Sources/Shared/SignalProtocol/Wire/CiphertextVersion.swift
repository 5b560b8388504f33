/// The version byte that starts every Signal wire message: high nibble = message version,
/// low nibble = the sender's highest supported version (ignored when reading, as libsignal does).
enum CiphertextVersion {
    static let current: UInt8 = 3
    static var byte: UInt8 { current << 4 | current }

    /// Validates the high nibble of a received version byte.
    static func check(_ byte: UInt8) throws -> UInt8 {
        let version = byte >> 4
        if version < current {
            throw SignalProtocolError(.legacyVersion, "message version \(version) is older than 3 and not supported")
        }
        if version > current {
            throw SignalProtocolError(.unknownVersion, "unknown message version \(version)")
        }
        return version
    }
}
