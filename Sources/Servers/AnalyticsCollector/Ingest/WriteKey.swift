/// What a write key may look like, checked before any lookup: a key from a request is attacker
/// input, and a megabyte "key" must cost nothing.
enum WriteKey {
    /// The longest key accepted, in UTF-8 bytes.
    static let maximumBytes = 128

    /// Whether `key` is non-empty, at most `maximumBytes` long and free of control characters.
    static func isWellFormed(_ key: String) -> Bool {
        let utf8 = key.utf8
        guard !utf8.isEmpty, utf8.count <= maximumBytes else { return false }
        return !utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}
