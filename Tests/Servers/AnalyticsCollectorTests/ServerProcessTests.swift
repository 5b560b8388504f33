import CourierCommandLine
import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The `courier-server` executable as an operator runs it.
@Suite(.timeLimit(.minutes(3)))
struct ServerProcessTests {
    static var serverExecutable: String? { builtExecutable(named: "courier-server") }

    static func dataDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("courier-server-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test(arguments: ["", "short-token"])
    func anEmptyOrShortAdminTokenIsRefusedAtStartup(token: String) async throws {
        let server = try #require(Self.serverExecutable, "build courier-server first (swift build)")
        let data = try Self.dataDirectory()
        let (status, errors) = await runOffPool { () -> (Int32, String) in
            guard
                let outcome = try? ChildProcess.run(
                    server, ["--port", "0", "--data-dir", data.path, "--write-key", "k"],
                    environment: ["COURIER_ADMIN_TOKEN": token])
            else { return (-1, "") }
            return (outcome.status, outcome.errorOutput)
        }
        #expect(status == 1)
        #expect(errors.contains("at least 16 bytes"))
    }

    @Test(arguments: [
        (["--trusted-proxy", "not-a-network"], "--trusted-proxy"), (["--nats", "http://127.0.0.1:4222"], "--nats"),
    ])
    func aClusterOptionWithABadValueIsRefusedBeforeAnythingStarts(arguments: [String], named: String) async throws {
        let server = try #require(Self.serverExecutable, "build courier-server first (swift build)")
        let data = try Self.dataDirectory()
        let outcome = await runOffPool {
            try? ChildProcess.run(server, ["--port", "0", "--data-dir", data.path, "--write-key", "k"] + arguments)
        }
        #expect(outcome?.status == UsageError.exitCode)
        #expect(outcome?.errorOutput.contains(named) == true, "\(outcome?.errorOutput ?? "")")
    }

    /// What one request of a client got.
    enum Outcome: Sendable, Equatable {
        case answered(Int)
        case refused
        case noAnswer
    }

    /// Starts `courier-server` on an ephemeral port with rate limits off; returns it and its port.
    static func start(_ server: String, data: URL, writeKey: String, extra: [String] = []) async throws -> (
        ChildProcess, Int
    ) {
        let process = try ChildProcess(
            server,
            [
                "--port", "0", "--data-dir", data.path, "--write-key", writeKey, "--quiet",
                "--rate-limit-client", "0", "--rate-limit-key", "0",
            ] + extra, output: .pipe, errorOutput: .discard)
        let stdout = process.output!
        let port: Int = await runOffPool {
            var text = ""
            while !text.contains("\n") {
                let chunk = stdout.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: "http://127.0.0.1:") else { return 0 }
            return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        try #require(port > 0)
        return (process, port)
    }

    /// A batch of 20 track events whose `messageId`s start with `id`.
    static func batch(id: String) -> String {
        JSONWriter.string([
            "batch": .array(
                (0..<20).map { i in
                    ["type": "track", "event": "Load", "userId": "u", "messageId": .string("\(id)-\(i)")]
                })
        ])
    }

    /// Posts `body` as an SDK retries it: a 5xx (a commit that outlived `commitTimeout` under a
    /// loaded full suite) or no answer is sent again, up to five times; the dedupe keeps the
    /// batch once either way.
    static func postRetrying(_ body: String, port: Int, auth: String) -> Outcome {
        var outcome = Outcome.noAnswer
        for _ in 0..<5 {
            outcome = post(body, port: port, auth: auth)
            if case .answered(let status) = outcome, status < 500 { break }
        }
        return outcome
    }

    /// Posts `body` to `/v1/batch` on a fresh connection.
    static func post(_ body: String, port: Int, auth: String) -> Outcome {
        guard let socket = try? RawSocket(port: port, timeoutSeconds: 30) else { return .refused }
        let request =
            "POST /v1/batch HTTP/1.1\r\nHost: x\r\nAuthorization: \(auth)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        guard (try? socket.send(request)) != nil, let response = socket.readResponse() else { return .noAnswer }
        return .answered(response.status)
    }

    @Test func sigtermAnswersEveryRequestInFlightAndKeepsEveryAcknowledgedBatch() async throws {
        let server = try #require(Self.serverExecutable, "build courier-server first (swift build)")
        let data = try Self.dataDirectory()
        let (process, port) = try await Self.start(server, data: data, writeKey: "sigterm-key")
        let record = OutcomeRecord()
        let auth = "Basic " + Base64.encode(Array("sigterm-key:".utf8))
        // Eight clients send batches on fresh connections until the server turns them away.
        let clients = (0..<8).map { client in
            Task {
                await runOffPool {
                    for round in 0..<400 {
                        let id = "c\(client)-r\(round)"
                        // Sent before the stop began: such a request must be answered.
                        let inFlightAtStop = !record.stopping
                        let outcome = Self.post(Self.batch(id: id), port: port, auth: auth)
                        record.add(outcome, inFlightAtStop: inFlightAtStop)
                        if outcome != .answered(200) { return }
                    }
                }
            }
        }
        #expect(await poll { record.acknowledgedCount >= 100 })
        record.stop()
        process.terminate()
        for client in clients { await client.value }
        let status = await runOffPool { process.wait() }
        #expect(status == 0)
        // Every request sent before the stop was answered: 200, or 503 once the server was
        // stopping. One sent after may also find the listener closing (refused, or no answer).
        #expect(record.outcomes(inFlightAtStop: true).allSatisfy { $0 == .answered(200) || $0 == .answered(503) })
        #expect(record.outcomes(inFlightAtStop: false).allSatisfy { $0 != .answered(500) })
        #expect(record.outcomes(inFlightAtStop: true).count >= 100)
        // Every acknowledged batch is in the database.
        let db = try Database(path: data.appendingPathComponent("collector.sqlite").path)
        let stored = try db.query("SELECT count(*) FROM events") { $0.int(0) }.first ?? 0
        #expect(stored == Int64(record.acknowledgedCount * 20))
    }
}

/// What the clients of the SIGTERM test saw, shared across their threads.
final class OutcomeRecord: Sendable {
    private struct State {
        var outcomes: [(outcome: ServerProcessTests.Outcome, inFlightAtStop: Bool)] = []
        var acknowledged = 0
        var stopping = false
    }

    private let state = Mutex(State())

    func add(_ outcome: ServerProcessTests.Outcome, inFlightAtStop: Bool) {
        state.withLock {
            $0.outcomes.append((outcome, inFlightAtStop))
            if outcome == .answered(200) { $0.acknowledged += 1 }
        }
    }

    /// Marks the moment the stop signal is about to be sent.
    func stop() { state.withLock { $0.stopping = true } }

    var stopping: Bool { state.withLock { $0.stopping } }

    func outcomes(inFlightAtStop: Bool) -> [ServerProcessTests.Outcome] {
        state.withLock { $0.outcomes.filter { $0.inFlightAtStop == inFlightAtStop }.map(\.outcome) }
    }

    var acknowledgedCount: Int { state.withLock { $0.acknowledged } }
}
