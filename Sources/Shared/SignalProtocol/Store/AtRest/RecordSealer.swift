/// Encrypts record blobs at rest with XChaCha20-Poly1305 under the store's key.
///
/// A sealed blob is `format ‖ nonce(24) ‖ ciphertext ‖ tag(16)`. The associated data is the
/// format byte, the table and the row's key, so a blob copied into another row (or table) does
/// not open: an attacker who can write the file cannot swap one peer's session for another's.
struct RecordSealer: Sendable {
    static let format: UInt8 = 0x01
    private let key: SecretBytes

    init(key: SecretBytes) throws {
        guard key.count == Sodium.aeadKeyLength else {
            throw SignalProtocolError(.invalidKey, "a storage key must be 32 bytes")
        }
        self.key = key
    }

    /// Where a record lives: its table and the values of its key columns.
    struct Location: Sendable {
        let table: String
        let key: [String]

        /// `format ‖ (length ‖ UTF-8)` for the table and each key value; lengths are 4 bytes,
        /// big-endian, so no two locations encode alike.
        var associatedData: [UInt8] {
            var bytes = [RecordSealer.format]
            for part in [table] + key {
                let utf8 = Array(part.utf8)
                withUnsafeBytes(of: UInt32(utf8.count).bigEndian) { bytes.append(contentsOf: $0) }
                bytes.append(contentsOf: utf8)
            }
            return bytes
        }
    }

    func seal(_ record: SecretBytes, at location: Location) throws -> [UInt8] {
        let nonce = try Sodium.randomBytes(Sodium.aeadNonceLength)
        let sealed = try Sodium.aeadSeal(
            key: key, nonce: nonce, associatedData: location.associatedData, plaintext: record)
        return [Self.format] + nonce + sealed
    }

    /// - Throws: `.unknownVersion` for another format byte, `.invalidMAC` when the blob was
    ///   changed, moved to another row, or sealed under another key.
    func open(_ blob: [UInt8], at location: Location) throws -> SecretBytes {
        guard let format = blob.first, format == Self.format else {
            throw SignalProtocolError(.unknownVersion, "stored record is not in a known sealed format")
        }
        guard blob.count > 1 + Sodium.aeadNonceLength else {
            throw SignalProtocolError(.invalidMAC, "sealed record is truncated")
        }
        let nonce = Array(blob[1...Sodium.aeadNonceLength])
        return try Sodium.aeadOpen(
            key: key, nonce: nonce, associatedData: location.associatedData,
            ciphertext: blob[(1 + Sodium.aeadNonceLength)...])
    }
}
