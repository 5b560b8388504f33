import CourierCore
import CourierHTTP

/// The operators' read route: which devices exist, which are online here, how much waits in each
/// mailbox and for how long, and how pushes went. Never any message content (the server has none).
extension MessengerServer {
    /// Devices listed at most.
    static let overviewLimit = 1000

    func mountOverview(on router: inout Router) {
        router.group(middleware: [AdminAuthMiddleware(token: configuration.adminToken)]) { admin in
            admin.add("GET", "/v1/messenger/devices") { [self] in try overview($0) }
        }
    }

    /// `GET /v1/messenger/devices` (admin token, checked by `AdminAuthMiddleware`).
    func overview(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let devices = try stored { () throws(MessengerStoreError) in
            try store.deviceOverview(limit: Self.overviewLimit)
        }
        let now = clock.nowMilliseconds
        let lifetime = configuration.envelopeLifetimeMilliseconds
        let rows: [JSONValue] = devices.map { device in
            let online = hub.session(for: AuthenticatedDevice(accountId: device.accountId, deviceId: device.deviceId))
            // Envelopes expire a fixed lifetime after they arrive, so the oldest arrived then.
            let oldestAge = device.oldestExpiresAt.map { JSONValue.int(max(0, now - ($0 - lifetime)) / 1000) }
            return [
                "accountId": .string(device.accountId), "deviceId": .int(Int64(device.deviceId)),
                "name": .string(device.name), "push": device.pushKind.map(JSONValue.string) ?? .null,
                "online": .bool(online != nil), "mailboxDepth": .int(Int64(device.mailboxDepth)),
                "oldestEnvelopeAgeSeconds": oldestAge ?? .null,
            ]
        }
        return .json([
            "devices": .array(rows), "truncated": .bool(devices.count == Self.overviewLimit),
            "liveSockets": .int(Int64(hub.count)),
            "pushes": [
                "sent": .int(Int64(pushes.sent.load(ordering: .relaxed))),
                "coalesced": .int(Int64(pushes.coalesced.load(ordering: .relaxed))),
                "failed": .int(Int64(pushes.failed.load(ordering: .relaxed))),
            ],
        ])
    }
}
