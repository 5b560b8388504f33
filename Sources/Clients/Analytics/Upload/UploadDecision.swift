import CourierCore

/// What the SDK does with a batch after an upload attempt. Pure: tests feed results and check
/// decisions without a network.
package enum UploadDecision: Equatable {
    /// The collector has answered for every message; delete the batch. `rejected` messages of it
    /// were invalid and not stored: some of a 2xx (`{"success": true, "rejected": [{"index": 3,
    /// …}]}`), or all of a 400 whose `rejected` names every message (nothing was stored).
    case delivered(rejected: Int)
    /// 400 for a single event, and client errors without a meaning of their own: the batch will
    /// never be accepted (poison); drop it and go on.
    case poison(status: Int)
    /// 413 or 400 with several events: too large or unreadable as a whole; send the halves, so
    /// only what is bad in itself is dropped.
    case split
    /// 413 with one event: that event can never be sent; drop it.
    case dropOversized
    /// 401: the write key is wrong; stop sending until the SDK is configured again.
    case unauthorized
    /// 403: the project's kill switch is on at the collector.
    case disabled
    /// 5xx, 408, 429, or no response: keep the batch and retry, after `after` when the server said.
    case retry(after: Duration?)

    /// - Parameter now: the wall clock in milliseconds, for a `Retry-After` given as a date.
    package static func decide(_ result: TransportResult, batchCount: Int, now: Int64 = 0) -> UploadDecision {
        switch result {
        case .failure:
            return .retry(after: nil)
        case .response(let status, let headers, let body):
            switch status {
            case 200..<300: return .delivered(rejected: rejectedCount(body, batchCount: batchCount))
            case 400:
                // A 400 that names every message as refused on its own (`batch_rejected`): each
                // would be refused again, so halving the batch would only cost round trips.
                if rejectedCount(body, batchCount: batchCount) == batchCount { return .delivered(rejected: batchCount) }
                return batchCount > 1 ? .split : .poison(status: 400)
            case 401: return .unauthorized
            case 403: return .disabled
            case 413: return batchCount > 1 ? .split : .dropOversized
            case 408, 429, 500...599:
                return .retry(after: RetryAfter.delay(headers["retry-after"], nowMilliseconds: now))
            default: return .poison(status: status)
            }
        }
    }

    /// How many messages of a batch of `batchCount` a body lists under `rejected`: the
    /// distinct indices inside the batch, so a confused answer can never count more than the
    /// batch. An unreadable body or no `rejected` member means all were accepted.
    package static func rejectedCount(_ body: [UInt8], batchCount: Int) -> Int {
        guard !body.isEmpty, let entries = (try? JSONParser.parse(body))?["rejected"]?.arrayValue else { return 0 }
        let indices = entries.compactMap { $0["index"]?.intValue }.filter { $0 >= 0 && $0 < batchCount }
        return Set(indices).count
    }
}
