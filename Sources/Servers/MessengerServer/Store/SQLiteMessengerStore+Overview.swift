import CourierCore

extension SQLiteMessengerStore {
    /// Devices with their mailbox depth and oldest envelope's expiry, by account and device id.
    /// Counts through the mailbox's (account, device, id) index: an operator's page, not a hot path.
    public func deviceOverview(limit: Int) throws(MessengerStoreError) -> [DeviceMailboxSummary] {
        try storing {
            try pool.read { db in
                try db.query(
                    """
                    SELECT d.account_id, d.device_id, d.name, d.push_kind,
                        (SELECT count(*) FROM mailbox m WHERE m.account_id = d.account_id AND m.device_id = d.device_id),
                        (SELECT min(m.expires_at) FROM mailbox m
                            WHERE m.account_id = d.account_id AND m.device_id = d.device_id)
                    FROM devices d ORDER BY d.account_id, d.device_id LIMIT ?1
                    """, [.integer(Int64(limit))], row: MessengerRows.overview)
            }
        }
    }
}
