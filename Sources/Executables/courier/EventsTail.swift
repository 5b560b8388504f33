import CourierCore
import Foundation

/// `courier events tail`: pages through stored events with the keyset cursor, printing one JSON
/// line per event; with `--follow`, keeps polling for new ones.
struct EventsTail {
    let client: AdminClient
    let writeKey: String
    let after: String
    let follow: Bool
    let interval: Double
    let clock: any Clock = SystemClock()

    func run() async throws {
        var cursor = after
        while true {
            let page = try await client.events(writeKey: writeKey, after: cursor, limit: 1000)
            for event in page["events"]?.arrayValue ?? [] {
                FileHandle.standardOutput.write(Data((JSONWriter.string(event) + "\n").utf8))
            }
            cursor = page["lastCursor"]?.stringValue ?? cursor
            if page["nextCursor"]?.stringValue != nil { continue }
            guard follow else { return }
            try await clock.sleep(for: .milliseconds(Int64(interval * 1000)))
        }
    }
}
