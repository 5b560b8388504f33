import CourierCore
import CourierHTTPClient

/// What the delivery socket's test wrappers read in the server's frames.
enum DeliveryFrames {
    /// The request id of a frame that delivers an envelope (`/api/v1/message`), or `nil` for any
    /// other frame.
    static func envelopeRequestId(_ message: WebSocketMessage?) -> Int64? {
        guard case .text(let text) = message, let frame = try? JSONParser.parse(text),
            frame["path"]?.stringValue == "/api/v1/message"
        else { return nil }
        return frame["id"]?.intValue
    }
}
