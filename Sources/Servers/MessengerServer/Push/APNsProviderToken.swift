import CourierCore
import CourierHTTP
import Synchronization

/// The JWT APNs takes as `authorization: bearer …`: `{"alg":"ES256","kid":…}.{"iss":team,"iat":…}`
/// signed with the `.p8` key, reused until it is `tokenLifetimeSeconds` old.
final class APNsProviderToken: Sendable {
    private let signer: ES256Signer
    private let teamId: String
    private let keyId: String
    private let lifetime: Int64
    private let clock: any Clock
    private let current = Mutex<(token: String, issuedAt: Int64)?>(nil)

    init(configuration: APNsConfiguration, clock: any Clock) throws(APNsError) {
        signer = try ES256Signer(pem: configuration.privateKeyPEM)
        teamId = configuration.teamId
        keyId = configuration.keyId
        lifetime = configuration.tokenLifetimeSeconds
        self.clock = clock
    }

    /// The token to send now: the cached one, or a fresh one when it is too old.
    func token() throws(APNsError) -> String {
        let now = clock.nowMilliseconds / 1000
        if let cached = current.withLock({ $0 }), now - cached.issuedAt < lifetime { return cached.token }
        let header = Base64.encodeURL(JSONWriter.encode(["alg": "ES256", "kid": .string(keyId)]))
        let claims = Base64.encodeURL(JSONWriter.encode(["iss": .string(teamId), "iat": .int(now)]))
        let input = header + "." + claims
        let token = input + "." + Base64.encodeURL(try signer.sign(Array(input.utf8)))
        current.withLock { $0 = (token, now) }
        return token
    }

    /// Forgets the cached token (APNs said it expired or is invalid).
    func invalidate() { current.withLock { $0 = nil } }
}
