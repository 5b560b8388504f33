/// What the SDK does with a batch after an upload attempt. Pure: tests feed results and check
/// decisions without a network.
enum UploadDecision: Equatable {
    /// 2xx: the collector has it; delete it.
    case delivered
    /// 400 and other client errors: the batch will never be accepted (poison); drop it and go on.
    case poison(status: Int)
    /// 413 with several events: split the batch and retry the halves.
    case split
    /// 413 with one event: that event can never be sent; drop it.
    case dropOversized
    /// 401: the write key is wrong; stop sending until the SDK is configured again.
    case unauthorized
    /// 403: the project's kill switch is on at the collector.
    case disabled
    /// 5xx, 408, 429, or no response: keep the batch and retry, after `after` when the server said.
    case retry(after: Duration?)

    static func decide(_ result: TransportResult, batchCount: Int) -> UploadDecision {
        switch result {
        case .failure:
            return .retry(after: nil)
        case .response(let status, let headers, _):
            switch status {
            case 200..<300: return .delivered
            case 401: return .unauthorized
            case 403: return .disabled
            case 413: return batchCount > 1 ? .split : .dropOversized
            case 408, 429, 500...599: return .retry(after: retryAfter(headers["retry-after"]))
            default: return .poison(status: status)
            }
        }
    }

    /// `Retry-After` in seconds (the HTTP-date form is rare for APIs and is ignored), capped at a day.
    static func retryAfter(_ value: String?) -> Duration? {
        guard let value, let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .milliseconds(Int64(min(seconds, 86_400) * 1000))
    }
}
