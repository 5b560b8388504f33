/// libsignal's scannable fingerprint, the bytes shown as a QR code next to the safety number:
/// the protobuf `CombinedFingerprints { version = 1; localFingerprint { content }; remoteFingerprint
/// { content } }`, each content the first 32 bytes of that side's `FingerprintHash`.
///
/// ```swift
/// let mine = try ScannableFingerprint(
///     localIdentifier: "alice", localKey: aliceKey, remoteIdentifier: "bob", remoteKey: bobKey)
/// showQRCode(mine.serialized)
/// // after scanning Bob's screen:
/// let same = try mine.compare(scanned: bytesFromCamera)  // false: someone's key differs
/// ```
public struct ScannableFingerprint: Sendable, Equatable {
    /// The version libsignal writes today.
    public static let currentVersion: UInt32 = 1
    private static let contentLength = 32

    /// The format version.
    public let version: UInt32
    /// Our 32 bytes.
    public let localFingerprint: [UInt8]
    /// Their 32 bytes.
    public let remoteFingerprint: [UInt8]

    /// Computes the scannable fingerprint for one local and one remote identity.
    /// - Parameters:
    ///   - localIdentifier: our stable identifier (the same one the safety number uses).
    ///   - localKey: our identity key.
    ///   - remoteIdentifier: their stable identifier.
    ///   - remoteKey: their identity key.
    ///   - iterations: SHA-512 iterations; must match the peer (libsignal: 5200).
    ///   - version: the format version to write.
    /// - Throws: `.invalidArgument` when `iterations` is out of range.
    public init(
        localIdentifier: String, localKey: IdentityKey, remoteIdentifier: String, remoteKey: IdentityKey,
        iterations: Int = SafetyNumber.defaultIterations, version: UInt32 = ScannableFingerprint.currentVersion
    ) throws {
        try FingerprintHash.validate(iterations: iterations)
        self.init(
            version: version,
            localHash: FingerprintHash.hash(identifier: localIdentifier, key: localKey, iterations: iterations),
            remoteHash: FingerprintHash.hash(identifier: remoteIdentifier, key: remoteKey, iterations: iterations))
    }

    /// The scannable form of two `FingerprintHash` values (each at least 32 bytes).
    init(version: UInt32, localHash: [UInt8], remoteHash: [UInt8]) {
        self.version = version
        localFingerprint = Array(localHash.prefix(Self.contentLength))
        remoteFingerprint = Array(remoteHash.prefix(Self.contentLength))
    }

    /// Reads a serialized combined fingerprint (one scanned from the other phone).
    /// - Throws: `.fingerprintParsing` when the bytes are not a combined fingerprint with a version
    ///   and both sides.
    public init(serialized: [UInt8]) throws {
        let fields = try Self.parse(serialized)
        guard let version = fields.version, let local = fields.local, let remote = fields.remote else {
            throw SignalProtocolError(.fingerprintParsing, "combined fingerprint lacks a version or a side")
        }
        self.version = version
        localFingerprint = local
        remoteFingerprint = remote
    }

    /// The protobuf bytes to encode in a QR code.
    public var serialized: [UInt8] {
        var writer = ProtobufWriter()
        writer.writeUInt32(1, version)
        writer.writeMessage(2) { $0.writeBytes(1, localFingerprint) }
        writer.writeMessage(3) { $0.writeBytes(1, remoteFingerprint) }
        return writer.bytes
    }

    /// Compares what the camera read from the other phone with what we expect: their local side
    /// must be our remote side and the other way round.
    /// - Parameter scanned: the other phone's `serialized` bytes.
    /// - Returns: true when both identities match; false when either key (or identifier) differs.
    /// - Throws: `.fingerprintVersionMismatch` when the scanned version is not ours (the keys were
    ///   not compared: one side must update), `.fingerprintParsing` for bytes that are not a
    ///   combined fingerprint.
    public func compare(scanned: [UInt8]) throws -> Bool {
        let fields = try Self.parse(scanned)
        let theirVersion = fields.version ?? 0
        guard theirVersion == version else {
            throw SignalProtocolError(
                .fingerprintVersionMismatch, "scanned fingerprint version \(theirVersion), ours is \(version)")
        }
        guard let theirLocal = fields.local, let theirRemote = fields.remote else {
            throw SignalProtocolError(.fingerprintParsing, "combined fingerprint lacks a side")
        }
        let sameRemote = Sodium.constantTimeEqual(theirLocal, remoteFingerprint)
        let sameLocal = Sodium.constantTimeEqual(theirRemote, localFingerprint)
        return sameRemote && sameLocal
    }

    private struct Fields {
        var version: UInt32?
        var local: [UInt8]?
        var remote: [UInt8]?
    }

    /// Decodes the fields libsignal reads; unknown fields are skipped as protobuf requires.
    private static func parse(_ bytes: [UInt8]) throws -> Fields {
        do {
            var reader = ProtobufReader(bytes)
            var fields = Fields()
            while let (field, wireType) = try reader.readTag() {
                switch field {
                case 1:
                    try reader.expect(.varint, got: wireType)
                    fields.version = try reader.readUInt32()
                case 2, 3:
                    try reader.expect(.lengthDelimited, got: wireType)
                    let content = try logicalFingerprintContent(try reader.readLengthDelimited())
                    if field == 2 { fields.local = content } else { fields.remote = content }
                default:
                    try reader.skip(wireType)
                }
            }
            return fields
        } catch let error as SignalProtocolError where error.code == .fingerprintParsing {
            throw error
        } catch {
            throw SignalProtocolError(.fingerprintParsing, "scanned bytes are not a combined fingerprint")
        }
    }

    /// `LogicalFingerprint { bytes content = 1; }`.
    private static func logicalFingerprintContent(_ bytes: [UInt8]) throws -> [UInt8] {
        var reader = ProtobufReader(bytes)
        var content: [UInt8]?
        while let (field, wireType) = try reader.readTag() {
            if field == 1 {
                try reader.expect(.lengthDelimited, got: wireType)
                content = try reader.readLengthDelimited()
            } else {
                try reader.skip(wireType)
            }
        }
        guard let content else {
            throw SignalProtocolError(.fingerprintParsing, "a fingerprint side has no content")
        }
        return content
    }
}
