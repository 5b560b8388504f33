import CourierCore

/// A keyset position: the sort key of one row (for example `[seq]` or `[createdAt, id]`), never
/// an offset, so rows inserted while a client pages neither repeat nor go missing.
public struct PageCursor: Sendable, Hashable {
    /// The row's sort key, compared column by column.
    public var key: [JSONValue]
    /// When the server issued the cursor (milliseconds since 1970); cursors older than the
    /// signer's maximum age are refused as expired.
    public var issuedAtMilliseconds: Int64

    /// Creates a cursor.
    public init(key: [JSONValue], issuedAtMilliseconds: Int64) {
        self.key = key
        self.issuedAtMilliseconds = issuedAtMilliseconds
    }
}

/// Why a cursor was refused.
public enum PageCursorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a cursor this server signed, or altered since: never trusted.
    case invalid
    /// Signed here, but older than the maximum age: fetch again from the top.
    case expired

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .invalid: "the cursor is malformed or was not issued by this server"
        case .expired: "the cursor has expired; fetch again from the top"
        }
    }
}
