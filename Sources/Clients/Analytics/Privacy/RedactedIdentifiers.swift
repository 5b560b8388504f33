/// What the scrubber made of the last identifiers it was given, so the ids that come with every
/// event (the anonymous id, the user id) are scanned once, not once per event: scanning a UUID
/// anonymous id (a dozen digits: a possible phone number) was about a sixth of recording an event.
/// Keyed by the id itself, so an id a plugin changed is scanned afresh.
package struct RedactedIdentifiers: Sendable {
    /// Ids remembered at once: the anonymous, user, group and previous ids of one event.
    static let capacity = 4

    private var entries: [(id: String, redacted: String)] = []
    private var replaced = 0

    package init() {}

    /// `id` as `scrubber.redactIdentifier` gives it, from memory when it was seen lately.
    package mutating func redacted(_ id: String, by scrubber: PIIScrubber) -> String {
        for entry in entries where entry.id == id { return entry.redacted }
        let redacted = scrubber.redactIdentifier(id)
        if entries.count < Self.capacity {
            entries.append((id, redacted))
        } else {
            entries[replaced] = (id, redacted)
            replaced = (replaced + 1) % Self.capacity
        }
        return redacted
    }
}
