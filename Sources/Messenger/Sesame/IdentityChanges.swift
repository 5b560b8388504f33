import CourierCore
import SignalProtocol

/// Contacts whose identity key changed and not yet accepted: sending to them is blocked.
enum IdentityChanges {
    static func record(account: String, key: IdentityKey, now: Int64, db: Database) throws {
        try db.run(
            "INSERT OR REPLACE INTO messenger_identity_changes (account, identity_key, seen_at) VALUES (?, ?, ?)",
            [.text(account), .blob(key.serialized), .integer(now)])
    }

    static func pending(account: String, db: Database) throws -> IdentityKey? {
        try db.query("SELECT identity_key FROM messenger_identity_changes WHERE account = ?", [.text(account)]) {
            try? IdentityKey(serialized: $0.bytes(0))
        }.first ?? nil
    }

    static func clear(account: String, db: Database) throws {
        try db.run("DELETE FROM messenger_identity_changes WHERE account = ?", [.text(account)])
    }
}
