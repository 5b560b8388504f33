import CourierCore
import SignalProtocol

extension MessengerClient {
    /// Keeps the published keys fresh: rotates the signed prekey when it is older than the
    /// configured lifetime (the previous one stays for sessions being opened against it) and
    /// uploads new one-time prekeys when the server holds fewer than the threshold. Also forgets
    /// the ids of envelopes processed longer ago than the server keeps envelopes (31 days), which
    /// can no longer be delivered again, and the sessions of devices removed more than 7 days ago
    /// (kept until then for the messages they sent just before).
    /// - Returns: how many one-time prekeys were uploaded.
    /// - Throws: `MessengerClientError`.
    @discardableResult
    public func maintainKeys() async throws -> Int {
        let now = clock.nowMilliseconds
        let rotation = try storage.transaction { stores, _, db in
            try db.run(
                "DELETE FROM messenger_processed_envelopes WHERE processed_at < ?",
                [.integer(now - Self.processedMemoryMilliseconds)])
            for (account, device) in try DeviceRoster.forgetRemoved(
                before: now - DeviceRoster.removedDeviceGrace, db: db)
            {
                // An empty record: the removed device's session states are gone.
                try stores.sessions.storeSession(SessionRecord(), for: ProtocolAddress(name: account, deviceId: device))
            }
            return try DeviceKeys.rotateIfDue(
                lifetime: configuration.signedPreKeyLifetime, stores: stores, db: db, nowMilliseconds: now)
        }
        if let rotation { try await api.uploadKeys(rotation, as: credentials) }
        let count = try await api.preKeyCount(as: credentials)
        guard count < configuration.preKeyRefillThreshold else { return 0 }
        return try await refillPreKeys(serverCount: count)
    }

    /// How long processed envelope ids are remembered: past the server's 30-day envelope lifetime.
    static let processedMemoryMilliseconds: Int64 = 31 * 24 * 3600 * 1000

    /// Uploads one-time prekeys up to a full batch (the socket's `keys/low` and `maintainKeys`).
    func refillPreKeys(serverCount: Int) async throws -> Int {
        let count = DeviceKeys.batchSize - serverCount
        guard count > 0 else { return 0 }
        let upload = try storage.transaction { stores, _, db in
            try DeviceKeys.refill(count: count, stores: stores, db: db)
        }
        try await api.uploadKeys(upload, as: credentials)
        return count
    }
}
