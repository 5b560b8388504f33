import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import SignalProtocol
import Testing

/// The OpenAPI document `courier-server` serves at `/openapi.json`, held to the server's real
/// behaviour: one real server, real requests to every route group (successes and errors), and
/// every request and answer (and the delivery socket's frames) validated against the document by
/// Python's `openapi-core`, which also validates the document itself. The Python comes from
/// `COURIER_PYTHON` or the package's `.venv` (`make test` makes it).
@Suite(.timeLimit(.minutes(2)))
struct OpenAPIContractTests {
    static let writeKey = "contract-write-key"
    static let adminToken = "contract-admin-token-0123456789"
    static let syncToken = "contract-sync-token"

    var admin: [String: String] { ["Authorization": "Bearer \(Self.adminToken)"] }

    @Test func realAnswersOfEveryRouteGroupMatchTheDocument() async throws {
        let python = ProjectPaths.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no Python venv at \(python): run `make test` (or scripts/bootstrap test) first")
        let executable = try #require(
            builtExecutable(named: "courier-server"), "build courier-server first (swift build)")
        let data = NSTemporaryDirectory() + "courier-contract-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try await ContractServer(
            executable, data: data, writeKey: Self.writeKey, adminToken: Self.adminToken, syncToken: Self.syncToken)
        defer { server.stop() }
        let port = server.port
        let recorder = ContractRecorder(port: port)

        let document = try await recorder.send("GET", "/openapi.json")
        #expect(document.status == 200)
        #expect(document.header("content-type") == "application/json")
        let etag = try #require(document.header("etag"))
        #expect(try await recorder.send("GET", "/openapi.json", headers: ["If-None-Match": etag]).status == 304)
        #expect(try await recorder.send("GET", "/healthz").status == 200)
        #expect(try await recorder.send("GET", "/metrics").status == 200)

        try await analytics(recorder)
        try await messenger(recorder, port: port)
        try await flags(recorder)
        try await sync(recorder)
        try await console(recorder)

        let record = data + "/exchanges.json"
        try recorder.write(document: try #require(document.json), to: record)
        let script = ProjectPaths.packageRoot.appendingPathComponent("Tests/peers/openapi_validate.py").path
        let outcome = await runOffPool { try? ChildProcess.run(python, [script, record]) }
        let result = try #require(outcome, "could not run \(python)")
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("valid: the document, \(recorder.exchangeCount) exchanges"))
        // The other way round: every route the server mounted is in the document.
        let errors = server.stop()
        #expect(!errors.contains("missing from /openapi.json"), "\(errors)")
    }

    // MARK: - Analytics

    func analytics(_ recorder: ContractRecorder) async throws {
        let basic = ["Authorization": "Basic " + Base64.encode(Array("\(Self.writeKey):".utf8))]
        let stored = try await recorder.send(
            "POST", "/v1/batch", headers: basic,
            json: [
                "batch": [
                    [
                        "type": "track", "event": "Signed Up", "userId": "u1", "messageId": "m1",
                        "properties": ["plan": "pro"],
                    ],
                    ["type": "identify", "userId": "u1", "messageId": "m2", "traits": ["name": "Ada"]],
                ],
                "sentAt": "2026-11-29T08:00:00.000Z",
            ])
        #expect(stored.status == 200)
        let partly = try await recorder.send(
            "POST", "/v1/batch", headers: basic,
            json: ["batch": [["type": "track", "event": "Kept", "userId": "u1"], ["type": "track", "userId": "u1"]]])
        #expect(partly.status == 200)
        #expect(partly.json?["rejected"]?.arrayValue?.count == 1)
        let oversized = String(repeating: "x", count: 40_000)
        let none = try await recorder.send(
            "POST", "/v1/batch", headers: basic,
            json: [
                "batch": [
                    ["type": "track", "event": "Big", "userId": "u1", "properties": ["blob": .string(oversized)]]
                ]
            ],
            validateRequest: false)
        #expect(none.status == 400)
        #expect(none.json?["error"]?["code"] == "batch_rejected")
        // Every single-message route and its analytics.js short path, and the batch's aliases.
        let singles: [(String, String, JSONValue)] = [
            ("track", "t", ["event": "Clicked", "userId": "u2"]), ("identify", "i", ["userId": "u2", "traits": [:]]),
            ("page", "p", ["userId": "u2", "name": "Home"]), ("screen", "s", ["anonymousId": "a1", "name": "Cart"]),
            ("group", "g", ["userId": "u2", "groupId": "team-1"]),
            ("alias", "a", ["userId": "u2", "previousId": "a1"]),
        ]
        for (path, short, body) in singles {
            #expect(try await recorder.send("POST", "/v1/" + path, headers: basic, json: body).status == 200)
            #expect(try await recorder.send("POST", "/v1/" + short, headers: basic, json: body).status == 200)
        }
        for path in ["/v1/import", "/v1/b"] {
            let batch: JSONValue = ["batch": [["type": "track", "event": "Imported", "userId": "u3"]]]
            #expect(try await recorder.send("POST", path, headers: basic, json: batch).status == 200)
        }
        let wrongKey = ["Authorization": "Basic " + Base64.encode(Array("nobody:".utf8))]
        #expect(
            try await recorder.send("POST", "/v1/batch", headers: wrongKey, json: ["batch": []]).status == 401)
        #expect(
            try await recorder.send(
                "POST", "/v1/batch", headers: basic.merging(["Content-Type": "application/json"]) { $1 },
                body: Array("{".utf8), validateRequest: false
            ).status == 400)

        let project = "/v1/projects/\(Self.writeKey)"
        #expect(try await recorder.send("GET", project + "/settings").status == 200)
        #expect(try await recorder.send("GET", "/v1/projects/unknown-key/settings").status == 404)
        #expect(
            try await recorder.send("PUT", project + "/settings", headers: admin, json: ["sampleRate": 50]).status
                == 200)
        #expect(
            try await recorder.send(
                "PUT", project + "/settings", headers: admin, json: ["colour": "red"], validateRequest: false
            ).status == 400)
        #expect(
            try await recorder.send("PUT", project + "/settings", json: ["enabled": true], validateRequest: false)
                .status
                == 403)
        let events = try await recorder.send("GET", "/v1/events?writeKey=\(Self.writeKey)&limit=2", headers: admin)
        #expect(events.json?["events"]?.arrayValue?.count == 2)
        #expect(try await recorder.send("GET", "/v1/events", headers: admin, validateRequest: false).status == 400)
        #expect(try await recorder.send("GET", "/v1/projects", headers: admin).status == 200)
        for part in ["/volume", "/rejections", "/settings/history"] {
            #expect(try await recorder.send("GET", project + part, headers: admin).status == 200)
        }
        #expect(try await recorder.send("GET", "/v1/projects/unknown-key/volume", headers: admin).status == 404)
        let stream = try await recorder.send(
            "GET", "/v1/events/stream?writeKey=\(Self.writeKey)&last=0", headers: admin)
        #expect(stream.status == 200)
        #expect(
            try await recorder.send("GET", "/v1/events/stream", headers: admin, validateRequest: false).status == 400)
    }

    // MARK: - Messenger

    /// Registers a device through the recorder.
    func register(_ recorder: ContractRecorder, name: String) async throws -> TestDevice {
        let device = try TestDevice(name: name)
        let created = try await recorder.send("POST", "/v1/accounts", json: device.registration)
        device.accountId = try #require(created.json?["accountId"]?.stringValue)
        device.deviceId = 1
        return device
    }

    func messenger(_ recorder: ContractRecorder, port: Int) async throws {
        let alice = try await register(recorder, name: "alice")
        let bob = try await register(recorder, name: "bob")
        let weak = try await recorder.send(
            "POST", "/v1/accounts", json: ["password": "short", "registrationId": 7], validateRequest: false)
        #expect(weak.status == 400)
        let auth = { (device: TestDevice) in ["Authorization": device.authorization] }

        let token = try await recorder.send("POST", "/v1/devices/linking-token", headers: auth(alice))
        let laptop = try TestDevice(name: "laptop")
        var linkBody = laptop.registration.objectValue ?? [:]
        linkBody["token"] = token.json?["token"]
        let linked = try await recorder.send("PUT", "/v1/devices/link", json: .object(linkBody))
        #expect(linked.status == 200)
        laptop.accountId = alice.accountId
        laptop.deviceId = Int(try #require(linked.json?["deviceId"]?.intValue))
        laptop.identity = alice.identity
        linkBody["token"] = "not-a-token"
        #expect(try await recorder.send("PUT", "/v1/devices/link", json: .object(linkBody)).status == 403)
        #expect(try await recorder.send("GET", "/v1/devices", headers: auth(alice)).status == 200)
        #expect(try await recorder.send("GET", "/v1/devices", validateRequest: false).status == 401)
        let apns = ["kind": "apns", "address": .string(String(repeating: "ab", count: 32))] as JSONValue
        #expect(try await recorder.send("PUT", "/v1/devices/push", headers: auth(bob), json: apns).status == 204)
        #expect(try await recorder.send("DELETE", "/v1/devices/push", headers: auth(bob)).status == 204)

        for device in [alice, laptop, bob] {
            let upload = try device.keyUpload(preKeys: 3)
            #expect(try await recorder.send("PUT", "/v2/keys", headers: auth(device), json: upload).status == 204)
        }
        let forged = try alice.keyUpload(preKeys: 1, badSignature: true)
        #expect(try await recorder.send("PUT", "/v2/keys", headers: auth(alice), json: forged).status == 422)
        #expect(try await recorder.send("GET", "/v2/keys", headers: auth(bob)).json?["count"] == 3)
        #expect(try await recorder.send("GET", "/v2/keys/\(bob.accountId)/1", headers: auth(alice)).status == 200)
        #expect(try await recorder.send("GET", "/v2/keys/\(alice.accountId)/*", headers: auth(bob)).status == 200)
        #expect(try await recorder.send("GET", "/v2/keys/\(UUID().uuidString)/1", headers: auth(bob)).status == 404)

        try await messages(recorder, alice: alice, laptop: laptop, bob: bob)
        try await attachments(recorder, alice: alice)
        try await socket(recorder, port: port, alice: alice, laptop: laptop, bob: bob)
        try await provisioning(recorder, port: port, alice: alice)

        #expect(try await recorder.send("DELETE", "/v1/devices/1", headers: auth(alice)).status == 403)
        #expect(try await recorder.send("DELETE", "/v1/devices/\(laptop.deviceId)", headers: auth(alice)).status == 204)
        #expect(try await recorder.send("GET", "/v1/messenger/devices", headers: admin).status == 200)
        #expect(try await recorder.send("GET", "/v1/messenger/devices", validateRequest: false).status == 403)
    }

    /// A send to `to`'s devices as Courier's clients make it: a prekey message, a `dm:` conversation id.
    static func send(
        to devices: [TestDevice], from sender: TestDevice, clientMessageId: String, type: Int64 = 3,
        registrationId: Int? = nil
    ) -> JSONValue {
        let conversation = "dm:" + [sender.accountId, devices[0].accountId].sorted().joined(separator: ":")
        return [
            "messages": .array(
                devices.map { device in
                    [
                        "destinationDeviceId": .int(Int64(device.deviceId)),
                        "destinationRegistrationId": .int(Int64(registrationId ?? device.registrationId)),
                        "type": .int(type), "content": .string(Base64.encode(Array("ciphertext".utf8))),
                    ]
                }),
            "conversationId": .string(conversation), "clientMessageId": .string(clientMessageId),
            "timestamp": 1_800_000_000_000,
        ]
    }

    func messages(_ recorder: ContractRecorder, alice: TestDevice, laptop: TestDevice, bob: TestDevice) async throws {
        let auth = { (device: TestDevice) in ["Authorization": device.authorization] }
        let toBob = "/v1/messages/\(bob.accountId)"
        let body = Self.send(to: [bob], from: alice, clientMessageId: "c-1")
        let sent = try await recorder.send("PUT", toBob, headers: auth(alice), json: body)
        #expect(sent.json?["duplicate"] == false)
        #expect(try await recorder.send("PUT", toBob, headers: auth(alice), json: body).json?["duplicate"] == true)
        let toAlice = "/v1/messages/\(alice.accountId)"
        let missing = try await recorder.send(
            "PUT", toAlice, headers: auth(bob), json: Self.send(to: [alice], from: bob, clientMessageId: "c-2"))
        #expect(missing.status == 409)
        let stale = try await recorder.send(
            "PUT", toAlice, headers: auth(bob),
            json: Self.send(to: [alice, laptop], from: bob, clientMessageId: "c-3", registrationId: 16_000))
        #expect(stale.status == 410)
        #expect(
            try await recorder.send(
                "PUT", "/v1/messages/\(UUID().uuidString)", headers: auth(alice),
                json: Self.send(to: [bob], from: alice, clientMessageId: "c-4")
            ).status == 404)
        let pending = try await recorder.send("GET", "/v1/messages?after=0&limit=10", headers: auth(bob))
        let id = try #require(pending.json?["messages"]?.arrayValue?.first?["id"]?.intValue)
        #expect(try await recorder.send("DELETE", "/v1/messages/\(id)", headers: auth(bob)).status == 204)
        #expect(try await recorder.send("DELETE", "/v1/messages/\(id)", headers: auth(bob)).status == 404)
    }

    func attachments(_ recorder: ContractRecorder, alice: TestDevice) async throws {
        let auth = ["Authorization": alice.authorization]
        let created = try await recorder.send("POST", "/v1/attachments", headers: auth, json: ["length": 8])
        let location = try #require(created.json?["location"]?.stringValue)
        let octets = auth.merging(["Content-Type": "application/octet-stream"]) { $1 }
        let first = try await recorder.send(
            "PUT", location, headers: octets.merging(["Content-Range": "bytes 0-3/8"]) { $1 }, body: [1, 2, 3, 4])
        #expect(first.status == 308)
        let wrong = try await recorder.send(
            "PUT", location, headers: octets.merging(["Content-Range": "bytes 2-5/8"]) { $1 }, body: [3, 4, 5, 6])
        #expect(wrong.status == 409)
        let last = try await recorder.send(
            "PUT", location, headers: octets.merging(["Content-Range": "bytes 4-7/8"]) { $1 }, body: [5, 6, 7, 8])
        #expect(last.status == 200)
        let download = try await recorder.send("GET", location)
        #expect(download.body == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(try await recorder.send("GET", "/v1/attachments/" + String(repeating: "0", count: 64)).status == 404)
        #expect(
            try await recorder.send("POST", "/v1/attachments", headers: auth, json: ["length": 1_099_511_627_776])
                .status == 413)
    }

    /// The delivery socket: what the server sends on connect, and the three requests a device may
    /// send, each frame kept for validation against the socket schemas.
    func socket(
        _ recorder: ContractRecorder, port: Int, alice: TestDevice, laptop: TestDevice, bob: TestDevice
    ) async throws {
        let toBob = "/v1/messages/\(bob.accountId)"
        let queued = Self.send(to: [bob], from: alice, clientMessageId: "c-5", type: 2)
        #expect(
            try await recorder.send("PUT", toBob, headers: ["Authorization": alice.authorization], json: queued).status
                == 200)
        #expect(
            try await recorder.send("GET", "/v1/websocket", headers: ["Authorization": bob.authorization]).status == 426
        )
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await client.connect(
            to: "ws://127.0.0.1:\(port)/v1/websocket", headers: [("Authorization", bob.authorization)])
        var reader = DeliveryReader(socket)
        let delivered = try #require(await reader.next())
        recorder.frame(delivered, schema: "SocketServerRequest")
        #expect(delivered["body"]?["type"] == 2)
        let ack: JSONValue = ["type": "response", "id": delivered["id"] ?? 0, "status": 200]
        recorder.frame(ack, schema: "SocketDeviceResponse")
        try await socket.outbound.send(text: JSONWriter.string(ack))
        let empty = try #require(await reader.next())
        recorder.frame(empty, schema: "SocketServerRequest")
        #expect(empty["path"] == "/api/v1/queue/empty")
        // Bob has fewer one-time prekeys than the refill threshold: a bundle taken from him tells
        // his socket so.
        let bundle = try await recorder.send(
            "GET", "/v2/keys/\(bob.accountId)/1", headers: ["Authorization": alice.authorization])
        #expect(bundle.json?["devices"]?.arrayValue?.first?["preKey"] != nil)
        let low = try #require(await reader.next())
        recorder.frame(low, schema: "SocketServerRequest")
        #expect(low["path"] == "/api/v1/keys/low")
        let requests: [JSONValue] = [
            ["type": "request", "id": 1, "verb": "GET", "path": "/v1/keepalive"],
            [
                "type": "request", "id": 2, "verb": "PUT", "path": .string("/v1/messages/\(alice.accountId)"),
                "body": Self.send(to: [alice, laptop], from: bob, clientMessageId: "c-6"),
            ],
            ["type": "request", "id": 3, "verb": "GET", "path": "/v1/messages?after=0&limit=5"],
        ]
        for request in requests {
            recorder.frame(request, schema: "SocketDeviceRequest")
            try await socket.outbound.send(text: JSONWriter.string(request))
            var answer = try #require(await reader.next())
            while answer["type"] != "response" {
                recorder.frame(answer, schema: "SocketServerRequest")
                answer = try #require(await reader.next())
            }
            recorder.frame(answer, schema: "SocketServerResponse")
            #expect(answer["id"] == request["id"])
        }
        socket.outbound.close(.normalClosure, reason: "done")
    }

    /// Linking by provisioning: the new device's socket gets an address, a device of the account
    /// sends the sealed provision there, and the socket gets it.
    func provisioning(_ recorder: ContractRecorder, port: Int, alice: TestDevice) async throws {
        #expect(try await recorder.send("GET", "/v1/websocket/provisioning").status == 426)
        let client = try WebSocketClient()
        defer { inBackground { client.shutdown() } }
        let socket = try await client.connect(to: "ws://127.0.0.1:\(port)/v1/websocket/provisioning/")
        var reader = DeliveryReader(socket)
        let addressFrame = try #require(await reader.next())
        recorder.frame(addressFrame, schema: "ProvisioningFrame")
        let address = try #require(addressFrame["body"]?["address"]?.stringValue)
        let sealed: JSONValue = ["body": .string(Base64.encode(Array("sealed provision".utf8)))]
        let auth = ["Authorization": alice.authorization]
        #expect(
            try await recorder.send("PUT", "/v1/provisioning/" + address, headers: auth, json: sealed).status == 204)
        let provision = try #require(await reader.next())
        recorder.frame(provision, schema: "ProvisioningFrame")
        #expect(provision["path"] == "/v1/message")
        #expect(
            try await recorder.send("PUT", "/v1/provisioning/" + address, headers: auth, json: sealed).status == 404)
    }

    // MARK: - Flags, sync, console

    func flags(_ recorder: ContractRecorder) async throws {
        let env = "/v1/flags/production"
        let flag: JSONValue = [
            "type": "bool", "enabled": true, "value": false, "owner": "checkout-team",
            "rules": [["id": "beta", "segments": ["beta-testers"], "value": true]],
        ]
        let segment: JSONValue = [
            "key": "beta-testers",
            "conditions": [["attribute": "country", "operator": "in", "values": ["FR"]]],
        ]
        #expect(
            try await recorder.send("PUT", env + "/segments/beta-testers", headers: admin, json: segment).status == 200)
        #expect(
            try await recorder.send("PUT", env + "/definitions/new-checkout", headers: admin, json: flag).status == 200)
        let broken: JSONValue = ["type": "bool", "value": "yes", "rules": [["segments": ["nobody"], "value": true]]]
        #expect(
            try await recorder.send(
                "PUT", env + "/definitions/broken", headers: admin, json: broken, validateRequest: false
            ).status == 422)
        let document = try await recorder.send("GET", env)
        #expect(document.status == 200)
        let etag = try #require(document.header("etag"))
        #expect(try await recorder.send("GET", env, headers: ["If-None-Match": etag]).status == 304)
        #expect(try await recorder.send("GET", "/v1/flags/nowhere").status == 404)
        let evaluation = try await recorder.send(
            "POST", env + "/evaluate",
            json: ["context": ["targetingKey": "user-1", "country": "FR"], "flags": ["new-checkout", "missing"]])
        #expect(evaluation.json?["flags"]?["new-checkout"]?["value"] == true)
        let listing = try await recorder.send("GET", env + "/definitions", headers: admin)
        #expect(listing.status == 200)
        let version = try #require(listing.header("etag"))
        var stale = admin
        stale["If-Match"] = "\"1\""
        #expect(
            try await recorder.send("PUT", env + "/definitions/new-checkout", headers: stale, json: flag).status == 412)
        var current = admin
        current["If-Match"] = version
        #expect(
            try await recorder.send("POST", env + "/definitions/new-checkout/kill", headers: current).status == 200)
        #expect(try await recorder.send("POST", env + "/definitions/absent/kill", headers: admin).status == 404)
        #expect(try await recorder.send("GET", env + "/audit?limit=10", headers: admin).status == 200)
        #expect(try await recorder.send("GET", "/v1/flags", headers: admin).status == 200)
        #expect(try await recorder.send("GET", env + "/audit", validateRequest: false).status == 403)
    }

    func sync(_ recorder: ContractRecorder) async throws {
        let bearer = ["Authorization": "Bearer \(Self.syncToken)"]
        let push: JSONValue = [
            "clientID": "contract",
            "operations": [
                [
                    "id": "op-1", "sequence": 1, "collection": "notes", "recordID": "note-1", "op": "set",
                    "fields": ["title": "Groceries"], "baseVersion": 0,
                ],
                [
                    "id": "op-2", "sequence": 2, "collection": "notes", "recordID": "note-1", "op": "set",
                    "fields": ["title": "Stale"], "baseVersion": 0,
                ],
            ],
        ]
        let pushed = try await recorder.send("POST", "/v1/sync/push", headers: bearer, json: push)
        #expect(pushed.json?["results"]?.arrayValue?.count == 2)
        let changes = try await recorder.send("GET", "/v1/sync/changes?limit=10", headers: bearer)
        let cursor = try #require(changes.json?["cursor"]?.stringValue)
        #expect(try await recorder.send("GET", "/v1/sync/snapshot", headers: bearer).status == 200)
        let since = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let poke = try await recorder.send("GET", "/v1/sync/poke?since=\(since)&wait=0", headers: bearer)
        #expect(poke.json?["changed"] == false)
        #expect(
            try await recorder.send("GET", "/v1/sync/collections/notes/records?limit=5", headers: bearer).status == 200)
        #expect(try await recorder.send("GET", "/v1/sync/changes?since=forged", headers: bearer).status == 400)
        #expect(try await recorder.send("GET", "/v1/sync/snapshot", validateRequest: false).status == 401)
    }

    func console(_ recorder: ContractRecorder) async throws {
        #expect(try await recorder.send("GET", "/console/api/session").status == 401)
        #expect(try await recorder.send("POST", "/console/api/session", json: ["token": "wrong"]).status == 401)
        let signedIn = try await recorder.send(
            "POST", "/console/api/session", json: ["token": .string(Self.adminToken)])
        let cookie = try #require(signedIn.header("set-cookie")?.split(separator: ";").first.map(String.init))
        let csrf = try #require(signedIn.json?["csrfToken"]?.stringValue)
        #expect(try await recorder.send("GET", "/console/api/session", headers: ["Cookie": cookie]).status == 200)
        #expect(try await recorder.send("GET", "/v1/projects", headers: ["Cookie": cookie]).status == 200)
        #expect(
            try await recorder.send(
                "PUT", "/v1/projects/\(Self.writeKey)/settings", headers: ["Cookie": cookie], json: ["flushAt": 10]
            ).status == 403)
        #expect(
            try await recorder.send(
                "PUT", "/v1/projects/\(Self.writeKey)/settings", headers: ["Cookie": cookie, "X-CSRF-Token": csrf],
                json: ["flushAt": 10]
            ).status == 200)
        for asset in [
            "/console", "/console/app.css", "/console/app.js", "/console/sources.js", "/console/flags.js",
            "/console/flag-editor.js", "/console/messenger.js",
        ] {
            #expect(try await recorder.send("GET", asset).status == 200)
        }
        #expect(
            try await recorder.send(
                "DELETE", "/console/api/session", headers: ["Cookie": cookie, "X-CSRF-Token": csrf]
            )
            .status == 200)
    }
}
