import CourierCore

/// Who the events are about, persisted in the queue's state table.
struct Identity: Sendable, Equatable {
    var anonymousId: String
    var userId: String?
    var traits: [String: JSONValue] = [:]

    static func load(from queue: EventQueue) -> Identity {
        let anonymousId = queue.value("anonymousId") ?? Identifier.uuid()
        var identity = Identity(anonymousId: anonymousId, userId: queue.value("userId"))
        if let text = queue.value("traits"), let traits = (try? JSONParser.parse(text))?.objectValue {
            identity.traits = traits
        }
        return identity
    }

    /// Forgets the stored ids and traits (consent was revoked).
    static func delete(from queue: EventQueue) throws {
        for key in ["anonymousId", "userId", "traits"] { try queue.setValue(nil, for: key) }
    }

    func save(to queue: EventQueue) throws {
        try queue.setValue(anonymousId, for: "anonymousId")
        try queue.setValue(userId, for: "userId")
        try queue.setValue(traits.isEmpty ? nil : JSONWriter.string(.object(traits)), for: "traits")
    }
}
