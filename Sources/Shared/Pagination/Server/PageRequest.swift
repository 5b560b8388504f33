import CourierCore

/// What a list endpoint was asked for, parsed from `?before=` / `?after=` / `?around=` /
/// `?limit=` the same way by every endpoint.
public struct PageRequest: Sendable, Equatable {
    /// Which rows, relative to which position.
    public enum Position: Sendable, Equatable {
        /// The newest rows (highest keys): the first page, and the page after an expired cursor.
        case latest
        /// Rows with keys below this cursor's (history), nearest first.
        case before(PageCursor)
        /// Rows with keys above this cursor's (catch-up), nearest first.
        case after(PageCursor)
        /// Rows around the row with this id: a jump into history.
        case around(String)
    }

    /// Which rows.
    public var position: Position
    /// How many rows at most.
    public var limit: Int

    /// Creates a request.
    public init(position: Position, limit: Int) {
        self.position = position
        self.limit = limit
    }

    /// Parses a query string's page parameters.
    /// - Parameters:
    ///   - query: the decoded query parameters.
    ///   - signer: verifies `before`/`after` cursors.
    ///   - defaultLimit: the limit when none is given.
    ///   - maximumLimit: the largest limit allowed.
    /// - Throws: `PageRequestError` for a bad limit, two positions at once, or a cursor that does
    ///   not verify (`.cursor(.invalid)` / `.cursor(.expired)`).
    public static func parse(
        _ query: [String: String], signer: PageCursorSigner, defaultLimit: Int = 50, maximumLimit: Int = 500
    ) throws(PageRequestError) -> PageRequest {
        var limit = defaultLimit
        if let text = query["limit"] {
            guard let value = Int(text), value >= 1, value <= maximumLimit else {
                throw .badLimit("limit is a whole number from 1 to \(maximumLimit)")
            }
            limit = value
        }
        let given = ["before", "after", "around"].filter { query[$0] != nil }
        guard given.count <= 1 else { throw .badLimit("give at most one of before, after and around") }
        do {
            if let text = query["before"] {
                return PageRequest(position: .before(try signer.verify(text)), limit: limit)
            }
            if let text = query["after"] { return PageRequest(position: .after(try signer.verify(text)), limit: limit) }
        } catch {
            throw .cursor(error)
        }
        if let id = query["around"] { return PageRequest(position: .around(id), limit: limit) }
        return PageRequest(position: .latest, limit: limit)
    }
}

/// A list request the server cannot answer.
public enum PageRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A malformed `limit`, or conflicting positions.
    case badLimit(String)
    /// A cursor that is invalid or expired.
    case cursor(PageCursorError)

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .badLimit(let message): message
        case .cursor(let error): error.description
        }
    }
}
