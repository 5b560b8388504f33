import CourierCore
import CourierHTTP

/// One message of a batch that was not stored because it failed validation. The answer lists
/// these under `rejected`: a `200` when the rest of the batch was stored, a `400`
/// (`batch_rejected`) when no message was.
public struct RejectedMessage: Sendable, Equatable {
    /// The message's position in `batch`, from 0.
    public let index: Int
    /// The message's `messageId`, when it had a string one.
    public let messageId: String?
    /// Why (`invalid_message` or `event_too_large`).
    public let error: HTTPError

    /// The entry of the answer's `rejected` list.
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "index": .int(Int64(index)),
            "code": .string(error.code.rawValue),
            "message": .string(error.message),
        ]
        if let messageId { object["messageId"] = .string(messageId) }
        return .object(object)
    }
}
