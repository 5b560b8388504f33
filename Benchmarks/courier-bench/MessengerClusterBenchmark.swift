import CourierCore
import CourierHTTP
import CourierTesting
import Foundation

/// The messenger's routing on two `courier-server` processes behind haproxy, sharing PostgreSQL
/// and NATS, beside one process on its own (no proxy, no bus) on the same cores and the same
/// PostgreSQL server: the cost of the proxy and the bus, not scaling (two cores run everything).
/// And send → delivery latency with the receiving devices on the other instance beside the same
/// with them on the sender's instance.
struct MessengerClusterBenchmark {
    let runs: Int
    let seconds: Int
    let sequentialSends = 2_000

    func run() throws {
        let routing = MessengerServerBenchmark(runs: 1, seconds: seconds, sockets: 0)
        var single: [Double] = [], singleProxied: [Double] = [], proxied: [Double] = []
        var across50: [Double] = [], across99: [Double] = [], same50: [Double] = [], same99: [Double] = []
        for _ in 0..<runs {
            try withCluster(instances: 1, usingNATS: false) { cluster in
                single.append(try routing.route(Self.api(cluster.baseURL(0)), overSockets: true).envelopesPerSecond)
                singleProxied.append(
                    try routing.route(Self.api(cluster.proxyURL), overSockets: true).envelopesPerSecond)
            }
            try withCluster(instances: 2, usingNATS: true) { cluster in
                proxied.append(try routing.route(Self.api(cluster.proxyURL), overSockets: true).envelopesPerSecond)
                let (a, b) = (Self.api(cluster.baseURL(0)), Self.api(cluster.baseURL(1)))
                let across = try Self.sequentialLatency(sender: a, receiver: b, count: sequentialSends)
                let same = try Self.sequentialLatency(sender: a, receiver: a, count: sequentialSends)
                across50.append(across.p50)
                across99.append(across.p99)
                same50.append(same.p50)
                same99.append(same.p99)
            }
        }
        print(
            "== messenger-cluster: routing: \(routing.senders) senders on their sockets, three-envelope sends to one account "
                + "with 3 live devices, \(seconds) s; courier-server processes on PostgreSQL 15 (the test server: "
                + "fsync off), nats-server 2.9, haproxy 2.6, all on the same cores; latency: \(sequentialSends) sends one "
                + "at a time over HTTP to one device, its socket on the other instance or the sender's; median of \(runs) runs =="
        )
        print(
            line(
                "two instances behind haproxy with NATS", median(proxied), "/s", median(single),
                "one instance alone (goal ≥ 0.8×)"))
        print(
            line(
                "one instance behind haproxy, no NATS", median(singleProxied), "/s", median(single),
                "one instance alone: the proxy's share"))
        print(
            decimalLine(
                "send → delivery p50, devices on the other instance", median(across50), "ms", median(same50),
                "same instance"))
        print(
            decimalLine(
                "send → delivery p99, devices on the other instance", median(across99), "ms", median(same99),
                "same instance"))
    }

    /// One sender's sends, one at a time, over HTTP to one device whose socket is on
    /// `receiver`: send → delivery in milliseconds, p50 and p99.
    private static func sequentialLatency(sender: MessengerBenchAPI, receiver: MessengerBenchAPI, count: Int) throws
        -> (p50: Double, p99: Double)
    {
        try runBlocking {
            let alice = try await sender.register()
            let bob = try await receiver.register()
            let sockets = try WebSocketClient()
            defer { sockets.shutdown() }
            let socket = try await receiver.connect(bob, client: sockets)
            var frames = socket.inbound.makeAsyncIterator()
            let content = Base64.encode([UInt8](repeating: 7, count: 160))
            var samples: [UInt64] = []
            for index in 0..<count {
                let body: JSONValue = [
                    "messages": [
                        [
                            "destinationDeviceId": 1, "destinationRegistrationId": 1, "type": 1,
                            "content": .string(content),
                        ]
                    ],
                    "conversationId": "latency", "clientMessageId": .string("latency-\(index)"), "timestamp": 0,
                ]
                let start = DispatchTime.now().uptimeNanoseconds
                let answer = try await sender.client.sendJSON(
                    "PUT", sender.baseURL + "/v1/messages/\(bob.accountId)", body,
                    headers: ["Authorization": alice.authorization])
                guard answer.status == 200 else { throw BenchError("a send answered \(answer.status)") }
                while true {
                    guard case .text(let text)? = await frames.next(), let frame = try? JSONParser.parse(text),
                        let id = frame["id"]?.intValue
                    else { throw BenchError("the socket closed") }
                    try? socket.outbound.sendNow(.text("{\"type\":\"response\",\"id\":\(id),\"status\":200}"))
                    if frame["path"] == "/api/v1/message" { break }
                }
                samples.append(DispatchTime.now().uptimeNanoseconds - start)
            }
            socket.outbound.close()
            samples.sort()
            return (Double(samples[count / 2]) / 1e6, Double(samples[min(count - 1, count * 99 / 100)]) / 1e6)
        }
    }

    private static func api(_ baseURL: String) -> MessengerBenchAPI {
        MessengerBenchAPI(baseURL: baseURL, client: HTTPClient(timeout: .seconds(30)))
    }

    /// Runs `body` on a fresh cluster with every rate limit off, then stops it.
    private func withCluster<T: Sendable>(instances: Int, usingNATS: Bool, _ body: (TestCluster) throws -> T) throws
        -> T
    {
        let cluster = try runBlocking {
            try await TestCluster.start(instances: instances, extra: ["--quiet"], usingNATS: usingNATS)
        }
        defer { cluster.stop() }
        return try body(cluster)
    }
}
