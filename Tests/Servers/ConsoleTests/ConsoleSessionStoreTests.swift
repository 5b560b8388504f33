import Console
import Testing

/// The session store seam, one body per store: expiry, the cap, sign-out.
@Suite(.timeLimit(.minutes(2)))
struct ConsoleSessionStoreTests {
    static func record(_ number: UInt8, expiresAt: Int64) -> ConsoleSessionRecord {
        ConsoleSessionRecord(
            idDigest: [UInt8](repeating: number, count: 32), csrfToken: "csrf-\(number)",
            expiresAtMilliseconds: expiresAt)
    }

    /// Which of the sessions `record(n)` for `numbers` are live at `now`.
    static func live(in store: any ConsoleSessionStore, _ numbers: ClosedRange<UInt8>, now: Int64) async throws
        -> [UInt8]
    {
        var live: [UInt8] = []
        for number in numbers {
            if try await store.session(idDigest: record(number, expiresAt: 0).idDigest, now: now) != nil {
                live.append(number)
            }
        }
        return live
    }

    @Test(arguments: SessionBackend.allCases)
    func aSessionLastsUntilItExpiresOrEnds(backend: SessionBackend) async throws {
        let store = try await backend.makeStore()
        let session = Self.record(1, expiresAt: 2_000)
        try await store.insert(session, maximumSessions: 10, now: 1_000)
        #expect(try await store.session(idDigest: session.idDigest, now: 1_999) == session)
        #expect(try await store.session(idDigest: session.idDigest, now: 2_000) == nil)
        #expect(try await store.session(idDigest: [UInt8](repeating: 2, count: 32), now: 1_000) == nil)
        let other = Self.record(3, expiresAt: 5_000)
        try await store.insert(other, maximumSessions: 10, now: 1_000)
        try await store.remove(idDigest: other.idDigest)
        #expect(try await store.session(idDigest: other.idDigest, now: 1_000) == nil)
    }

    /// At the cap the sessions closest to expiry go first, and the new one always stays, even
    /// when all of them end at the same moment.
    @Test(arguments: SessionBackend.allCases)
    func theMostSessionsAreCappedClosestToExpiryFirst(backend: SessionBackend) async throws {
        let store = try await backend.makeStore()
        for number in UInt8(1)...5 {
            try await store.insert(
                Self.record(number, expiresAt: 10_000 + Int64(number)), maximumSessions: 3, now: 1_000)
        }
        #expect(try await Self.live(in: store, 1...5, now: 1_000) == [3, 4, 5])
        for number in UInt8(6)...8 {
            try await store.insert(Self.record(number, expiresAt: 20_000), maximumSessions: 2, now: 1_000)
            let kept = try await store.session(idDigest: Self.record(number, expiresAt: 0).idDigest, now: 1_000)
            #expect(kept?.csrfToken == "csrf-\(number)")
        }
        #expect(try await Self.live(in: store, 1...8, now: 1_000).count == 2)
    }

    /// Expired sessions make room: they are dropped before the cap counts.
    @Test(arguments: SessionBackend.allCases)
    func expiredSessionsAreDroppedBeforeTheCap(backend: SessionBackend) async throws {
        let store = try await backend.makeStore()
        try await store.insert(Self.record(1, expiresAt: 1_500), maximumSessions: 2, now: 1_000)
        try await store.insert(Self.record(2, expiresAt: 9_000), maximumSessions: 2, now: 1_000)
        try await store.insert(Self.record(3, expiresAt: 9_500), maximumSessions: 2, now: 2_000)
        #expect(try await store.session(idDigest: Self.record(2, expiresAt: 0).idDigest, now: 2_000) != nil)
        #expect(try await store.session(idDigest: Self.record(3, expiresAt: 0).idDigest, now: 2_000) != nil)
    }
}
