import CourierCore
import CourierHTTP
import Synchronization

/// Who made a request: an account's device, proven by HTTP Basic `account.device:password`.
/// Internal: no public API takes or returns one.
struct AuthenticatedDevice: Sendable, Hashable {
    /// The account's id.
    let accountId: String
    /// The device's id.
    let deviceId: Int
}

/// Checks device credentials against the store on every request: a salted token hash costs
/// microseconds, so nothing is cached (a device removed on one instance is refused by all at
/// once). A per-address budget of wrong attempts answers 429 before any hash when spent.
///
/// Legacy Argon2id credentials are verified under a process-wide `SlotGate` (503 with
/// `Retry-After` when every slot is busy) and replaced by a salted token hash at the first
/// success. An unknown account or device is verified against a dummy hash, so the time of a
/// wrong answer does not tell whether the account exists.
final class DeviceAuthenticator: Sendable {
    /// What verifying a credential cost, for tests and metrics.
    struct Counters: Sendable {
        /// Salted token hashes computed (new secrets and verifications, the dummy's included).
        var tokenHashes = 0
        /// Argon2id verifications of legacy credentials.
        var argon2idVerifications = 0
        /// Legacy credentials replaced by salted token hashes.
        var migrated = 0
        /// Legacy verifications refused because every slot of the gate was busy.
        var refusedBusy = 0
    }

    private enum Verdict {
        case verified
        case verifiedLegacy
        case wrong
        case busy
    }

    private let store: any MessengerStore
    private let failures: RateLimiter?
    /// The cap on concurrent Argon2id verifications.
    let gate: SlotGate
    private let counts = Mutex(Counters())
    /// What unknown devices are verified against: the same work as a real one.
    private let dummy = SaltedTokenHash(hashing: Base64.encode(SodiumRandom.bytes(32)))

    init(store: any MessengerStore, clock: any Clock, configuration: MessengerConfiguration) {
        self.store = store
        failures = configuration.failedAuthenticationRate.map { RateLimiter($0, clock: clock) }
        gate = SlotGate(limit: configuration.maximumConcurrentPasswordHashes)
    }

    /// The counters so far.
    var counters: Counters { counts.withLock { $0 } }

    /// The stored form of a new device's secret (a salted token hash).
    func hashNewSecret(_ secret: String) -> String {
        counts.withLock { $0.tokenHashes += 1 }
        return SaltedTokenHash(hashing: secret).encoded
    }

    /// The device `request` authenticates as.
    /// - Throws: `HTTPError` 401 for missing or wrong credentials, 429 after too many, 503
    ///   when a legacy credential cannot be verified now.
    func authenticate(_ request: HTTPRequest) throws(HTTPError) -> AuthenticatedDevice {
        guard let (user, password) = request.basicCredentials else {
            // No `WWW-Authenticate` header: swift-corelibs-foundation's URLSession on Linux waits
            // forever on a 401 that carries one (the SDKs' own client is URLSession).
            throw HTTPError(.unauthorized, "send HTTP Basic credentials account.device:password")
        }
        return try authenticate(user: user, password: password, source: request.clientNetwork)
    }

    func authenticate(user: String, password: String, source: String) throws(HTTPError) -> AuthenticatedDevice {
        if case .limited(let seconds) = failures?.check(source) ?? .allowed {
            throw HTTPError.rateLimited(retryAfter: seconds)
        }
        let device = Self.parse(user)
        var stored: String?
        if let device {
            do {
                stored = try store.device(accountId: device.accountId, deviceId: device.deviceId)?.passwordHash
            } catch {
                throw HTTPError.store(error)
            }
        }
        switch verify(password, against: stored) {
        case .verified:
            if let device { return device }
        case .verifiedLegacy:
            if let device, let stored {
                migrate(device, password: password, from: stored)
                return device
            }
        case .busy:
            var error = HTTPError(.busy, "too many sign-ins are being checked; retry after 1 s")
            error.headers = [("Retry-After", "1")]
            throw error
        case .wrong:
            break
        }
        if case .limited(let seconds) = failures?.take(source) ?? .allowed {
            throw HTTPError.rateLimited(retryAfter: seconds)
        }
        throw HTTPError(.unauthorized, "wrong account, device or password")
    }

    private func verify(_ password: String, against stored: String?) -> Verdict {
        guard password.utf8.count <= 1_024 else { return .wrong }
        if let stored, PasswordHasher.isArgon2id(stored) {
            let verified = gate.run { PasswordHasher.verify(password, against: stored) }
            counts.withLock { verified == nil ? ($0.refusedBusy += 1) : ($0.argon2idVerifications += 1) }
            guard let verified else { return .busy }
            return verified ? .verifiedLegacy : .wrong
        }
        counts.withLock { $0.tokenHashes += 1 }
        guard let stored, let hash = SaltedTokenHash(encoded: stored) else {
            _ = dummy.verify(password)
            return .wrong
        }
        return hash.verify(password) ? .verified : .wrong
    }

    /// Replaces a legacy hash that just verified, when the secret meets today's rule (a weaker
    /// one keeps its Argon2id hash: a fast hash is only safe for a random secret).
    private func migrate(_ device: AuthenticatedDevice, password: String, from legacy: String) {
        guard DeviceSecret.isAcceptable(password) else { return }
        let replacement = hashNewSecret(password)
        let replaced = try? store.replacePasswordHash(
            accountId: device.accountId, deviceId: device.deviceId, expected: legacy, with: replacement)
        if replaced == true { counts.withLock { $0.migrated += 1 } }
    }

    /// `account.device` → its parts.
    static func parse(_ user: String) -> AuthenticatedDevice? {
        guard let dot = user.lastIndex(of: "."), let deviceId = Int(user[user.index(after: dot)...]), deviceId > 0,
            dot > user.startIndex, user.utf8.count <= 128
        else { return nil }
        return AuthenticatedDevice(accountId: String(user[..<dot]), deviceId: deviceId)
    }
}
