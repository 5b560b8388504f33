import CourierCore
import CourierCrypto
import CourierHTTP

/// Sessions through the store: the store sees only the digest of a session id.
extension Console {
    /// The request's live session, or `signed_out`.
    func requireSession(_ request: HTTPRequest) async throws -> ConsoleSession {
        guard let id = request.cookie(Self.cookieName),
            let record = try await storing({
                try await sessions.session(idDigest: Self.digest(id), now: clock.nowMilliseconds)
            })
        else {
            throw HTTPError(.signedOut, "sign in to the console")
        }
        return ConsoleSession(id: id, csrfToken: record.csrfToken, expiresAtMilliseconds: record.expiresAtMilliseconds)
    }

    /// Starts a session with fresh random id and CSRF token, and keeps it.
    func createSession() async throws -> ConsoleSession {
        let now = clock.nowMilliseconds
        let session = ConsoleSession(
            id: ConsoleSession.randomToken(), csrfToken: ConsoleSession.randomToken(),
            expiresAtMilliseconds: now + configuration.sessionLifetime.wholeMilliseconds)
        let record = ConsoleSessionRecord(
            idDigest: Self.digest(session.id), csrfToken: session.csrfToken,
            expiresAtMilliseconds: session.expiresAtMilliseconds)
        try await storing {
            try await sessions.insert(record, maximumSessions: configuration.maximumSessions, now: now)
        }
        return session
    }

    /// Ends `session` on every instance that shares the store.
    func endSession(_ session: ConsoleSession) async throws {
        try await storing { try await sessions.remove(idDigest: Self.digest(session.id)) }
    }

    /// What a store keeps of a session id.
    static func digest(_ id: String) -> [UInt8] { Digest.sha256(Array(id.utf8)) }

    /// Runs a store call; its failure becomes 503 `storage_unavailable`.
    private func storing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw HTTPError(.storageUnavailable, "the console's session store is unavailable")
        }
    }
}
