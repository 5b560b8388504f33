import Analytics
import CourierCore
import CourierHTTP
import Foundation

/// `courier track NAME --prop k=v …`: sends events through the Analytics SDK (its persisted
/// queue, batching and retries) to a running collector, waits for the upload's answer, and says
/// what happened: how many events the collector stored and, when some were not, why.
struct TrackCommand {
    let name: String
    let properties: [String: JSONValue]
    let server: String
    let writeKey: String
    let userId: String?
    /// The SDK's queue folder (`--data-dir`, else under `DataDirectory`).
    let dataDirectory: String
    let count: Int
    let progressEvery: Int?
    let drainSeconds: Double

    static func parseProperties(_ pairs: [String]) throws -> [String: JSONValue] {
        try KeyValueArguments.parse(pairs, form: "--prop")
    }

    /// Reads the project's settings first, so the sample rate and kill switch in force are known
    /// before the first event (the SDK's own fetch runs beside the events and may land after
    /// them), then tracks, waits and reports.
    /// - Returns: 0 when every event was stored or sampled out as the project asks, 2 otherwise.
    func run() async -> Int32 {
        let project = await ProjectProbe.read(server: server, writeKey: writeKey, timeout: uploadTimeout)
        let (stats, result) = await send(project: project)
        let report = TrackReport(command: self, project: project, stats: stats, result: result)
        FileHandle.standardError.write(Data("courier: \(report.line)\n".utf8))
        return report.succeeded ? 0 : 2
    }

    /// How many calls the loop makes before it waits for them to be uploaded: at most 10,000
    /// (a tenth of the SDK's pending calls) and about half the queue's bytes, so a large
    /// `--count` is neither refused nor pushed out of the queue before it is sent.
    static func callsAheadOfUpload(eventBytes: Int, queueBytes: Int) -> Int {
        max(1, min(10_000, queueBytes / 2 / max(1, eventBytes)))
    }

    /// How long one upload may take: within the drain, so its answer is known before the report.
    private var uploadTimeout: Duration { .milliseconds(Int64(max(0.5, drainSeconds * 0.8) * 1000)) }

    /// Tracks the events and waits until the queue is uploaded, refused, or the drain is over.
    private func send(project: ProjectProbe) async -> (AnalyticsStats, FlushResult?) {
        var configuration = AnalyticsConfiguration(writeKey: writeKey, host: server)
        configuration.storageDirectory = URL(fileURLWithPath: dataDirectory)
        configuration.transport = URLSessionTransport(
            timeout: Double(uploadTimeout.components.seconds) + Double(uploadTimeout.components.attoseconds) / 1e18)
        // What the collector says now wins over what an earlier run stored.
        if case .settings(_, let rate, let json) = project {
            configuration.sampleRate = rate
            configuration.currentSettings = json
        }
        // Running the command is the user's consent to send these events.
        configuration.defaultConsent = .granted
        configuration.logger = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        let analytics = Analytics(configuration: configuration)
        analytics.setConsent(.granted)
        if let userId { analytics.identify(userId: userId) }
        // An event's bytes in the queue: its properties, name and ids (the context is stored
        // once per session).
        let eventBytes = JSONWriter.encode(.object(properties)).count + name.utf8.count + 300
        let block = Self.callsAheadOfUpload(eventBytes: eventBytes, queueBytes: configuration.maximumQueueBytes)
        for i in 0..<count {
            var props = properties
            if count > 1 { props["seq"] = .int(Int64(i)) }
            analytics.track(name, properties: props)
            if let every = progressEvery, (i + 1) % every == 0 {
                let stats = analytics.stats
                FileHandle.standardOutput.write(Data("tracked=\(i + 1) stored=\(stats.stored)\n".utf8))
            }
            // The SDK refuses calls rather than block its caller when its pipeline is behind; a
            // tool asked for N events waits for each block's upload instead, so none is refused.
            // When the collector did not take a batch (refused, failed, or the SDK is backing off
            // after a failure), tracking more would only fill the queue: it stops, and the
            // report says why.
            if (i + 1) % block == 0, i + 1 < count, await analytics.flushed().blocked { break }
        }
        let result = await Self.drain(analytics, timeout: .milliseconds(Int64(drainSeconds * 1000) + 1000))
        return (analytics.stats, result)
    }

    /// `Analytics.drain(timeout:)` on a thread of its own: it blocks its thread, and the SDK's
    /// pipeline needs the concurrency pool's meanwhile.
    private static func drain(_ analytics: Analytics, timeout: Duration) async -> FlushResult? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: analytics.drain(timeout: timeout)) }
        }
    }
}

/// What the collector's public settings route said before anything was tracked.
enum ProjectProbe: Equatable {
    /// A Courier collector's settings: the kill switch and the sample rate in percent.
    case settings(enabled: Bool, sampleRate: Double, json: JSONValue)
    /// A Courier collector that does not know the write key.
    case unknownWriteKey
    /// No answer: the transport's words ("connection refused").
    case unreachable(String)
    /// An answer that is not a Courier collector's: the status and what the body looked like.
    case notCourier(status: Int, body: String)

    static func read(server: String, writeKey: String, timeout: Duration) async -> ProjectProbe {
        let url = "\(server)/v1/projects/\(AdminClient.escape(writeKey))/settings"
        let response: HTTPClientResponse
        do {
            response = try await HTTPClient(timeout: timeout).send("GET", url)
        } catch {
            return .unreachable("\(error)")
        }
        let json = response.json?.objectValue
        if response.status == 200, let json, let enabled = json["enabled"]?.boolValue {
            return .settings(enabled: enabled, sampleRate: json["sampleRate"]?.doubleValue ?? 100, json: .object(json))
        }
        // The collector's words for a write key it does not know; any other 404 is a server
        // without a collector's routes.
        if response.status == 404, json?["error"]?["message"]?.stringValue == "unknown write key" {
            return .unknownWriteKey
        }
        let type = response.header("Content-Type") ?? "no content type"
        return .notCourier(status: response.status, body: response.body.isEmpty ? "an empty body" : type)
    }
}
