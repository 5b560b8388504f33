import Synchronization

/// The console's sessions in memory, the default: a restarted server signs everyone out, which
/// is what an admin session should do. Instances behind one load balancer do not share them
/// (`PostgresConsoleSessionStore` does).
public final class InMemoryConsoleSessionStore: ConsoleSessionStore {
    private let sessions = Mutex<[[UInt8]: ConsoleSessionRecord]>([:])

    /// Creates an empty store.
    public init() {}

    /// See `ConsoleSessionStore.insert(_:maximumSessions:now:)`.
    public func insert(_ session: ConsoleSessionRecord, maximumSessions: Int, now: Int64) {
        sessions.withLock { sessions in
            sessions = sessions.filter { $0.value.expiresAtMilliseconds > now }
            while sessions.count >= max(1, maximumSessions),
                let oldest = sessions.min(by: { $0.value.expiresAtMilliseconds < $1.value.expiresAtMilliseconds })
            {
                sessions.removeValue(forKey: oldest.key)
            }
            sessions[session.idDigest] = session
        }
    }

    /// See `ConsoleSessionStore.session(idDigest:now:)`.
    public func session(idDigest: [UInt8], now: Int64) -> ConsoleSessionRecord? {
        sessions.withLock { sessions in
            guard let session = sessions[idDigest] else { return nil }
            guard session.expiresAtMilliseconds > now else {
                sessions.removeValue(forKey: idDigest)
                return nil
            }
            return session
        }
    }

    /// See `ConsoleSessionStore.remove(idDigest:)`.
    public func remove(idDigest: [UInt8]) {
        _ = sessions.withLock { $0.removeValue(forKey: idDigest) }
    }
}
