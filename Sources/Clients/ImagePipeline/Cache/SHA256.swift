import CourierCore
import CourierCrypto

/// SHA-256 for disk cache file names.
enum SHA256 {
    /// The lowercase hex digest of `text`'s UTF-8 bytes.
    static func hex(_ text: String) -> String { Hex.encode(Digest.sha256(Array(text.utf8))) }
}
