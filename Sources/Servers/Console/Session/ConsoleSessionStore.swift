import CourierCore
import Synchronization

/// The console's sessions, in memory: signing in creates one, signing out or expiry ends it. A
/// restarted server signs everyone out, which is what an admin session should do.
public final class ConsoleSessionStore: Sendable {
    private let lifetime: Duration
    private let maximumSessions: Int
    private let clock: any Clock
    private let sessions = Mutex<[String: ConsoleSession]>([:])

    /// Creates an empty store.
    /// - Parameters:
    ///   - lifetime: how long a session lasts.
    ///   - maximumSessions: sessions kept at most; the one closest to expiry goes first.
    ///   - clock: the source of time for expiry.
    public init(lifetime: Duration, maximumSessions: Int, clock: any Clock) {
        self.lifetime = lifetime
        self.maximumSessions = max(1, maximumSessions)
        self.clock = clock
    }

    /// Starts a session with fresh random id and CSRF token.
    public func create() -> ConsoleSession {
        let now = clock.nowMilliseconds
        let session = ConsoleSession(
            id: Self.randomToken(), csrfToken: Self.randomToken(),
            expiresAtMilliseconds: now + lifetime.wholeMilliseconds)
        sessions.withLock { sessions in
            sessions = sessions.filter { $0.value.expiresAtMilliseconds > now }
            if sessions.count >= maximumSessions,
                let oldest = sessions.min(by: { $0.value.expiresAtMilliseconds < $1.value.expiresAtMilliseconds })
            {
                sessions.removeValue(forKey: oldest.key)
            }
            sessions[session.id] = session
        }
        return session
    }

    /// The live session with this id, or `nil` when there is none or it has expired.
    public func session(id: String) -> ConsoleSession? {
        let now = clock.nowMilliseconds
        return sessions.withLock { sessions in
            guard let session = sessions[id] else { return nil }
            guard session.expiresAtMilliseconds > now else {
                sessions.removeValue(forKey: id)
                return nil
            }
            return session
        }
    }

    /// Ends the session with this id.
    public func end(id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// 32 random bytes from the system's cryptographic generator, as hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text
    }
}
