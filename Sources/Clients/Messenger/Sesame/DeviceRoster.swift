import CourierCore

/// The devices this device knows for each account (its own included). A device the server called
/// extra is marked removed, not forgotten: its session stays, so messages it sent just before
/// it went still decrypt; it is no longer sent to.
enum DeviceRoster {
    /// How long a removed device's session is kept for its late messages.
    static let removedDeviceGrace: Int64 = 7 * 24 * 3600 * 1000

    /// Devices removed before `cutoff`, forgotten from the roster; returns them so their sessions
    /// can be cleared.
    static func forgetRemoved(before cutoff: Int64, db: Database) throws -> [(account: String, device: UInt32)] {
        let gone = try db.query(
            "SELECT account, device FROM messenger_roster WHERE removed_at IS NOT NULL AND removed_at < ?",
            [.integer(cutoff)]
        ) { ($0.text(0) ?? "", UInt32(truncatingIfNeeded: $0.int(1))) }
        try db.run(
            "DELETE FROM messenger_roster WHERE removed_at IS NOT NULL AND removed_at < ?", [.integer(cutoff)])
        return gone
    }

    static func active(account: String, db: Database) throws -> [UInt32] {
        try db.query(
            "SELECT device FROM messenger_roster WHERE account = ? AND removed_at IS NULL ORDER BY device",
            [.text(account)]
        ) { UInt32(truncatingIfNeeded: $0.int(0)) }
    }

    /// Every device of `account` ever known, removed ones too.
    static func all(account: String, db: Database) throws -> [UInt32] {
        try db.query("SELECT device FROM messenger_roster WHERE account = ?", [.text(account)]) {
            UInt32(truncatingIfNeeded: $0.int(0))
        }
    }

    static func add(account: String, device: UInt32, db: Database) throws {
        try db.run(
            """
            INSERT INTO messenger_roster (account, device, removed_at) VALUES (?, ?, NULL)
            ON CONFLICT (account, device) DO UPDATE SET removed_at = NULL
            """, [.text(account), .integer(Int64(device))])
    }

    /// Makes a device known that wrote to this one in a session of its own (a prekey message):
    /// replies then go in that session instead of a new one from a fetched bundle, which would
    /// spend one of the sender's one-time prekeys. A device marked removed stays removed: its late
    /// messages still decrypt, but it is not sent to again.
    static func learn(account: String, device: UInt32, db: Database) throws {
        try db.run(
            """
            INSERT INTO messenger_roster (account, device, removed_at) VALUES (?, ?, NULL)
            ON CONFLICT (account, device) DO NOTHING
            """, [.text(account), .integer(Int64(device))])
    }

    static func remove(account: String, device: UInt32, now: Int64, db: Database) throws {
        try db.run(
            "UPDATE messenger_roster SET removed_at = ? WHERE account = ? AND device = ? AND removed_at IS NULL",
            [.integer(now), .text(account), .integer(Int64(device))])
    }
}
