import Analytics
import CourierCore
import Foundation

/// What the SDK costs an app at launch, on the app's own thread: creating an `Analytics`
/// instance (the first in the process, and later ones) and the first `track` after it, beside the
/// seed's goals (≈ 0 launch cost: `configure` ≤ 50 µs, first `track` ≤ 2 µs). Storage and the
/// settings fetch happen afterwards on the SDK's actor; whether anything is on disk when
/// `configure` returns is printed too.
struct SDKLaunchBenchmark {
    let runs: Int
    let instances = 200

    func run() throws {
        var firstConfigure: Double?
        var configure: [Double] = [], firstTrack: [Double] = []
        var touchedDisk = 0
        for _ in 0..<runs {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("sdk-launch-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            var configureSamples: [Double] = [], trackSamples: [Double] = []
            var held: [Analytics] = []
            for index in 0..<instances {
                var configuration = AnalyticsConfiguration(writeKey: "launch-\(index)", host: "http://127.0.0.1:9")
                configuration.storageDirectory = root.appendingPathComponent(String(index))
                configuration.transport = SDKBenchmark.Offline()
                let start = DispatchTime.now().uptimeNanoseconds
                let analytics = Analytics(configuration: configuration)
                let configured = DispatchTime.now().uptimeNanoseconds
                if FileManager.default.fileExists(atPath: root.appendingPathComponent(String(index)).path) {
                    touchedDisk += 1
                }
                let beforeTrack = DispatchTime.now().uptimeNanoseconds
                analytics.track("App Opened", properties: ["from": "bench"])
                let tracked = DispatchTime.now().uptimeNanoseconds
                configureSamples.append(Double(configured - start) / 1e3)
                trackSamples.append(Double(tracked - beforeTrack) / 1e3)
                held.append(analytics)
            }
            // Only the process's very first instance pays the one-time costs (type metadata, the
            // URLSession stack): later runs' first instances are warm.
            if firstConfigure == nil { firstConfigure = configureSamples[0] }
            configure.append(median(Array(configureSamples.dropFirst())))
            firstTrack.append(median(trackSamples))
            withExtendedLifetime(held) {}
        }
        print(
            "== sdk-launch: Analytics(configuration:) and the first track on the caller's thread, \(instances) "
                + "instances a run, the process's first one apart (one sample); medians of \(runs) runs ==")
        print(decimalLine("configure, first in the process", firstConfigure ?? 0, "µs", 50, "goal ≤ 50 µs"))
        print(decimalLine("configure, later instances (p50)", median(configure), "µs", 50, "goal ≤ 50 µs"))
        print(decimalLine("first track after configure (p50)", median(firstTrack), "µs", 2, "goal ≤ 2 µs"))
        print("   storage directory already on disk when configure returned: \(touchedDisk) of \(runs * instances)")
    }
}
