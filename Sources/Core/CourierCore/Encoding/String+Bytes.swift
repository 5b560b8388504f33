extension String {
    /// Whether the two strings are the same UTF-8 bytes, as SQLite's and PostgreSQL's keys compare
    /// them. `==` compares by canonical equivalence: two spellings of one accented text (`é`, and
    /// `e` with a combining accent) are equal to it and two keys to a database.
    public func hasSameBytes(as other: String) -> Bool {
        utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in mine.elementsEqual(theirs) }
        }.flatMap { $0 } ?? utf8.elementsEqual(other.utf8)
    }

    /// Whether this string sorts before `other` by their UTF-8 bytes, as SQLite's default
    /// collation orders text.
    public func precedesInBytes(_ other: String) -> Bool {
        utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in mine.lexicographicallyPrecedes(theirs) }
        }.flatMap { $0 } ?? utf8.lexicographicallyPrecedes(other.utf8)
    }

    /// Feeds the string's UTF-8 bytes and their count to `hasher`: a hash that agrees with
    /// `hasSameBytes(as:)`, where `hash(into:)` agrees with `==`.
    func hashBytes(into hasher: inout Hasher) {
        hasher.combine(utf8.count)
        if utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            for byte in utf8 { hasher.combine(byte) }
        }
    }
}

/// Text as a key that is equal only to the same UTF-8 bytes, as a database key compares: a
/// `String` key would merge two spellings of one accented text (`é`, and `e` with a combining
/// accent), which a database keeps as two keys.
public struct ExactText: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The text.
    public let text: String

    /// The key of `text`.
    public init(_ text: String) { self.text = text }

    /// The key of a literal.
    public init(stringLiteral text: String) { self.text = text }

    public var description: String { text }

    public static func == (left: ExactText, right: ExactText) -> Bool { left.text.hasSameBytes(as: right.text) }

    public func hash(into hasher: inout Hasher) { text.hashBytes(into: &hasher) }
}
