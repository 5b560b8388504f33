/// One row of a page and the opaque cursor the server signed for its position.
public struct PageEdge<Item: Sendable>: Sendable {
    /// The row's cursor: hand it back as `before`/`after` to page on from this row.
    public var cursor: String
    /// The row.
    public var item: Item

    /// Creates an edge.
    public init(cursor: String, item: Item) {
        self.cursor = cursor
        self.item = item
    }
}

/// A page as a source delivers it: rows in ascending key order.
public struct Page<Item: Sendable>: Sendable {
    /// The rows and their cursors.
    public var edges: [PageEdge<Item>]
    /// Whether rows with lower keys exist.
    public var hasMoreBefore: Bool
    /// Whether rows with higher keys existed when the page was read.
    public var hasMoreAfter: Bool

    /// Creates a page.
    public init(edges: [PageEdge<Item>], hasMoreBefore: Bool, hasMoreAfter: Bool) {
        self.edges = edges
        self.hasMoreBefore = hasMoreBefore
        self.hasMoreAfter = hasMoreAfter
    }
}

/// Which page to load.
public enum PageLoad: Sendable, Equatable {
    /// The newest rows.
    case latest
    /// Rows before (older than) the row with this cursor.
    case before(String)
    /// Rows after (newer than) the row with this cursor.
    case after(String)
    /// Rows around the row with this id.
    case around(String)
}

/// Where a paginator gets its pages: an HTTP list endpoint in an app, anything in a test.
public protocol PageSource<Item>: Sendable {
    /// The row type.
    associatedtype Item: Sendable
    /// Loads one page.
    /// - Throws: `PageSourceError.cursorExpired` when the server no longer accepts the cursor
    ///   (the paginator then starts again from the latest rows); anything else is passed on.
    func load(_ load: PageLoad, limit: Int) async throws -> Page<Item>
}

/// An answer from a page source that the paginator handles itself.
public enum PageSourceError: Error, Sendable, Equatable {
    /// The cursor expired: start again from the top.
    case cursorExpired
}

/// Why a paginator threw its window away and started again from the latest rows.
public enum PaginatorReset: Sendable, Equatable {
    /// The server refused a cursor as expired.
    case cursorExpired
}
