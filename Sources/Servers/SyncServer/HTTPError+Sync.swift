import CourierHTTP

extension HTTPError.Code {
    /// 400: a cursor that this server did not sign, or that was altered.
    public static let invalidCursor = HTTPError.Code("invalid_cursor", status: 400)
    /// 410: the cursor is older than the tombstone horizon (or, for a list, its maximum age):
    /// resync from `GET /v1/sync/snapshot` (or page again from the top).
    public static let cursorExpired = HTTPError.Code("cursor_expired", status: 410)
    /// 413: more operations in one push than the server takes.
    public static let tooManyOperations = HTTPError.Code("too_large", status: 413)
}
