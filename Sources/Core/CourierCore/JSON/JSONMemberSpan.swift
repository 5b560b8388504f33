/// Where one member of a JSON object lies in the bytes it was parsed from: `range` covers
/// `"key":value` exactly as sent (whitespace inside the value included).
package struct JSONMemberSpan: Sendable, Equatable {
    /// The member's key, unescaped.
    package let key: String
    /// The bytes of `"key":value`.
    package let range: Range<Int>
    /// The member's value as read; objects and arrays the parse did not build (`shallowFromDepth`)
    /// are empty placeholders of their kind.
    package let value: JSONValue

    /// Creates a span.
    package init(key: String, range: Range<Int>, value: JSONValue = .null) {
        self.key = key
        self.range = range
        self.value = value
    }
}
