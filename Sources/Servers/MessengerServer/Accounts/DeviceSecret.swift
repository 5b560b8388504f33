import CourierCore
import CourierHTTP

/// The rule a device's secret (its "password") must meet: standard base64 (strict, padding
/// optional) of 16 to 64 bytes, that is 128 to 512 bits drawn at random by the device; the
/// Messenger client sends 32 random bytes.
///
/// The server cannot measure entropy, but it refuses what is plainly not random: text that is
/// not base64, fewer than 16 bytes, or bytes with fewer distinct values than half their count
/// (32 random bytes have about 30 distinct values; the chance that 16 or more random bytes have
/// fewer than half is below 2⁻⁴⁰).
enum DeviceSecret {
    static let minimumBytes = 16
    static let maximumBytes = 64

    /// Whether `secret` meets the rule.
    static func isAcceptable(_ secret: String) -> Bool {
        guard secret.utf8.count <= 4 * ((maximumBytes + 2) / 3), let bytes = Base64.decodeStrict(secret),
            bytes.count >= minimumBytes, bytes.count <= maximumBytes
        else { return false }
        return Set(bytes).count * 2 >= bytes.count
    }

    /// Refuses a secret that does not meet the rule with a 400 that says what is wanted.
    static func validate(_ secret: String) throws(HTTPError) {
        guard isAcceptable(secret) else {
            throw HTTPError(
                .weakSecret,
                "password must be a random secret: base64 of \(minimumBytes)–\(maximumBytes) random bytes (32 recommended)"
            )
        }
    }
}
