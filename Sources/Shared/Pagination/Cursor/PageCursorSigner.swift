import CourierCore
internal import CSodium
import Foundation

/// Turns keyset positions into opaque cursors that clients hand back unchanged: the position as
/// JSON, base64url, a dot, and an HMAC-SHA-256 of it under the server's key. A cursor that was
/// altered, or signed under another key, is refused.
///
/// ```swift
/// let signer = PageCursorSigner(key: storedKey, maximumAge: .seconds(3_600), clock: SystemClock())
/// let text = signer.sign(key: [.int(lastSeq)])
/// let cursor = try signer.verify(text)    // PageCursorError.invalid / .expired
/// ```
public struct PageCursorSigner: Sendable {
    private let key: [UInt8]
    private let maximumAge: Duration?
    private let clock: any Clock

    /// Creates a signer.
    /// - Parameters:
    ///   - key: at least 32 secret bytes; keep them across restarts, or every cursor out there
    ///     stops verifying.
    ///   - maximumAge: how long a cursor stays valid; `nil` for cursors that must outlive any
    ///     absence (a sync cursor, which expires by garbage collection instead).
    ///   - clock: the time of issue and of checks.
    public init(key: [UInt8], maximumAge: Duration? = nil, clock: any Clock = SystemClock()) {
        self.key = key
        self.maximumAge = maximumAge
        self.clock = clock
    }

    /// 32 random bytes for a new signing key.
    public static func newKey() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        if sodium_init() < 0 { return (0..<32).map { _ in UInt8.random(in: 0...255) } }
        randombytes_buf(&bytes, bytes.count)
        return bytes
    }

    /// An opaque cursor for the row whose sort key is `key`, issued now.
    public func sign(key position: [JSONValue]) -> String {
        let payload = JSONWriter.encode(["k": .array(position), "t": .int(clock.nowMilliseconds)])
        let body = Base64.encodeURL(payload)
        return body + "." + Base64.encodeURL(mac(Array(body.utf8)))
    }

    /// The position inside `text`.
    /// - Throws: `PageCursorError.invalid` when the cursor is malformed or its signature does not
    ///   match; `.expired` when it is older than the maximum age.
    public func verify(_ text: String) throws(PageCursorError) -> PageCursor {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard text.utf8.count <= 4_096, parts.count == 2, let signature = Base64.decodeURL(String(parts[1])),
            ConstantTime.equals(signature, mac(Array(parts[0].utf8))),
            let payload = Base64.decodeURL(String(parts[0])),
            let json = try? JSONParser.parse(payload), let position = json["k"]?.arrayValue,
            let issued = json["t"]?.intValue
        else { throw .invalid }
        if let maximumAge, clock.nowMilliseconds - issued > maximumAge.components.seconds * 1_000 {
            throw .expired
        }
        return PageCursor(key: position, issuedAtMilliseconds: issued)
    }

    private func mac(_ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        var state = crypto_auth_hmacsha256_state()
        _ = crypto_auth_hmacsha256_init(&state, key, key.count)
        _ = crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        _ = crypto_auth_hmacsha256_final(&state, &out)
        return out
    }
}
