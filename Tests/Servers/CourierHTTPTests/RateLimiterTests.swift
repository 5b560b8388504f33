import CourierCore
@testable import CourierHTTP
import CourierTesting
import Testing

/// The rate limiter's table against keys chosen by a hostile client.
struct RateLimiterTests {
    /// A key of `length` bytes that differs from the others by its number.
    static func longKey(_ number: Int, length: Int = 65_536) -> String {
        var bytes = [UInt8](repeating: UInt8(ascii: "k"), count: length)
        for (index, digit) in String(number).utf8.enumerated() { bytes[length - 8 + index] = digit }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// 10,000 distinct 64 KB keys (a write key, a header a middleware keys on): the table keeps a
    /// fixed-size digest per key, so it holds at most `maximumKeys` × 32 bytes of keys, not what
    /// the clients sent.
    @Test func distinctLongKeysKeepTheTableBoundedInBytes() {
        let limiter = RateLimiter(perSecond: 1, burst: 1, maximumKeys: 1_000, clock: ManualClock())
        for number in 0..<10_000 { _ = limiter.take(Self.longKey(number)) }
        #expect(limiter.keyCount <= 1_000)
        #expect(limiter.keyBytes <= 1_000 * 32)
        #expect(limiter.keyBytes == limiter.keyCount * 32)
    }

    /// A flood of fresh keys fills the table, and a key that was limited stays limited: the
    /// table lets go of the fullest buckets, not of all of them (an attacker with many addresses
    /// emptied it, and so refilled its own limited key, and everyone's failed-login budget).
    @Test func aFloodOfFreshKeysDoesNotGiveALimitedKeyItsBurstAgain() {
        let limiter = RateLimiter(perSecond: 0.001, burst: 3, maximumKeys: 100, clock: ManualClock())
        for _ in 0..<3 { #expect(limiter.take("attacker") == .allowed) }
        #expect(limiter.take("attacker") != .allowed)
        for number in 0..<1_000 { _ = limiter.take("fresh-\(number)") }
        #expect(limiter.keyCount <= 100)
        #expect(limiter.take("attacker") != .allowed)
        #expect(limiter.check("attacker") != .allowed)
    }

    /// The flood spends each fresh key to nothing, while the limited key has regained a
    /// fraction of a token: by whole tokens they tie, and the older (limited) key is kept.
    @Test func freshKeysSpentToNothingDoNotPushOutAnOlderLimitedKey() {
        let clock = ManualClock()
        let limiter = RateLimiter(perSecond: 0.001, burst: 1, maximumKeys: 100, clock: clock)
        #expect(limiter.take("attacker") == .allowed)
        #expect(limiter.take("attacker") != .allowed)
        clock.advance(by: .milliseconds(1))
        for number in 0..<1_000 {
            #expect(limiter.take("fresh-\(number)") == .allowed)
            #expect(limiter.take("fresh-\(number)") != .allowed)
        }
        #expect(limiter.keyCount <= 100)
        #expect(limiter.check("attacker") != .allowed)
    }

    /// Keys arriving as fast as old ones refill (one a second, each refilling in 100 s): every
    /// eviction finds one idle bucket to drop, and used to stop there, so every new key paid a
    /// pass over the whole table under the lock. Now an eviction that frees less than a quarter
    /// takes the table to half, and passes come once per quarter of the table at most.
    @Test func keysArrivingAsOldOnesRefillDoNotMakeEveryTakeAPass() {
        let clock = ManualClock()
        let limiter = RateLimiter(perSecond: 0.01, burst: 1, maximumKeys: 100, clock: clock)
        for number in 0..<1_000 {
            clock.advance(by: .seconds(1))
            _ = limiter.take("key-\(number)")
        }
        #expect(limiter.keyCount <= 100)
        #expect(limiter.evictionCount <= 1_000 / 25)
    }

    /// Keys that differ only in their last byte are still buckets of their own.
    @Test func longKeysThatDifferAtTheEndAreKeptApart() {
        let limiter = RateLimiter(perSecond: 1, burst: 1, clock: ManualClock())
        #expect(limiter.take(Self.longKey(1)) == .allowed)
        #expect(limiter.take(Self.longKey(2)) == .allowed)
        #expect(limiter.take(Self.longKey(1)) == .limited(retryAfterSeconds: 1))
        #expect(limiter.check(Self.longKey(2)) == .limited(retryAfterSeconds: 1))
        #expect(limiter.check(Self.longKey(3)) == .allowed)
    }
}
