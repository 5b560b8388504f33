import Foundation

/// The names a chat user gave to accounts (`/contacts add NAME ACCOUNT`), kept in the device's
/// directory as `contacts.json` (0600: who one talks to is private too). Names stand in for
/// account ids in what the chat prints, and wherever a command takes an account.
struct ChatContacts {
    /// The file the contacts are kept in.
    let path: String
    /// Account id by name.
    private(set) var accounts: [String: String]

    /// Reads the contacts in `directory`; none when the file does not exist yet.
    /// - Throws: `CommandError` when the file exists but cannot be read.
    init(directory: String) throws {
        path = directory + "/contacts.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            accounts = [:]
            return
        }
        guard let stored = try? JSONDecoder().decode([String: String].self, from: data) else {
            throw CommandError("\(path) is not a contacts file (a JSON object of names to account ids)")
        }
        accounts = stored
    }

    /// Whether `text` has the shape of an account id: a UUID, 36 characters.
    static func isAccountId(_ text: String) -> Bool { text.count == 36 && UUID(uuidString: text) != nil }

    /// Name by account id, for printing.
    var names: [String: String] { Dictionary(accounts.map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) }

    /// The name of `account` when it has one, else the account id itself.
    func name(of account: String) -> String { names[account] ?? account }

    /// The account a command means by `text`: a contact's name, or an account id as it is.
    /// - Throws: `CommandError` saying that `text` is neither.
    func account(for text: String) throws -> String {
        if let account = accounts[text] { return account }
        if Self.isAccountId(text) { return text.lowercased() }
        throw CommandError(
            "\(text) is neither a contact nor an account id (36 characters); add it with /contacts add \(text) ACCOUNT")
    }

    /// Names `account` `name` (replacing what that name meant before) and saves the file.
    /// - Throws: `CommandError` for a name shaped like an account id, an invalid account id, or
    ///   a file that cannot be written.
    mutating func add(name: String, account: String) throws {
        guard !Self.isAccountId(name) else { throw CommandError("a name cannot look like an account id: \(name)") }
        guard Self.isAccountId(account) else {
            throw CommandError("\(account) is not an account id (36 characters, as `courier chat register` prints)")
        }
        var updated = accounts
        updated[name] = account.lowercased()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try PrivateFile.save(Array(try encoder.encode(updated)), to: path)
        accounts = updated
    }
}
