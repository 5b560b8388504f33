import Analytics
import CourierCore
import Foundation

/// What the SDK costs an app at launch, on the app's own thread: creating its configuration and
/// an `Analytics` instance (as `Analytics.configure` does; the first in a fresh process, and later
/// ones) and the first `track` after it, beside the seed's goals (≈ 0 launch cost: `configure`
/// ≤ 50 µs, first `track` ≤ 2 µs). The first in a fresh process is measured in child processes,
/// beside the same processes' bare first `Task.detached(priority: .utility)`: the concurrency
/// runtime's one-time start, which any first task in a process pays, and beside a bare first
/// thread (`pthread_create`): the floor under any way of getting work off the caller's thread in
/// a process that has no other thread yet. Storage and the settings
/// fetch happen afterwards on the SDK's actor; whether anything is on disk when `configure`
/// returns is printed too.
struct SDKLaunchBenchmark {
    let runs: Int
    let instances = 200

    /// The hidden child modes (`sdk-launch-configure`, `sdk-launch-task`, `sdk-launch-thread`):
    /// times the one measured step as the process's first use of the SDK, of a task or of a
    /// thread, and prints the microseconds.
    static func child(_ mode: String) -> Int32 {
        if mode == "sdk-launch-thread" {
            let start = DispatchTime.now().uptimeNanoseconds
            var thread = pthread_t()
            let made = pthread_create(&thread, nil, { _ in nil }, nil)
            if made == 0 { pthread_detach(thread) }
            let end = DispatchTime.now().uptimeNanoseconds
            guard made == 0 else { return 1 }
            print(Double(end - start) / 1e3)
            return 0
        }
        if mode == "sdk-launch-task" {
            let start = DispatchTime.now().uptimeNanoseconds
            Task.detached(priority: .utility) {}
            let end = DispatchTime.now().uptimeNanoseconds
            print(Double(end - start) / 1e3)
            return 0
        }
        let root = NSTemporaryDirectory() + "sdk-launch-child-" + UUID().uuidString
        // The benchmark's own choices (a directory of its own, no network) are made before the
        // clock starts: an app that sets neither pays for neither.
        let directory = URL(fileURLWithPath: root)
        let offline = SDKBenchmark.Offline()
        let start = DispatchTime.now().uptimeNanoseconds
        var configuration = AnalyticsConfiguration(writeKey: "launch", host: "http://127.0.0.1:9")
        configuration.storageDirectory = directory
        configuration.transport = offline
        let analytics = Analytics(configuration: configuration)
        let end = DispatchTime.now().uptimeNanoseconds
        print(Double(end - start) / 1e3)
        // The pipeline opens its storage before the directory is removed.
        _ = analytics.drain(timeout: .seconds(2))
        try? FileManager.default.removeItem(atPath: root)
        return 0
    }

    /// The first `configure`, the bare first task and the bare first thread, each in `count`
    /// fresh processes (taken in turns), in microseconds.
    private func freshProcesses(_ count: Int) throws -> (configure: [Double], task: [Double], thread: [Double]) {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        func figure(_ mode: String) throws -> Double {
            let printed = try SDKSizeBenchmark.output(executable, [mode])
            guard let value = Double(printed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw BenchError("the \(mode) child printed no figure")
            }
            return value
        }
        var configure: [Double] = [], task: [Double] = [], thread: [Double] = []
        for _ in 0..<count {
            configure.append(try figure("sdk-launch-configure"))
            task.append(try figure("sdk-launch-task"))
            thread.append(try figure("sdk-launch-thread"))
        }
        return (configure, task, thread)
    }

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
                let directory = root.appendingPathComponent(String(index))
                let start = DispatchTime.now().uptimeNanoseconds
                var configuration = AnalyticsConfiguration(writeKey: "launch-\(index)", host: "http://127.0.0.1:9")
                configuration.storageDirectory = directory
                configuration.transport = SDKBenchmark.Offline()
                let analytics = Analytics(configuration: configuration)
                let configured = DispatchTime.now().uptimeNanoseconds
                if FileManager.default.fileExists(atPath: directory.path) {
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
        let fresh = try freshProcesses(max(5, runs * 3))
        print(
            "== sdk-launch: Analytics(configuration:) and the first track on the caller's thread, \(instances) "
                + "instances a run, the process's first one apart (one sample); medians of \(runs) runs ==")
        print(decimalLine("configure, first in the process", firstConfigure ?? 0, "µs", 50, "goal ≤ 50 µs"))
        print(
            decimalLine(
                "configure, first in a fresh process (median of \(fresh.configure.count))", median(fresh.configure),
                "µs",
                median(fresh.task), "bare first utility Task.detached"))
        print(
            decimalLine(
                "configure, first in a fresh process", median(fresh.configure), "µs", median(fresh.thread),
                "bare first pthread_create"))
        print(
            decimalLine(
                "configure, first in a fresh process", median(fresh.configure), "µs", 50, "goal ≤ 50 µs"))
        print(
            decimalLine(
                "bare first pthread_create, fresh process", median(fresh.thread), "µs", 50,
                "goal ≤ 50 µs (over 1: out of reach)"))
        print(decimalLine("configure, later instances (p50)", median(configure), "µs", 50, "goal ≤ 50 µs"))
        print(decimalLine("first track after configure (p50)", median(firstTrack), "µs", 2, "goal ≤ 2 µs"))
        print("   storage directory already on disk when configure returned: \(touchedDisk) of \(runs * instances)")
    }
}
