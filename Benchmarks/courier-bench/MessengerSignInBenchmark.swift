import CourierCore
import CourierHTTP
import Foundation
import MessengerServer
import Synchronization

/// What device credentials cost the server (issue 22): devices opening authenticated sockets
/// against a fresh server, with salted token hashes beside legacy Argon2id (OWASP cost, no cap:
/// the old behaviour); and peak memory under floods that used to make the server hash, while a
/// signed-in device is timed.
struct MessengerSignInBenchmark {
    let runs: Int
    let devices: Int
    /// Legacy devices for the peer figure: at ~30 ms of CPU each, 3,000 would take minutes.
    let legacyDevices = 300
    let flood = 256

    func run() throws {
        var salted: [Double] = [], legacy: [Double] = []
        var registrationGrowth: [Double] = [], registrationSlowest: [Double] = []
        var legacyGrowth: [Double] = [], legacySlowest: [Double] = [], refused: [Double] = []
        for _ in 0..<runs {
            salted.append(try socketsPerSecond(devices, .salted))
            legacy.append(try socketsPerSecond(legacyDevices, .legacyUncapped))
            let registration = try registrationFlood()
            registrationGrowth.append(registration.growth)
            registrationSlowest.append(registration.slowest)
            let wrong = try legacyFlood()
            legacyGrowth.append(wrong.growth)
            legacySlowest.append(wrong.slowest)
            refused.append(wrong.refused)
        }
        print(
            "== messenger sign-in: devices open authenticated sockets against a fresh server in a child process "
                + "(batches of 200); floods of \(flood) requests at once; median of \(runs) runs ==")
        print(
            line(
                "sockets opened, salted token hashes", median(salted), "/s", median(legacy),
                "legacy Argon2id, uncapped (\(legacyDevices) devices)"))
        print(line("sockets opened, salted token hashes", median(salted), "/s", 1_000, "goal ≥ 1,000/s"))
        print(
            decimalLine(
                "registration + link flood: peak RSS growth", median(registrationGrowth), "MB", 631 - 68,
                "before: 68 → 631 MB"))
        print(
            decimalLine(
                "  signed-in device's slowest answer", median(registrationSlowest), "ms", 1_000, "goal ≤ 1 s"))
        print(
            decimalLine(
                "wrong legacy sign-ins: peak RSS growth", median(legacyGrowth), "MB", 2 * 19 * 1.048_576,
                "cap: 2 × 19 MiB"))
        print(decimalLine("  signed-in device's slowest answer", median(legacySlowest), "ms", 1_000, "goal ≤ 1 s"))
        print(String(format: "   wrong legacy sign-ins answered 503 busy: %.0f of %d", median(refused), flood))
    }

    /// `count` devices connect (200 at a time) and each waits for `queue/empty`.
    private func socketsPerSecond(_ count: Int, _ credentials: MessengerIdleServerProcess.Credentials) throws
        -> Double
    {
        let child = try MessengerIdleServerProcess(devices: count, credentials: credentials)
        defer { child.stop() }
        let port = child.port
        let (connected, seconds) = try runBlocking { () -> (Int, Double) in
            let client = try WebSocketClient()
            let start = DispatchTime.now().uptimeNanoseconds
            var open: [WebSocket] = []
            var index = 0
            while index < count {
                let batch = min(200, count - index)
                open += try await withThrowingTaskGroup(of: WebSocket?.self) { group in
                    for i in index..<(index + batch) {
                        group.addTask {
                            let socket = try await client.connect(
                                to: "ws://127.0.0.1:\(port)/v1/websocket",
                                headers: [("Authorization", Self.authorization("bench-\(i)"))])
                            var frames = socket.inbound.makeAsyncIterator()
                            guard case .text(let text)? = await frames.next(), text.contains("queue/empty") else {
                                return nil
                            }
                            return socket
                        }
                    }
                    return try await group.reduce(into: [WebSocket]()) { if let socket = $1 { $0.append(socket) } }
                }
                index += batch
            }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return (open.count, elapsed)
        }
        guard connected == count else { throw BenchError("\(connected) of \(count) sockets opened") }
        return Double(count) / seconds
    }

    /// Registrations with fresh secrets alternating with links with random tokens, all at once
    /// from 32 clients (8 connections each), against a server without rate limits.
    private func registrationFlood() throws -> (growth: Double, slowest: Double) {
        let child = try MessengerIdleServerProcess(devices: 1, credentials: .salted)
        defer { child.stop() }
        let before = child.residentBytes
        let base = "http://127.0.0.1:\(child.port)"
        let slowest = try floodTiming(base: base, signedIn: "bench-0") { client, index in
            let secret = Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
            var body: [String: JSONValue] = ["password": .string(secret), "registrationId": 7]
            if index % 2 == 0 {
                _ = try await client.sendJSON("POST", base + "/v1/accounts", .object(body))
            } else {
                body["token"] = .string(Base64.encode((0..<32).map { _ in UInt8.random(in: 0...255) }))
                _ = try await client.sendJSON("PUT", base + "/v1/devices/link", .object(body))
            }
        }
        return (Double(child.peakResidentBytes - before) / 1e6, slowest)
    }

    /// Wrong secrets for legacy (Argon2id, OWASP cost) devices, all at once, under the default cap;
    /// the timed device signed in once before and so has a salted token hash.
    private func legacyFlood() throws -> (growth: Double, slowest: Double, refused: Double) {
        let child = try MessengerIdleServerProcess(devices: flood + 1, credentials: .legacy)
        defer { child.stop() }
        let base = "http://127.0.0.1:\(child.port)"
        let busy = Atomic<Int>(0)
        try runBlocking {
            let answer = try await HTTPClient().send(
                "GET", base + "/v1/devices", headers: ["Authorization": Self.authorization("bench-0")])
            guard answer.status == 200 else { throw BenchError("the legacy device did not sign in: \(answer.status)") }
        }
        let before = child.residentBytes
        let slowest = try floodTiming(base: base, signedIn: "bench-0") { client, index in
            let wrong =
                "Basic "
                + Base64.encode(Array("bench-\(index + 1).1:\(Base64.encode([UInt8](repeating: 1, count: 32)))".utf8))
            let answer = try await client.send("GET", base + "/v1/devices", headers: ["Authorization": wrong])
            if answer.status == 503 { busy.add(1, ordering: .relaxed) }
        }
        return (Double(child.peakResidentBytes - before) / 1e6, slowest, Double(busy.load(ordering: .relaxed)))
    }

    /// Runs `flood` requests at once while the device `signedIn` asks `GET /v1/devices` in a
    /// loop; returns its slowest answer in milliseconds.
    private func floodTiming(
        base: String, signedIn: String, _ request: @escaping @Sendable (HTTPClient, Int) async throws -> Void
    ) throws -> Double {
        let count = flood
        return try runBlocking {
            let clients = (0..<32).map { _ in HTTPClient(timeout: .seconds(60)) }
            let done = Atomic<Bool>(false)
            let probe = Task { () -> Double in
                let client = HTTPClient()
                var slowest = 0.0
                repeat {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let answer = try await client.send(
                        "GET", base + "/v1/devices", headers: ["Authorization": Self.authorization(signedIn)])
                    guard answer.status == 200 else { throw BenchError("signed-in device got \(answer.status)") }
                    slowest = max(slowest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                } while !done.load(ordering: .acquiring)
                return slowest
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<count { group.addTask { try await request(clients[index % clients.count], index) } }
                try await group.waitForAll()
            }
            done.store(true, ordering: .releasing)
            return try await probe.value
        }
    }

    private static func authorization(_ account: String) -> String {
        "Basic " + Base64.encode(Array("\(account).1:\(MessengerServerBenchmark.password)".utf8))
    }
}
