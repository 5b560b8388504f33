import CourierCore
import Synchronization

/// Token buckets keyed by a string (a write key, a client address): each key may spend `burst`
/// requests at once and regains `perSecond` a second.
///
/// Memory is bounded: at most `maximumKeys` buckets are kept; when full, the buckets that have
/// refilled (idle keys, which would start full anyway) are dropped first, then the fullest half:
/// a flood of fresh keys (a client with many addresses) cannot empty the table and so give a
/// limited key a full bucket again; the keys that are limited are the last to go.
/// Keys are kept as their SHA-256 (`KeyDigest`), so a bucket costs the same whatever the length
/// of the text a client sent as its key.
///
/// ```swift
/// let perClient = RateLimiter(perSecond: 100, burst: 200, clock: SystemClock())
/// if case .limited(let retryAfter) = perClient.take(request.clientNetwork) {
///     throw HTTPError(.rateLimited, "slow down", headers: [("Retry-After", String(retryAfter))])
/// }
/// ```
public final class RateLimiter: Sendable {
    /// What `take` decided.
    public enum Decision: Sendable, Equatable {
        /// The request may go on.
        case allowed
        /// Refused: a token is back after this many whole seconds (at least 1).
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updatedAt: UInt64
    }

    private let perSecond: Double
    private let burst: Double
    private let maximumKeys: Int
    private let clock: any Clock
    private let buckets = Mutex<[KeyDigest: Bucket]>([:])

    /// Creates a limiter.
    /// - Parameters:
    ///   - perSecond: tokens regained per second (more than 0).
    ///   - burst: the bucket's size (at least 1).
    ///   - maximumKeys: buckets kept at most.
    ///   - clock: the source of time.
    public init(perSecond: Double, burst: Double, maximumKeys: Int = 100_000, clock: any Clock) {
        self.perSecond = max(perSecond, 1e-9)
        self.burst = max(burst, 1)
        self.maximumKeys = max(maximumKeys, 1)
        self.clock = clock
    }

    /// Spends one token of `key`.
    public func take(_ key: String) -> Decision {
        let key = KeyDigest(key)
        let now = clock.uptimeNanoseconds
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updatedAt: now)
            let elapsed = Double(now &- bucket.updatedAt) / 1e9
            bucket.tokens = min(burst, bucket.tokens + elapsed * perSecond)
            bucket.updatedAt = now
            let decision: Decision
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                decision = .allowed
            } else {
                let wait = (1 - bucket.tokens) / perSecond
                decision = .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
            }
            if buckets[key] == nil && buckets.count >= maximumKeys { evict(&buckets, now: now) }
            buckets[key] = bucket
            return decision
        }
    }

    /// Whether `key` has no token left now, without spending one: for limits that count only
    /// failures (wrong passwords), checked before the attempt and spent after a failure.
    public func check(_ key: String) -> Decision {
        let key = KeyDigest(key)
        let now = clock.uptimeNanoseconds
        return buckets.withLock { buckets in
            guard let bucket = buckets[key] else { return .allowed }
            let tokens = min(burst, bucket.tokens + Double(now &- bucket.updatedAt) / 1e9 * perSecond)
            if tokens >= 1 { return .allowed }
            return .limited(retryAfterSeconds: max(1, Int(((1 - tokens) / perSecond).rounded(.up))))
        }
    }

    /// Buckets held now.
    public var keyCount: Int { buckets.withLock { $0.count } }

    /// Bytes of keys the table holds now: a 32-byte digest per bucket, however long the keys.
    public var keyBytes: Int { keyCount * KeyDigest.byteCount }

    private func evict(_ buckets: inout [KeyDigest: Bucket], now: UInt64) {
        let full = burst
        buckets = buckets.filter { _, bucket in
            bucket.tokens + Double(now &- bucket.updatedAt) / 1e9 * perSecond < full
        }
        guard buckets.count >= maximumKeys else { return }
        // Every bucket is in use: keep the emptier half (the limited keys among them).
        let kept = buckets.map { key, bucket in
            (key, bucket, bucket.tokens + Double(now &- bucket.updatedAt) / 1e9 * perSecond)
        }.sorted { $0.2 < $1.2 }.prefix(maximumKeys / 2)
        buckets = Dictionary(uniqueKeysWithValues: kept.map { ($0.0, $0.1) })
    }
}
