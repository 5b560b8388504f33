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

    func run() throws {
        let routing = MessengerServerBenchmark(runs: 1, seconds: seconds, sockets: 0)
        var single: [Double] = [], proxied: [Double] = []
        var across50: [Double] = [], across99: [Double] = [], same50: [Double] = [], same99: [Double] = []
        for _ in 0..<runs {
            single.append(
                try withCluster(instances: 1, usingNATS: false) { cluster in
                    try routing.route(Self.api(cluster.baseURL(0)), overSockets: true).envelopesPerSecond
                })
            try withCluster(instances: 2, usingNATS: true) { cluster in
                proxied.append(try routing.route(Self.api(cluster.proxyURL), overSockets: true).envelopesPerSecond)
                let across = try routing.route(
                    Self.api(cluster.baseURL(0)), receivers: Self.api(cluster.baseURL(1)), overSockets: true)
                let same = try routing.route(Self.api(cluster.baseURL(0)), overSockets: true)
                across50.append(across.p50)
                across99.append(across.p99)
                same50.append(same.p50)
                same99.append(same.p99)
            }
        }
        print(
            "== messenger-cluster: \(routing.senders) senders on their sockets, three-envelope sends to one account "
                + "with 3 live devices, \(seconds) s; courier-server processes on PostgreSQL 15 (the test server: "
                + "fsync off), nats-server 2.9, haproxy 2.6, all on the same cores; median of \(runs) runs ==")
        print(
            line(
                "two instances behind haproxy with NATS", median(proxied), "/s", median(single),
                "one instance alone (goal ≥ 0.8×)"))
        print(
            decimalLine(
                "send → delivery p50, devices on the other instance", median(across50), "ms", median(same50),
                "same instance"))
        print(
            decimalLine(
                "send → delivery p99, devices on the other instance", median(across99), "ms", median(same99),
                "same instance"))
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
