import CourierCore
import CourierHTTPClient
import SignalProtocol

/// The messenger server's HTTP routes (docs/messenger-server.md), as typed calls. HTTP statuses
/// stop here: callers see `MessengerClientError` and the outcomes below.
struct MessengerAPI: Sendable {
    let baseURL: String
    let client: HTTPClient
    /// The wall clock, for a `Retry-After` given as a date.
    var clock: any Clock = SystemClock()

    /// What `PUT /v1/messages/{account}` answered.
    enum SendOutcome: Sendable, Equatable {
        case accepted(serverSeq: Int64)
        case mismatched(missing: [UInt32], extra: [UInt32])
        case stale([UInt32])
    }

    /// One page of `GET /v1/messages`.
    struct PendingPage: Sendable {
        var envelopes: [(id: Int64, envelope: JSONValue)]
        var cursor: Int64
        var more: Bool
    }

    func register(password: String, registrationId: UInt32, name: String) async throws -> (String, UInt32) {
        let body: JSONValue = [
            "password": .string(password), "registrationId": .int(Int64(registrationId)), "name": .string(name),
        ]
        let response = try await call("POST", "/v1/accounts", json: body, as: nil, expect: [200])
        return try accountAndDevice(response)
    }

    func linkingToken(as credentials: DeviceCredentials) async throws -> String {
        let response = try await call("POST", "/v1/devices/linking-token", as: credentials, expect: [200])
        guard let token = response.json?["token"]?.stringValue else { throw malformed("linking token") }
        return token
    }

    func link(token: String, password: String, registrationId: UInt32, name: String) async throws -> (String, UInt32) {
        let body: JSONValue = [
            "token": .string(token), "password": .string(password), "registrationId": .int(Int64(registrationId)),
            "name": .string(name),
        ]
        return try accountAndDevice(try await call("PUT", "/v1/devices/link", json: body, as: nil, expect: [200]))
    }

    /// `PUT /v1/provisioning/{address}`: whether a waiting device's socket took the box (false: 404).
    func provision(_ box: [UInt8], to address: String, as credentials: DeviceCredentials) async throws -> Bool {
        // `ProvisioningCode` admits letters, digits, `-` and `_` only: nothing to escape.
        let path = "/v1/provisioning/" + address
        let body: JSONValue = ["body": .string(Base64.encode(box))]
        return try await call("PUT", path, json: body, as: credentials, expect: [204, 404]).status == 204
    }

    func devices(as credentials: DeviceCredentials) async throws -> [UInt32] {
        let response = try await call("GET", "/v1/devices", as: credentials, expect: [200])
        return (response.json?["devices"]?.arrayValue ?? []).compactMap { $0["id"]?.intValue.map(UInt32.init) }
    }

    func removeDevice(_ deviceId: UInt32, as credentials: DeviceCredentials) async throws {
        _ = try await call("DELETE", "/v1/devices/\(deviceId)", as: credentials, expect: [204])
    }

    func uploadKeys(_ body: JSONValue, as credentials: DeviceCredentials) async throws {
        _ = try await call("PUT", "/v2/keys", json: body, as: credentials, expect: [204])
    }

    func preKeyCount(as credentials: DeviceCredentials) async throws -> Int {
        let response = try await call("GET", "/v2/keys", as: credentials, expect: [200])
        guard let count = response.json?["count"]?.intValue else { throw malformed("prekey count") }
        return Int(count)
    }

    /// What `GET /v2/keys/{account}/{device|*}` answered.
    enum BundleAnswer: Sendable {
        case bundles([PreKeyBundle])
        /// 404 `unknown_account`: no account by that id on this server.
        case unknownAccount
        /// 404 otherwise: the account has no device (of those asked for) with keys.
        case noKeys
    }

    /// The bundles of `account`'s devices (`nil` = every device); none when the server has none.
    func bundles(of account: String, device: UInt32?, as credentials: DeviceCredentials) async throws
        -> [PreKeyBundle]
    {
        guard case .bundles(let bundles) = try await lookUpBundles(of: account, device: device, as: credentials)
        else { return [] }
        return bundles
    }

    /// The bundles of `account`'s devices (`nil` = every device), or why there are none.
    func lookUpBundles(of account: String, device: UInt32?, as credentials: DeviceCredentials) async throws
        -> BundleAnswer
    {
        let which = device.map(String.init) ?? "*"
        let response = try await call("GET", "/v2/keys/\(account)/\(which)", as: credentials, expect: [200, 404])
        guard response.status == 200 else {
            let code = (response.json?["error"]?["code"] ?? response.json?["code"])?.stringValue
            return code == "unknown_account" ? .unknownAccount : .noKeys
        }
        guard let json = response.json else { throw malformed("bundles") }
        return .bundles(try KeyDirectoryJSON.bundles(json))
    }

    func send(to account: String, body: JSONValue, as credentials: DeviceCredentials) async throws -> SendOutcome {
        let response = try await call(
            "PUT", "/v1/messages/\(account)", json: body, as: credentials, expect: [200, 409, 410])
        guard let outcome = try sendOutcome(status: response.status, json: response.json) else {
            throw malformed("send answer")
        }
        return outcome
    }

    /// What a send's answer means, over HTTP or the delivery socket; `nil` for a status other
    /// than 200, 409 and 410 (an error, which only the HTTP path turns into one).
    func sendOutcome(status: Int, json: JSONValue?) throws -> SendOutcome? {
        switch status {
        case 200:
            guard let seq = json?["serverSeq"]?.intValue else { throw malformed("send answer") }
            return .accepted(serverSeq: seq)
        case 409:
            return .mismatched(missing: ids(json?["missingDevices"]), extra: ids(json?["extraDevices"]))
        case 410:
            return .stale(ids(json?["staleDevices"]))
        default:
            return nil
        }
    }

    func pending(after cursor: Int64, limit: Int, as credentials: DeviceCredentials) async throws -> PendingPage {
        let response = try await call(
            "GET", "/v1/messages?after=\(cursor)&limit=\(limit)", as: credentials, expect: [200])
        guard let json = response.json, let messages = json["messages"]?.arrayValue,
            let next = json["cursor"]?.intValue
        else { throw malformed("pending messages") }
        let envelopes = messages.compactMap { entry -> (id: Int64, envelope: JSONValue)? in
            guard let id = entry["id"]?.intValue, let envelope = entry["envelope"] else { return nil }
            return (id, envelope)
        }
        return PendingPage(envelopes: envelopes, cursor: next, more: json["more"]?.boolValue ?? false)
    }

    func acknowledge(_ id: Int64, as credentials: DeviceCredentials) async throws {
        _ = try await call("DELETE", "/v1/messages/\(id)", as: credentials, expect: [200, 204, 404])
    }

    private func ids(_ value: JSONValue?) -> [UInt32] {
        (value?.arrayValue ?? []).compactMap { $0.intValue.flatMap { UInt32(exactly: $0) } }
    }

    private func accountAndDevice(_ response: HTTPClientResponse) throws -> (String, UInt32) {
        guard let account = response.json?["accountId"]?.stringValue,
            let device = response.json?["deviceId"]?.intValue.flatMap({ UInt32(exactly: $0) })
        else { throw malformed("account answer") }
        return (account, device)
    }

    private func malformed(_ what: String) -> MessengerClientError {
        MessengerClientError(.server, "the server's \(what) is malformed")
    }

    private func call(
        _ method: String, _ path: String, json: JSONValue? = nil, as credentials: DeviceCredentials?,
        expect: Set<Int>
    ) async throws -> HTTPClientResponse {
        var headers: [String: String] = [:]
        if let credentials { headers["Authorization"] = credentials.authorization }
        let response: HTTPClientResponse
        do {
            if let json {
                response = try await client.sendJSON(method, baseURL + path, json, headers: headers)
            } else {
                response = try await client.send(method, baseURL + path, headers: headers)
            }
        } catch {
            throw MessengerClientError(.transport, "\(method) \(path) got no answer", underlying: error)
        }
        guard expect.contains(response.status) else {
            let code =
                (response.json?["error"]?["code"] ?? response.json?["code"])?.stringValue ?? "status \(response.status)"
            let retryAfter = RetryAfter.delay(response.headers["retry-after"], nowMilliseconds: clock.nowMilliseconds)
            throw MessengerClientError(
                .server, "\(method) \(path): \(code)", status: response.status, retryAfter: retryAfter)
        }
        return response
    }
}
