import SignalInteropPeer
import Testing

struct BenchmarkSmokeTests {
    @Test func benchmarkRunsAndReportsEveryRow() throws {
        let report = try SignalBenchmark.run(messages: 40)
        #expect(report.rows.count == 3)
        #expect(report.rows.allSatisfy { $0.ours > 0 && $0.libsignal > 0 })
    }
}
