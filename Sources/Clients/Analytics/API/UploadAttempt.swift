import CourierCore

/// The last upload attempt and what came back, for tools that explain a delivery to a person
/// (`courier track` prints it): a refused connection, a kill switch, or a host that is not a
/// collector at all.
///
/// ```swift
/// let result = await analytics.flushed()
/// if let attempt = result.lastUpload, attempt.status == nil {
///     print("no answer from \(attempt.url): \(attempt.failure ?? "")")
/// }
/// ```
public struct UploadAttempt: Sendable, Equatable {
    /// Where the batch was sent.
    public let url: String
    /// Events in the batch.
    public let events: Int
    /// The HTTP status of the answer, or `nil` when none came (refused, timed out, offline).
    public let status: Int?
    /// Why no answer came, in the transport's words; `nil` when the server answered.
    public let failure: String?
    /// The error code of a JSON error answer (`{"error": {"code": …}}` or a top-level `code`),
    /// such as `project_disabled`.
    public let errorCode: String?
    /// The message of a JSON error answer.
    public let errorMessage: String?
    /// Whether the answer reads as a tracking API's: a JSON object with `success` or an error
    /// code. An HTML page or an empty body suggests the host is not a collector.
    public let fromCollector: Bool

    /// Reads a transport result for a batch of `events` sent to `url`.
    package init(url: String, events: Int, result: TransportResult) {
        self.url = url
        self.events = events
        switch result {
        case .failure(let reason):
            status = nil
            failure = reason
            errorCode = nil
            errorMessage = nil
            fromCollector = false
        case .response(let status, _, let body):
            self.status = status
            failure = nil
            let json = (try? JSONParser.parse(body))?.objectValue
            let error = json?["error"]
            errorCode = error?["code"]?.stringValue ?? json?["code"]?.stringValue
            errorMessage = error?["message"]?.stringValue ?? json?["message"]?.stringValue
            fromCollector = json?["success"] != nil || errorCode != nil
        }
    }
}
