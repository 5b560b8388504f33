import CourierCore
import Foundation

/// Content-free pushes through Apple's push service: HTTP/2 to `/3/device/<token>` with a
/// provider token (ES256 JWT, refreshed before it expires). The payload is `mutable-content: 1`,
/// a generic alert and a collapse id; the notification service extension fetches and decrypts.
///
/// 410 (`Unregistered`) and 400 `BadDeviceToken` drop the token; 403 `ExpiredProviderToken`
/// makes the next push sign a new token.
public final class APNsPushSender: PushSender {
    private let configuration: APNsConfiguration
    private let token: APNsProviderToken
    private let client: CurlHTTP2Client

    /// Creates a sender.
    /// - Throws: `APNsError.invalidKey` for an unusable key.
    public init(configuration: APNsConfiguration, clock: any Clock = SystemClock()) throws(APNsError) {
        self.configuration = configuration
        token = try APNsProviderToken(configuration: configuration, clock: clock)
        client = try CurlHTTP2Client(
            certificateAuthorityFile: configuration.certificateAuthorityFile,
            timeoutSeconds: configuration.timeoutSeconds)
    }

    /// The JSON payload every push carries: nothing about the message.
    public var payload: [UInt8] {
        JSONWriter.encode([
            "aps": [
                "mutable-content": 1, "sound": "default",
                "alert": ["title": .string(configuration.alertTitle), "body": .string(configuration.alertBody)],
            ]
        ])
    }

    public func send(_ notification: PushNotification, to endpoint: PushEndpoint) async -> PushResult {
        guard endpoint.kind == .apns else { return .failed("not an APNs endpoint") }
        let bearer: String
        do {
            bearer = try token.token()
        } catch {
            return .failed("\(error)")
        }
        let headers = [
            ("authorization", "bearer \(bearer)"), ("apns-topic", configuration.topic), ("apns-push-type", "alert"),
            ("apns-priority", "10"), ("apns-collapse-id", notification.collapseId),
            ("content-type", "application/json"),
        ]
        let url = configuration.baseURL + "/3/device/" + endpoint.address
        let (client, payload) = (client, payload)
        let answer: Result<(status: Int, body: [UInt8]), APNsError> = await withCheckedContinuation { continuation in
            // libcurl blocks: the request runs on a thread of its own, not on Swift's shared pool.
            Thread.detachNewThread {
                continuation.resume(
                    returning: Result { () throws(APNsError) in try client.post(url, headers: headers, body: payload) })
            }
        }
        switch answer {
        case .failure(let error):
            return .failed("\(error)")
        case .success(let response):
            let reason = (try? JSONParser.parse(response.body))?["reason"]?.stringValue ?? ""
            switch (response.status, reason) {
            case (200, _): return .sent
            case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): return .unregistered
            case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"):
                token.invalidate()
                return .failed("APNs refused the provider token (\(reason))")
            default: return .failed("APNs answered \(response.status) \(reason)")
            }
        }
    }

    /// The HTTP version of the last request (20 for HTTP/2, 11 for HTTP/1.1), for tests and logs.
    public var lastHTTPVersion: Int { client.lastHTTPVersion }
}
