/// One member of an object of the sized array (a batch's message), read without building it:
/// where its key and value lie in the bytes it was parsed from, and the value's kind. Plain data,
/// so a batch's members take one array and nothing to release one by one.
package struct JSONRawMember: Sendable, Equatable {
    /// The kind of a member's value.
    package enum Kind: UInt8, Sendable {
        case string, number, object, array, bool, null
    }

    /// The bytes of `"key":value`.
    package let range: Range<Int>
    /// The key's bytes between its quotes, as sent.
    package let key: Range<Int>
    /// The value's bytes (a string's with its quotes).
    package let value: Range<Int>
    /// The value's kind.
    package let kind: Kind
    /// Whether the key has escapes (then its bytes are not its text).
    package let keyHasEscapes: Bool
    /// Whether the value is a string with escapes.
    package let valueHasEscapes: Bool

    /// The bytes of a string value between its quotes (`nil` for any other kind).
    package var stringContent: Range<Int>? {
        kind == .string ? (value.lowerBound + 1)..<(value.upperBound - 1) : nil
    }
}

/// The members of every element of the sized array, in order, in one flat array; an element that
/// is not an object has none.
package struct JSONElementMembers: Sendable {
    /// Every element's members, one element after the other.
    package private(set) var all: [JSONRawMember] = []
    /// Where each element's members start in `all`, and where the last one's end.
    private var starts: [Int] = [0]

    /// Creates an empty list.
    package init() {}

    /// How many elements it holds.
    package var count: Int { starts.count - 1 }

    /// Where element `index`'s members lie in `all`.
    package func range(of index: Int) -> Range<Int> { starts[index]..<starts[index + 1] }

    /// Element `index`'s members.
    package subscript(index: Int) -> ArraySlice<JSONRawMember> { all[range(of: index)] }

    mutating func append(_ member: JSONRawMember) { all.append(member) }

    /// Ends the current element (with the members appended since the previous one ended).
    mutating func endElement() { starts.append(all.count) }

    mutating func reserve(elements: Int, members: Int) {
        starts.reserveCapacity(elements + 1)
        all.reserveCapacity(members)
    }
}
