import CourierCore

/// The provisioning socket's frames: JSON text messages shaped like the delivery socket's (and
/// Signal-Server's `WebSocketMessage`), server to device only.
///
/// - `{"type":"request","id":1,"verb":"PUT","path":"/v1/address","body":{"address":"…","expiresAt":ms}}`
///   first, at once;
/// - `{"type":"request","id":2,"verb":"PUT","path":"/v1/message","body":{"body":"base64"}}` when a
///   device of the account has sent the provision; the socket then closes with 1000.
enum ProvisioningFrame {
    static func address(_ address: String, expiresAt: Int64) -> String {
        JSONWriter.string([
            "type": "request", "id": 1, "verb": "PUT", "path": "/v1/address",
            "body": ["address": .string(address), "expiresAt": .int(expiresAt)],
        ])
    }

    static func provision(_ ciphertext: [UInt8]) -> String {
        JSONWriter.string([
            "type": "request", "id": 2, "verb": "PUT", "path": "/v1/message",
            "body": ["body": .string(Base64.encode(ciphertext))],
        ])
    }
}
