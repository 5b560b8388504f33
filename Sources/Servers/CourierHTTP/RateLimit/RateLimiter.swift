import CourierCore
import Synchronization

/// Token buckets keyed by a string (a write key, a client address): each key may spend `burst`
/// requests at once and regains `perSecond` a second.
///
/// Memory is bounded: at most `maximumKeys` buckets are kept; when full, the buckets that have
/// refilled (idle keys, which would start full anyway) are dropped first, then the fullest half
/// by whole tokens, the newest first among equally full ones: a flood of fresh keys (a client
/// with many addresses, each spent to nothing) cannot empty the table and so give a limited key
/// a full bucket again; the keys that are limited, longest first, are the last to go. The half
/// is found by selection, in time linear in the table, under the lock at most once per
/// `maximumKeys / 4` new keys (when dropping the idle ones frees less than a quarter, the half
/// goes too).
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
        /// When the bucket was made: among equally spent buckets, the older stays.
        var createdAt: UInt64

        /// The tokens it holds at `now`, refilled at `perSecond` up to `burst`.
        func tokens(at now: UInt64, perSecond: Double, burst: Double) -> Double {
            min(burst, tokens + Double(now &- updatedAt) / 1e9 * perSecond)
        }
    }

    /// A bucket as eviction ranks it: by whole tokens now (what decides a request; a limited
    /// key regains fractions of a token while fresh keys are spent to nothing), then by age,
    /// older first.
    private struct Ranked: Comparable {
        let key: KeyDigest
        let tokens: Double
        let bucket: Bucket

        static func < (lhs: Ranked, rhs: Ranked) -> Bool {
            lhs.tokens != rhs.tokens ? lhs.tokens < rhs.tokens : lhs.bucket.createdAt < rhs.bucket.createdAt
        }

        static func == (lhs: Ranked, rhs: Ranked) -> Bool {
            lhs.tokens == rhs.tokens && lhs.bucket.createdAt == rhs.bucket.createdAt
        }
    }

    private let perSecond: Double
    private let burst: Double
    private let maximumKeys: Int
    private let clock: any Clock
    private let buckets = Mutex<[KeyDigest: Bucket]>([:])
    /// Evictions so far (each a pass over the whole table under the lock).
    private let evictions = Atomic<Int>(0)

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
            var bucket = buckets[key] ?? Bucket(tokens: burst, updatedAt: now, createdAt: now)
            bucket.tokens = bucket.tokens(at: now, perSecond: perSecond, burst: burst)
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
            let tokens = bucket.tokens(at: now, perSecond: perSecond, burst: burst)
            if tokens >= 1 { return .allowed }
            return .limited(retryAfterSeconds: max(1, Int(((1 - tokens) / perSecond).rounded(.up))))
        }
    }

    /// Buckets held now.
    public var keyCount: Int { buckets.withLock { $0.count } }

    /// Bytes of keys the table holds now: a 32-byte digest per bucket, however long the keys.
    public var keyBytes: Int { keyCount * KeyDigest.byteCount }

    /// Evictions so far: each is a pass over the whole table under the lock.
    var evictionCount: Int { evictions.load(ordering: .relaxed) }

    private func evict(_ buckets: inout [KeyDigest: Bucket], now: UInt64) {
        evictions.add(1, ordering: .relaxed)
        buckets = buckets.filter { _, bucket in bucket.tokens(at: now, perSecond: perSecond, burst: burst) < burst }
        // Enough room made: the next eviction is a quarter of the table away.
        guard buckets.count > maximumKeys * 3 / 4 else { return }
        // Most buckets are in use: keep the emptier half (the limited keys among them), the older
        // first among equals.
        var ranked = buckets.map { key, bucket in
            Ranked(
                key: key, tokens: bucket.tokens(at: now, perSecond: perSecond, burst: burst).rounded(.down),
                bucket: bucket)
        }
        let kept = maximumKeys / 2
        ranked.selectSmallest(kept)
        buckets = Dictionary(uniqueKeysWithValues: ranked.prefix(kept).map { ($0.key, $0.bucket) })
    }
}
