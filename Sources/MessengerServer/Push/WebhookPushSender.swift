import CourierCore
import CourierHTTP

/// Pushes as an HTTP POST to the URL a device registered (UnifiedPush, or a webhook of the app's
/// own). The body is `{"type":"mailbox"}`: nothing about the message.
public struct WebhookPushSender: PushSender {
    private let client: HTTPClient

    /// Creates a sender whose requests give up after `timeout`.
    public init(timeout: Duration = .seconds(10)) {
        client = HTTPClient(timeout: timeout)
    }

    public func send(_ notification: PushNotification, to endpoint: PushEndpoint) async -> PushResult {
        do {
            let response = try await client.sendJSON(
                "POST", endpoint.address, ["type": "mailbox"], headers: ["Topic": notification.collapseId])
            switch response.status {
            case 200..<300: return .sent
            case 404, 410: return .unregistered
            default: return .failed("endpoint answered \(response.status)")
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
