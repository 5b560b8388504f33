import CourierHTTP

/// The collector's error codes. On the collector's routes an error body also carries `code` and
/// `message` at the top level, where Segment's clients read them (`TopLevelErrorFieldsMiddleware`).
extension HTTPError.Code {
    /// 400: the body is not valid JSON (syntax, invalid UTF-8, a repeated key).
    public static let invalidJSON = HTTPError.Code("invalid_json", status: 400)
    /// Inside a `rejected` list: one message of a batch failed validation.
    public static let invalidMessage = HTTPError.Code("invalid_message", status: 400)
    /// 400: no message of a batch could be stored; the body's `rejected` lists each one and why.
    /// A batch of which some messages were stored answers 200 with its `rejected` list instead.
    public static let batchRejected = HTTPError.Code("batch_rejected", status: 400)
    /// 403: the project's kill switch is on.
    public static let projectDisabled = HTTPError.Code("project_disabled", status: 403)
    /// 413 for a single-message route; inside `rejected` for one message of a batch: an event over
    /// the per-event limit.
    public static let eventTooLarge = HTTPError.Code("event_too_large", status: 413)
    /// 413: a batch over the byte or event-count limit.
    public static let batchTooLarge = HTTPError.Code("batch_too_large", status: 413)
    /// 429: too much work is waiting for a commit; retry after `Retry-After`.
    public static let overloaded = HTTPError.Code("overloaded", status: 429)
    /// 503: the commit did not finish in time; the batch may or may not be stored, and a retry is
    /// safe (it is deduplicated by `messageId`).
    public static let commitTimeout = HTTPError.Code("commit_timeout", status: 503)
    /// 503: the collector is stopping.
    public static let shuttingDown = HTTPError.Code("shutting_down", status: 503)
    /// 507: the project's (or the collector's) storage quota is used up; nothing was stored, and
    /// the client keeps its events.
    public static let quotaExceeded = HTTPError.Code("quota_exceeded", status: 507)
}
