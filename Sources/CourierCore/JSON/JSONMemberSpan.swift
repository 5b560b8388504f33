/// Where one member of a JSON object lies in the bytes it was parsed from: `range` covers
/// `"key":value` exactly as sent (whitespace inside the value included).
public struct JSONMemberSpan: Sendable, Equatable {
    /// The member's key, unescaped.
    public let key: String
    /// The bytes of `"key":value`.
    public let range: Range<Int>

    /// Creates a span.
    public init(key: String, range: Range<Int>) {
        self.key = key
        self.range = range
    }
}
