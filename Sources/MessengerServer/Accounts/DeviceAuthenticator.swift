import CourierCore
import CourierHTTP
import Synchronization

/// Who made a request: an account's device, proven by HTTP Basic `account.device:password`.
public struct AuthenticatedDevice: Sendable, Hashable {
    /// The account's id.
    public let accountId: String
    /// The device's id.
    public let deviceId: Int

    /// Names a device.
    public init(accountId: String, deviceId: Int) {
        self.accountId = accountId
        self.deviceId = deviceId
    }
}

/// Checks device credentials: Argon2id once, then a short-lived cache of verified credentials
/// (keyed by their SHA-256, so the cache holds no password), and a per-address budget of wrong
/// attempts (429 when spent, before any hash is computed).
final class DeviceAuthenticator: Sendable {
    private struct Verified {
        let device: AuthenticatedDevice
        let expiresAt: UInt64
    }

    private let store: any MessengerStore
    private let clock: any Clock
    private let cacheNanoseconds: UInt64
    private let failures: RateLimiter?
    private let verified = Mutex<[[UInt8]: Verified]>([:])
    private let maximumCached = 100_000

    init(store: any MessengerStore, clock: any Clock, configuration: MessengerConfiguration) {
        self.store = store
        self.clock = clock
        cacheNanoseconds = UInt64(max(configuration.credentialCacheMilliseconds, 0)) * 1_000_000
        failures = configuration.failedAuthenticationRate.map { RateLimiter($0, clock: clock) }
    }

    /// The device `request` authenticates as.
    /// - Throws: `MessengerError` 401 for missing or wrong credentials, 429 after too many.
    func authenticate(_ request: HTTPRequest) throws(MessengerError) -> AuthenticatedDevice {
        guard let (user, password) = request.basicCredentials else {
            // No `WWW-Authenticate` header: swift-corelibs-foundation's URLSession on Linux waits
            // forever on a 401 that carries one (the SDKs' own client is URLSession).
            throw MessengerError(401, "unauthorized", "send HTTP Basic credentials account.device:password")
        }
        return try authenticate(user: user, password: password, source: request.remoteAddress)
    }

    func authenticate(user: String, password: String, source: String) throws(MessengerError) -> AuthenticatedDevice {
        let key = SodiumRandom.sha256(Array("\(user):\(password)".utf8))
        let now = clock.uptimeNanoseconds
        if let hit = verified.withLock({ $0[key] }), hit.expiresAt > now { return hit.device }
        if case .limited(let seconds) = failures?.check(source) ?? .allowed {
            throw MessengerError.rateLimited(retryAfter: seconds)
        }
        guard let device = Self.parse(user),
            let record = try? store.device(accountId: device.accountId, deviceId: device.deviceId),
            PasswordHasher.verify(password, against: record.passwordHash)
        else {
            if case .limited(let seconds) = failures?.take(source) ?? .allowed {
                throw MessengerError.rateLimited(retryAfter: seconds)
            }
            throw MessengerError(401, "unauthorized", "wrong account, device or password")
        }
        verified.withLock { cache in
            if cache.count >= maximumCached { cache = cache.filter { $0.value.expiresAt > now } }
            if cache.count >= maximumCached { cache.removeAll() }
            cache[key] = Verified(device: device, expiresAt: now &+ cacheNanoseconds)
        }
        return device
    }

    /// Forgets every cached credential of a removed device.
    func forget(_ device: AuthenticatedDevice) {
        verified.withLock { cache in cache = cache.filter { $0.value.device != device } }
    }

    /// `account.device` → its parts.
    static func parse(_ user: String) -> AuthenticatedDevice? {
        guard let dot = user.lastIndex(of: "."), let deviceId = Int(user[user.index(after: dot)...]), deviceId > 0,
            dot > user.startIndex, user.utf8.count <= 128
        else { return nil }
        return AuthenticatedDevice(accountId: String(user[..<dot]), deviceId: deviceId)
    }
}
