import CourierCore
import Foundation

/// Pushes as an HTTP POST to the URL a device registered (UnifiedPush, or a webhook of the app's
/// own). The body is `{"type":"mailbox"}`: nothing about the message.
///
/// The connection goes only to addresses `addresses` permits, checked on the address libcurl is
/// about to connect to after DNS resolution (see `WebhookAddressPolicy`); redirects are not
/// followed (a 3xx is a failure) and no proxy from the environment is used.
///
/// Each push holds a thread while libcurl waits, for up to `timeout`: at most
/// `maximumInFlight` run at once, all devices together (copies of a sender share the cap), so
/// webhooks pointed at a server that accepts and never answers hold that many threads at most;
/// a push beyond it is not attempted (`PushResult.notAttempted`), which leaves the device's
/// push window open for its next envelope.
public struct WebhookPushSender: PushSender {
    private let timeout: Duration
    private let addresses: WebhookAddressPolicy
    private let slots: SlotGate

    /// Creates a sender.
    /// - Parameters:
    ///   - timeout: how long one push may take, connection included.
    ///   - addresses: which addresses pushes may connect to (public ones only by default).
    ///   - maximumInFlight: pushes in flight at once, beyond which a push fails at once.
    public init(
        timeout: Duration = .seconds(10), addresses: WebhookAddressPolicy = WebhookAddressPolicy(),
        maximumInFlight: Int = 64
    ) {
        self.timeout = timeout
        self.addresses = addresses
        slots = SlotGate(limit: maximumInFlight)
    }

    public func send(_ notification: PushNotification, to endpoint: PushEndpoint) async -> PushResult {
        let url = endpoint.address
        let headers = [("Content-Type", "application/json"), ("Topic", notification.collapseId)]
        let body = JSONWriter.encode(["type": "mailbox"])
        let (policy, milliseconds) = (addresses, Int(max(timeout.wholeMilliseconds, 1)))
        guard slots.tryEnter() else {
            return .notAttempted("\(slots.limit) webhook pushes already in flight; this one is not sent")
        }
        let outcome: CurlWebhookPost.Outcome = await withCheckedContinuation { [slots] continuation in
            // libcurl blocks: the request runs on a thread of its own, not on Swift's shared pool.
            Thread.detachNewThread {
                let outcome =
                    CurlWebhookPost().map {
                        $0.post(url, headers: headers, body: body, policy: policy, timeoutMilliseconds: milliseconds)
                    } ?? .failed("curl_easy_init failed")
                // The slot is free before the push's caller hears back.
                slots.leave()
                continuation.resume(returning: outcome)
            }
        }
        switch outcome {
        case .answered(let status):
            switch status {
            case 200..<300: return .sent
            case 404, 410: return .unregistered
            default: return .failed("endpoint answered \(status)")
            }
        case .refused(let address):
            return .failed(
                "refused to connect to \(address) (\(WebhookAddressPolicy.scope(of: address).rawValue)): "
                    + "not a public address and not in the allowed networks")
        case .failed(let reason):
            return .failed(reason)
        }
    }
}
