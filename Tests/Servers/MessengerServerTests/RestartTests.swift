import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import MessengerServer
import Testing

@Suite(.timeLimit(.minutes(3)))
struct RestartTests {
    @Test func aRestartedServerStillHoldsEveryAcceptedSendAndItsKeys() async throws {
        let first = try await MessengerHarness()
        let alice = try await first.register()
        let bob = try await first.register()
        try await first.uploadKeys(bob, preKeys: 2)
        let sent = try await first.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], content: "kept")
        #expect(sent.status == 200)
        await first.server.shutdown()

        let second = try await MessengerHarness(directory: first.directory)
        defer {
            second.stop()
            second.removeFiles()
        }
        let pending = try await second.request("GET", "/v1/messages", as: bob)
        #expect(
            pending.json?["messages"]?.arrayValue?.first?["envelope"]?["content"]
                == .string(Base64.encode(Array("kept for 1".utf8))))
        #expect(try await second.request("GET", "/v2/keys", as: bob).json?["count"] == 2)
        // The retry after the restart is still recognised.
        let id = UUID().uuidString
        _ = try await second.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], clientMessageId: id)
        let retry = try await second.send(
            from: alice, to: bob.accountId, devices: [(1, bob.registrationId)], clientMessageId: id)
        #expect(retry.json?["duplicate"] == true)
    }

    /// `courier-server` itself, killed with SIGKILL right after answering a send: on its data
    /// directory, and with `--database` on PostgreSQL.
    @Test(arguments: StoreBackend.allCases) func aKilledServerLosesNoAcknowledgedSend(backend: StoreBackend)
        async throws
    {
        let executable = try #require(
            builtExecutable(named: "courier-server"), "build courier-server first (swift build)")
        let data = NSTemporaryDirectory() + "courier-kill-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let database = backend == .postgres ? ["--database", try await TestPostgres.shared.makeDatabase()] : []
        let start: @Sendable () async throws -> (ChildProcess, String) = {
            let process = try ChildProcess(
                executable, ["--port", "0", "--data-dir", data, "--write-key", "k", "--quiet"] + database,
                environment: ["COURIER_ADMIN_TOKEN": "kill-test-admin-token"], output: .pipe, errorOutput: .discard)
            let line = await runOffPool { () -> String in
                var text = ""
                while !text.contains("\n") {
                    let chunk = process.output!.availableData
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                }
                return text
            }
            let range = try #require(line.range(of: "http://127.0.0.1:"), "courier-server printed no address")
            return (process, "http://127.0.0.1:" + line[range.upperBound...].prefix { $0.isNumber })
        }
        let client = HTTPClient(timeout: .seconds(30))
        let (killed, base) = try await start()
        var devices: [(TestDevice, String)] = []
        for name in ["alice", "bob"] {
            let device = try TestDevice(name: name)
            let created = try await client.sendJSON("POST", base + "/v1/accounts", device.registration)
            device.accountId = try #require(created.json?["accountId"]?.stringValue)
            device.deviceId = 1
            devices.append((device, name))
        }
        let (alice, bob) = (devices[0].0, devices[1].0)
        var accepted: [String] = []
        for index in 0..<20 {
            let body: JSONValue = [
                "messages": [
                    [
                        "destinationDeviceId": 1, "destinationRegistrationId": .int(Int64(bob.registrationId)),
                        "type": 1,
                        "content": .string(Base64.encode(Array("m\(index)".utf8))),
                    ]
                ],
                "conversationId": "c", "clientMessageId": .string(UUID().uuidString), "timestamp": 1,
            ]
            let sent = try await client.sendJSON(
                "PUT", base + "/v1/messages/\(bob.accountId)", body, headers: ["Authorization": alice.authorization])
            if sent.status == 200 { accepted.append("m\(index)") }
        }
        killed.signal(SIGKILL)
        #expect(await runOffPool { killed.wait() } == 128 + SIGKILL)

        let (restarted, again) = try await start()
        defer { restarted.terminate() }
        let pending = try await client.send(
            "GET", again + "/v1/messages?limit=100", headers: ["Authorization": bob.authorization])
        let contents = (pending.json?["messages"]?.arrayValue ?? []).compactMap {
            $0["envelope"]?["content"]?.stringValue.flatMap(Base64.decode).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(accepted.count == 20)
        #expect(contents == accepted)
        if backend == .postgres {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: data)) ?? []
            #expect(!files.contains("messenger.sqlite"))
        }
    }
}
