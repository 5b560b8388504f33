import CourierCore

/// Groups this device belongs to: their mode and members (accounts).
enum GroupTable {
    /// Group conversations are `group:<id>`.
    static let conversationPrefix = "group:"

    static func save(group: String, mode: GroupMode, members: [String], db: Database) throws {
        try db.run(
            "INSERT OR REPLACE INTO messenger_groups (group_id, mode, members) VALUES (?, ?, ?)",
            [.text(group), .text(mode.rawValue), .text(members.sorted().joined(separator: "\n"))])
    }

    static func load(group: String, db: Database) throws -> (mode: GroupMode, members: [String])? {
        try db.query("SELECT mode, members FROM messenger_groups WHERE group_id = ?", [.text(group)]) { row in
            (
                GroupMode(rawValue: row.text(0) ?? "") ?? .pairwise,
                (row.text(1) ?? "").split(separator: "\n").map(String.init)
            )
        }.first
    }

    /// Devices that hold this device's current sender key for `group`.
    static func shares(group: String, db: Database) throws -> Set<String> {
        Set(
            try db.query("SELECT account, device FROM messenger_sender_key_shares WHERE group_id = ?", [.text(group)]) {
                "\($0.text(0) ?? "").\($0.int(1))"
            })
    }

    static func addShare(group: String, account: String, device: UInt32, db: Database) throws {
        try db.run(
            "INSERT OR IGNORE INTO messenger_sender_key_shares (group_id, account, device) VALUES (?, ?, ?)",
            [.text(group), .text(account), .integer(Int64(device))])
    }

    static func clearShares(group: String, db: Database) throws {
        try db.run("DELETE FROM messenger_sender_key_shares WHERE group_id = ?", [.text(group)])
    }
}
