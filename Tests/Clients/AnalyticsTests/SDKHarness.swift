import Analytics
import CourierCore
import CourierTesting
import Foundation

/// Builds SDK instances over a temp directory, a manual clock and a fake transport.
struct SDKHarness {
    let directory: URL
    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_795_939_200))
    let transport = FakeTransport()
    let logs = LogCollector()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-sdk-\(Identifier.uuid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func configuration(_ change: (inout AnalyticsConfiguration) -> Void = { _ in }) -> AnalyticsConfiguration {
        var configuration = AnalyticsConfiguration(writeKey: "sdk-test-key", host: "http://collector.invalid")
        configuration.storageDirectory = directory
        configuration.clock = clock
        configuration.transport = transport
        configuration.defaultConsent = .granted
        configuration.fetchesRemoteSettings = false
        configuration.backoff = Backoff(base: .seconds(1), cap: .seconds(60))
        let logs = self.logs
        configuration.logger = { logs.append($0) }
        change(&configuration)
        return configuration
    }

    func make(_ change: (inout AnalyticsConfiguration) -> Void = { _ in }) -> Analytics {
        Analytics(configuration: configuration(change))
    }

    /// The queue database file of the test write key.
    var queueFiles: [URL] {
        let folders =
            (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return folders.flatMap {
            (try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)) ?? []
        }
    }

    /// Waits until `sleepers` timers sleep on the manual clock, then advances it: the advance can
    /// never run before the timer it means to fire was registered.
    func advance(_ duration: Duration, sleepers: Int = 1) async throws {
        try await clock.waitForSleepers(sleepers)
        clock.advance(by: duration)
    }
}

/// Log lines the SDK wrote.
final class LogCollector: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

import Synchronization
