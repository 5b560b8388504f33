/// Where one member of a JSON object lies in the bytes it was parsed from: `range` covers
/// `"key":value` exactly as sent (whitespace inside the value included).
package struct JSONMemberSpan: Sendable, Equatable {
    /// The member's key, unescaped.
    package let key: String
    /// The bytes of `"key":value`.
    package let range: Range<Int>

    /// Creates a span.
    package init(key: String, range: Range<Int>) {
        self.key = key
        self.range = range
    }
}
