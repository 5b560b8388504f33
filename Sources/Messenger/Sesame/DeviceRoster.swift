import CourierCore

/// The devices this device knows for each account (its own included). A device the server called
/// extra is marked removed, not forgotten: its session stays, so messages it sent just before
/// it went still decrypt; it is no longer sent to.
enum DeviceRoster {
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

    static func remove(account: String, device: UInt32, now: Int64, db: Database) throws {
        try db.run(
            "UPDATE messenger_roster SET removed_at = ? WHERE account = ? AND device = ? AND removed_at IS NULL",
            [.integer(now), .text(account), .integer(Int64(device))])
    }
}
