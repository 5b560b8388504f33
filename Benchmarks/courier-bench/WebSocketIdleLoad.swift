import CourierHTTP
import Foundation

/// Idle WebSockets held by a server in a child process: `sockets` are opened `batch` at a time
/// through one `WebSocketClient`, each echoes one message (so it is open and served), and the
/// server's RSS is read before and after.
struct WebSocketIdleLoad {
    let sockets: Int
    let compression: Bool
    let batch = 250

    /// What one server held and what it cost.
    struct Result {
        let held: Int
        let residentBefore: Int
        let residentAfter: Int
        /// A round trip on a socket opened before the idle ones, once all are open (median of 10),
        /// or `nil` when 10 took over 20 s.
        let echoMilliseconds: Double?
        let openSeconds: Double
        /// Why opening stopped short of `sockets`, if it did.
        let failure: String?

        /// Server memory per held socket, in KB (1,000 bytes).
        var kilobytesPerSocket: Double {
            held > 0 ? Double(residentAfter - residentBefore) / Double(held) / 1000 : 0
        }
    }

    /// Starts `kind` in a child process and holds as many of `sockets` idle sockets as it takes.
    func run(_ kind: WebSocketServerProcess.Kind) throws -> Result {
        let server = try WebSocketServerProcess(kind)
        defer { server.stop() }
        var clientConfiguration = WebSocketClientConfiguration()
        clientConfiguration.shutdownGraceMilliseconds = 200
        let client = try WebSocketClient(configuration: clientConfiguration)
        defer { client.shutdown() }
        let configuration = socketConfiguration
        let url = "ws://127.0.0.1:\(server.port)/echo"
        let (sockets, batch) = (self.sockets, self.batch)
        let probe = try runBlocking {
            try await withDeadline(20, "the first socket") {
                let probe = try await client.connect(to: url, configuration: configuration)
                _ = try await Self.echo(probe, "warm-up")
                return probe
            }
        }
        let before = server.residentBytes
        let started = DispatchTime.now().uptimeNanoseconds
        let (idle, failure) = try runBlocking { () async throws -> ([WebSocket], String?) in
            var idle: [WebSocket] = []
            idle.reserveCapacity(sockets)
            while idle.count < sockets {
                let count = min(batch, sockets - idle.count)
                do {
                    idle += try await withThrowingTaskGroup(of: WebSocket.self) { group in
                        for _ in 0..<count {
                            group.addTask {
                                try await withDeadline(20, "a connect and its first echo") {
                                    let socket = try await client.connect(to: url, configuration: configuration)
                                    _ = try await Self.echo(socket, "idle")
                                    return socket
                                }
                            }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                } catch {
                    return (idle, "opening socket \(idle.count + 1)…\(idle.count + count) failed: \(error)")
                }
            }
            return (idle, nil)
        }
        let openSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let after = server.residentBytes
        let stillOpen = idle.filter { $0.closeInfo == nil }.count
        let echo = try? runBlocking {
            try await withDeadline(20, "the echo while all are open") {
                var samples: [Double] = []
                for _ in 0..<10 { samples.append(try await Self.echo(probe, "while all are open")) }
                return median(samples)
            }
        }
        guard stillOpen == idle.count else {
            throw BenchError("\(idle.count - stillOpen) of \(idle.count) idle sockets closed on \(kind.rawValue)")
        }
        return Result(
            held: idle.count, residentBefore: before, residentAfter: after, echoMilliseconds: echo,
            openSeconds: openSeconds, failure: failure)
    }

    /// One round trip of `text` on `socket`, in milliseconds.
    static func echo(_ socket: WebSocket, _ text: String) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await socket.outbound.send(text: text)
        var replies = socket.inbound.makeAsyncIterator()
        guard await replies.next() == .text(text) else {
            throw BenchError("no echo (socket \(String(describing: socket.closeInfo)))")
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// The client's settings for each socket: compression as asked.
    var socketConfiguration: WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.compression = compression
        return configuration
    }
}
