import CourierCore

/// A page of rows as a list endpoint answers it: each row beside its own signed cursor (so a
/// client can page on from any row it keeps), and whether rows exist beyond either end.
///
/// `{"items": [{"cursor": "…", "node": {…}}, …], "hasMoreBefore": true, "hasMoreAfter": false}`,
/// rows in ascending key order.
public struct KeysetPage: Sendable {
    /// Rows with their cursors, ascending by key.
    public var edges: [(cursor: String, node: JSONValue)]
    /// Whether rows with lower keys exist.
    public var hasMoreBefore: Bool
    /// Whether rows with higher keys exist (at the time of the query).
    public var hasMoreAfter: Bool

    /// Builds a page from rows the endpoint fetched, signing each row's key.
    /// - Parameters:
    ///   - rows: `(key, node)` pairs in ascending key order.
    public init(
        rows: [(key: [JSONValue], node: JSONValue)], hasMoreBefore: Bool, hasMoreAfter: Bool,
        signer: PageCursorSigner
    ) {
        edges = rows.map { (signer.sign(key: $0.key), $0.node) }
        self.hasMoreBefore = hasMoreBefore
        self.hasMoreAfter = hasMoreAfter
    }

    /// The JSON body.
    public var json: JSONValue {
        [
            "items": .array(edges.map { ["cursor": .string($0.cursor), "node": $0.node] }),
            "hasMoreBefore": .bool(hasMoreBefore), "hasMoreAfter": .bool(hasMoreAfter),
        ]
    }
}
