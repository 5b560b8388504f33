import CourierHTTP
import Foundation

/// Echo round trips through one `WebSocketClient`: `sockets` sockets, each sending a message and
/// waiting for its echo before sending the next, for `seconds`.
struct WebSocketEchoLoad {
    let sockets: Int
    let seconds: Int
    let compression: Bool

    /// Round trips per second and their latency.
    struct Result {
        let roundTripsPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
    }

    /// Runs the load against `url` with `message`; every echo must equal what was sent.
    func run(_ url: String, _ message: WebSocketMessage) throws -> Result {
        let client = try WebSocketClient()
        defer { client.shutdown() }
        let configuration = socketConfiguration
        let (sockets, seconds) = (self.sockets, self.seconds)
        let (samples, elapsed) = try runBlocking {
            var open: [WebSocket] = []
            for _ in 0..<sockets { open.append(try await client.connect(to: url, configuration: configuration)) }
            let start = DispatchTime.now().uptimeNanoseconds
            let end = start + UInt64(seconds) * 1_000_000_000
            let samples = try await withThrowingTaskGroup(of: [UInt64].self) { group in
                for socket in open { group.addTask { try await Self.roundTrips(socket, message, until: end) } }
                var all: [UInt64] = []
                for try await part in group { all += part }
                return all
            }
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            for socket in open { socket.outbound.close() }
            return (samples.sorted(), elapsed)
        }
        guard !samples.isEmpty else { throw BenchError("no echo came back from \(url)") }
        func percentile(_ p: Double) -> Double {
            Double(samples[min(samples.count - 1, Int(Double(samples.count) * p))]) / 1e6
        }
        return Result(
            roundTripsPerSecond: Double(samples.count) / (Double(elapsed) / 1e9),
            p50Milliseconds: percentile(0.50), p99Milliseconds: percentile(0.99))
    }

    /// Sequential round trips on one socket until `end` (uptime nanoseconds); their latencies.
    static func roundTrips(_ socket: WebSocket, _ message: WebSocketMessage, until end: UInt64) async throws
        -> [UInt64]
    {
        var samples: [UInt64] = []
        samples.reserveCapacity(1 << 16)
        var replies = socket.inbound.makeAsyncIterator()
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            guard start < end else { return samples }
            try await socket.outbound.send(message)
            guard let reply = await replies.next() else {
                throw BenchError(
                    "the server closed a socket during the echo load: \(String(describing: socket.closeInfo))")
            }
            guard reply == message else { throw BenchError("an echo differed from the message sent") }
            samples.append(DispatchTime.now().uptimeNanoseconds - start)
        }
    }

    /// The client's settings for each socket: compression as asked.
    var socketConfiguration: WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.compression = compression
        return configuration
    }
}
