import CourierCrypto
import CourierCore
import CourierHTTP
import Foundation

extension MessengerServer {
    func mountAccounts(on router: inout Router) {
        router.add("POST", "/v1/accounts") { [self] request, _ in try createAccount(request) }
        router.add("POST", "/v1/devices/linking-token") { [self] request, _ in try issueLinkingToken(request) }
        router.add("PUT", "/v1/devices/link") { [self] request, _ in try linkDevice(request) }
        router.add("GET", "/v1/devices") { [self] request, _ in try listDevices(request) }
        router.add("PUT", "/v1/devices/push") { [self] request, _ in try setPush(request) }
        // Before `/v1/devices/{deviceId}`: the router answers with the first pattern that matches,
        // and `push` would otherwise be taken for a device id (400).
        router.add("DELETE", "/v1/devices/push") { [self] request, _ in
            let device = try device(request)
            try stored { () throws(MessengerStoreError) in
                try store.setPushEndpoint(nil, accountId: device.accountId, deviceId: device.deviceId)
            }
            return HTTPResponse(status: 204)
        }
        router.add("DELETE", "/v1/devices/{deviceId}") { [self] request, _ in try removeDevice(request) }
    }

    /// The fields every new device sends: its secret ("password", `DeviceSecret`'s rule), its
    /// registration id and a name. The secret is checked and hashed last, once everything else
    /// in the request has been accepted.
    private func newDevice(_ body: RequestJSON) throws(HTTPError) -> DeviceRecord {
        let registrationId = try body.int("registrationId", in: 1...16_380)
        let name = (try? body.string("name", maximumBytes: 256)) ?? ""
        let password = try body.string("password", maximumBytes: 512)
        try DeviceSecret.validate(password)
        return DeviceRecord(
            id: 1, registrationId: Int(registrationId), name: name,
            passwordHash: authenticator.hashNewSecret(password), createdAt: clock.nowMilliseconds)
    }

    func createAccount(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try Self.limit(registrationLimiter, request.clientNetwork)
        try Self.limit(overallRegistrationLimiter, "all")
        let device = try newDevice(RequestJSON(request))
        let accountId = Identifier.uuid()
        try stored { () throws(MessengerStoreError) in try store.createAccount(accountId, device: device) }
        return .json(["accountId": .string(accountId), "deviceId": 1])
    }

    func issueLinkingToken(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let device = try device(request)
        let token = SodiumRandom.token()
        let expiresAt = clock.nowMilliseconds + configuration.linkingTokenLifetimeMilliseconds
        try stored { () throws(MessengerStoreError) in
            try store.storeLinkingToken(
                accountId: device.accountId, tokenHash: Digest.sha256(Array(token.utf8)), expiresAt: expiresAt)
        }
        return .json(["token": .string(token), "expiresAt": .int(expiresAt)])
    }

    /// `PUT /v1/devices/link`: the token is checked first (one SHA-256 and an index lookup), so a
    /// request with a wrong token costs no secret hash; it is consumed only when the device is
    /// added.
    func linkDevice(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        try Self.limit(linkingLimiter, request.clientNetwork)
        let body = try RequestJSON(request)
        let token = try body.string("token", maximumBytes: 128)
        let tokenHash = Digest.sha256(Array(token.utf8))
        let invalidToken = HTTPError(.invalidLinkingToken, "the linking token is unknown, used or expired")
        let known = try stored { () throws(MessengerStoreError) in
            try store.linkingTokenIsValid(tokenHash: tokenHash, now: clock.nowMilliseconds)
        }
        guard known else { throw invalidToken }
        let device = try newDevice(body)
        do {
            let linked = try store.linkDevice(
                tokenHash: tokenHash, device: device, maximumDevices: configuration.maximumDevicesPerAccount,
                now: clock.nowMilliseconds)
            return .json(["accountId": .string(linked.accountId), "deviceId": .int(Int64(linked.deviceId))])
        } catch  where error.kind == .notFound {
            throw invalidToken
        } catch {
            throw HTTPError.store(error)
        }
    }

    func listDevices(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let device = try device(request)
        let devices = try stored { () throws(MessengerStoreError) in try store.devices(accountId: device.accountId) }
        return .json([
            "devices": .array(
                devices.map {
                    [
                        "id": .int(Int64($0.id)), "name": .string($0.name),
                        "registrationId": .int(Int64($0.registrationId)),
                        "created": .int($0.createdAt),
                    ]
                })
        ])
    }

    func removeDevice(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let caller = try device(request)
        guard let target = request.pathParameters["deviceId"].flatMap(Int.init), target > 0 else {
            throw HTTPError.badRequest("deviceId must be a positive integer")
        }
        guard target != 1 else { throw HTTPError(.forbidden, "the first device cannot be removed") }
        guard caller.deviceId == 1 || caller.deviceId == target else {
            throw HTTPError(.forbidden, "only the first device or the device itself can remove it")
        }
        let existed = try stored { () throws(MessengerStoreError) in
            try store.removeDevice(accountId: caller.accountId, deviceId: target)
        }
        guard existed else { throw HTTPError(.notFound, "no device \(target)") }
        // Its socket may be here or on another instance: whichever holds it closes it (4401).
        let removed = AuthenticatedDevice(accountId: caller.accountId, deviceId: target)
        hub.disconnect(removed)
        notifier.deviceRemoved(removed)
        return HTTPResponse(status: 204)
    }

    func setPush(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let device = try device(request)
        let body = try RequestJSON(request)
        guard let kind = PushEndpoint.Kind(rawValue: try body.string("kind")) else {
            throw HTTPError.badRequest("kind must be \"apns\" or \"webhook\"")
        }
        let address = try body.string("address", maximumBytes: 2_048)
        switch kind {
        case .apns:
            guard address.count == 64, address.allSatisfy(\.isHexDigit) else {
                throw HTTPError.badRequest("an APNs device token is 64 hex digits")
            }
        case .webhook:
            guard let url = URL(string: address), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw HTTPError.badRequest("a webhook address must be an http(s) URL")
            }
            if let refusal = configuration.webhookAddresses.refusal(forHost: url.host ?? "") {
                throw HTTPError.badRequest(refusal)
            }
        }
        try stored { () throws(MessengerStoreError) in
            try store.setPushEndpoint(
                PushEndpoint(kind: kind, address: address), accountId: device.accountId, deviceId: device.deviceId)
        }
        return HTTPResponse(status: 204)
    }
}
