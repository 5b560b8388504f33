import CourierCore
import CourierNATS
import CourierTesting
import Foundation
import Synchronization

/// The bus between instances on a local `nats-server`: a publish from one connection to a
/// subscriber on another beside a request that finds no responders (the presence check), and
/// what a live device's two subscriptions cost in this process and in the NATS server.
struct NATSBenchmark {
    let runs: Int
    let messages = 5_000
    let subscriptions = 10_000

    func run() throws {
        var publish50: [Double] = [], publish99: [Double] = [], absent50: [Double] = [], answered50: [Double] = []
        var clientBytes: [Double] = [], serverBytes: [Double] = []
        for _ in 0..<runs {
            let (nats, a, b) = try runBlocking {
                let nats = try await TestNATS.start()
                return (
                    nats, try NATSMessageBus(url: nats.url, name: "a"), try NATSMessageBus(url: nats.url, name: "b")
                )
            }
            defer { _ = try? runBlocking { await nats.stop() } }
            let crossing = try latencies { try await self.publishRoundTrips(from: a, to: b) }
            publish50.append(crossing.p50)
            publish99.append(crossing.p99)
            absent50.append(
                try latencies {
                    try await self.requests(from: a, subject: "mbx.nobody.1", expect: .noResponders)
                }.p50)
            let answering = try runBlocking { try await b.subscribe("mbx.somebody.1") { b.reply(to: $0, []) } }
            answered50.append(
                try latencies {
                    try await self.requests(from: a, subject: "mbx.somebody.1", expect: .answered([]))
                }.p50)
            answering.cancel()
            let memory = try subscriptionCost(bus: b, nats: nats)
            clientBytes.append(memory.client)
            serverBytes.append(memory.server)
        }
        print(
            "== nats: \(natsVersion()) on loopback, \(messages) sequential round trips; median of \(runs) runs =="
        )
        print(
            decimalLine(
                "publish → subscriber on another connection, p50", median(publish50) * 1e3, "µs",
                median(publish99) * 1e3, "p99 µs"))
        print(
            decimalLine(
                "presence: request, no responders, p50", median(absent50) * 1e3, "µs", median(publish50) * 1e3,
                "publish p50 µs"))
        print(
            decimalLine(
                "presence: request answered, p50", median(answered50) * 1e3, "µs", median(absent50) * 1e3,
                "no responders p50 µs"))
        print(
            decimalLine(
                "client memory per subscription", median(clientBytes), "B", median(serverBytes), "nats-server's B"))
    }

    /// Sorted round trips in milliseconds: p50 and p99.
    private func latencies(_ body: @escaping @Sendable () async throws -> [UInt64]) throws -> (p50: Double, p99: Double)
    {
        let samples = try runBlocking(body).sorted()
        guard !samples.isEmpty else { throw BenchError("no samples") }
        func at(_ p: Double) -> Double { Double(samples[min(samples.count - 1, Int(Double(samples.count) * p))]) / 1e6 }
        return (at(0.5), at(0.99))
    }

    private func publishRoundTrips(from a: NATSMessageBus, to b: NATSMessageBus) async throws -> [UInt64] {
        let (arrivals, arrived) = AsyncStream.makeStream(of: UInt64.self)
        let subscription = try await b.subscribe("bench.cross") { _ in
            arrived.yield(DispatchTime.now().uptimeNanoseconds)
        }
        defer { subscription.cancel() }
        var iterator = arrivals.makeAsyncIterator()
        var samples: [UInt64] = []
        for _ in 0..<messages {
            let sent = DispatchTime.now().uptimeNanoseconds
            a.publish("bench.cross", [1])
            guard let at = await iterator.next() else { break }
            samples.append(at - sent)
        }
        return samples
    }

    private func requests(from a: NATSMessageBus, subject: String, expect: BusReply) async throws -> [UInt64] {
        var samples: [UInt64] = []
        for _ in 0..<messages {
            let sent = DispatchTime.now().uptimeNanoseconds
            let reply = await a.request(subject, [], timeout: .seconds(5))
            guard reply == expect else { throw BenchError("a request got \(reply), not \(expect)") }
            samples.append(DispatchTime.now().uptimeNanoseconds - sent)
        }
        return samples
    }

    /// Resident bytes per subscription, here and in the NATS server, over `subscriptions` of
    /// them (two per live device: its mailbox and its connection subject).
    private func subscriptionCost(bus: NATSMessageBus, nats: TestNATS) throws -> (client: Double, server: Double) {
        let count = subscriptions
        return try runBlocking {
            let clientBefore = Self.residentBytes()
            let serverBefore = nats.residentBytes
            var held: [BusSubscription] = []
            for index in 0..<count { held.append(try await bus.subscribe("mbx.account-\(index).1") { _ in }) }
            let client = Double(Self.residentBytes() - clientBefore) / Double(count)
            let server = Double(nats.residentBytes - serverBefore) / Double(count)
            held.forEach { $0.cancel() }
            return (client, server)
        }
    }

    private static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let row = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(row.split(separator: " ")[1]) ?? 0) * 1024
    }

    private func natsVersion() -> String {
        (try? ChildProcess.run("/usr/sbin/nats-server", ["--version"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines))
            ?? "?"
    }
}
