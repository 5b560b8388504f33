import Analytics
import CourierCore
import Foundation

/// `courier track NAME --prop k=v …`: sends events through the Analytics SDK (its persisted
/// queue, batching and retries) to a running collector, then drains the queue before exiting.
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
        var properties: [String: JSONValue] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandError("--prop takes key=value, not \(pair)")
            }
            let key = String(pair[..<equals])
            let text = String(pair[pair.index(after: equals)...])
            // Numbers, booleans, null, arrays and objects are JSON; anything else is a string.
            properties[key] = (try? JSONParser.parse(text)) ?? .string(text)
        }
        return properties
    }

    func run() -> Int32 {
        var configuration = AnalyticsConfiguration(writeKey: writeKey, host: server)
        configuration.storageDirectory = URL(fileURLWithPath: dataDirectory)
        // Running the command is the user's consent to send these events.
        configuration.defaultConsent = .granted
        configuration.logger = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        let analytics = Analytics(configuration: configuration)
        analytics.setConsent(.granted)
        if let userId { analytics.identify(userId: userId) }
        for i in 0..<count {
            var props = properties
            if count > 1 { props["seq"] = .int(Int64(i)) }
            analytics.track(name, properties: props)
            if let every = progressEvery, (i + 1) % every == 0 {
                let stats = analytics.stats
                FileHandle.standardOutput.write(Data("tracked=\(i + 1) stored=\(stats.stored)\n".utf8))
            }
        }
        let result = analytics.drain(timeout: .milliseconds(Int64(drainSeconds * 1000)))
        let stats = analytics.stats
        let summary =
            "tracked \(stats.tracked), sent \(stats.sent), still queued \(result?.remaining ?? stats.queuedEvents)"
        FileHandle.standardError.write(Data("courier: \(summary)\n".utf8))
        return (result?.remaining ?? 1) == 0 ? 0 : 2
    }
}
