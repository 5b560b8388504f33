import CourierCore

/// The delivery socket's framing: JSON text messages shaped like Signal-Server's
/// `WebSocketMessage` (a request with an id, answered by a response with the same id).
///
/// Server to device:
/// - `{"type":"request","id":7,"verb":"PUT","path":"/api/v1/message","body":{envelope}}`
/// - `{"type":"request","id":8,"verb":"PUT","path":"/api/v1/queue/empty"}` after the stored mailbox
/// - `{"type":"request","id":9,"verb":"PUT","path":"/api/v1/keys/low","body":{"count":3}}`
///
/// Device to server: `{"type":"response","id":7,"status":200}`; a 200 to a message is its ack,
/// which deletes it from the mailbox.
enum DeliveryFrame {
    static func message(id: Int64, envelope: [UInt8]) -> String {
        // The stored envelope is JSON already; it is spliced in rather than parsed and written again.
        "{\"type\":\"request\",\"id\":\(id),\"verb\":\"PUT\",\"path\":\"/api/v1/message\",\"body\":"
            + String(decoding: envelope, as: UTF8.self) + "}"
    }

    static func queueEmpty(id: Int64) -> String {
        "{\"type\":\"request\",\"id\":\(id),\"verb\":\"PUT\",\"path\":\"/api/v1/queue/empty\"}"
    }

    static func preKeysLow(id: Int64, count: Int) -> String {
        "{\"type\":\"request\",\"id\":\(id),\"verb\":\"PUT\",\"path\":\"/api/v1/keys/low\",\"body\":{\"count\":\(count)}}"
    }

    /// A device's response: its id and status, or `nil` for anything else.
    static func response(_ frame: JSONValue) -> (id: Int64, status: Int)? {
        guard frame["type"]?.stringValue == "response", let id = frame["id"]?.intValue,
            let status = frame["status"]?.intValue
        else { return nil }
        return (id, Int(status))
    }
}
