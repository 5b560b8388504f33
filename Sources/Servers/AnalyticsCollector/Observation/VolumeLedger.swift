import CourierCore
import Synchronization

/// Events stored per project and type, per minute for the last hour and per hour for the last
/// day: counted as batches commit (a few dictionary updates per batch), so reading volume never
/// scans the events table. Kept in memory (a restarted collector starts from zero), or, on
/// PostgreSQL, only until `SharedObservations` moves it to the tables every instance reads.
final class VolumeLedger: Sendable {
    /// Counts of one project and type, keyed by minute and by hour since 1970.
    struct Counts {
        var minutes: [Int64: Int] = [:]
        var hours: [Int64: Int] = [:]
    }

    private let projects = Mutex<[String: [String: Counts]]>([:])

    /// Adds `countsByType` events stored at `milliseconds` to `writeKey`'s volume.
    func record(writeKey: String, countsByType: [String: Int], atMilliseconds milliseconds: Int64) {
        let minute = milliseconds / 60_000
        let hour = milliseconds / 3_600_000
        projects.withLock { projects in
            var types = projects[writeKey] ?? [:]
            for (type, count) in countsByType where count > 0 {
                var counts = types[type] ?? Counts()
                counts.minutes[minute, default: 0] += count
                counts.hours[hour, default: 0] += count
                // Forget what has left the windows, so memory stays bounded per project and type.
                if counts.minutes.count > 61 { counts.minutes = counts.minutes.filter { $0.key > minute - 60 } }
                if counts.hours.count > 25 { counts.hours = counts.hours.filter { $0.key > hour - 24 } }
                types[type] = counts
            }
            projects[writeKey] = types
        }
    }

    /// Per type: the last 60 minutes and the last 24 hours, oldest first, ending with the current
    /// minute and hour.
    func volume(writeKey: String, atMilliseconds milliseconds: Int64) -> ProjectVolume {
        Self.volume(projects.withLock { $0[writeKey] ?? [:] }, atMilliseconds: milliseconds)
    }

    /// Empties the ledger and returns what it held: events per project, type and minute.
    func drain() -> [String: [String: [Int64: Int]]] {
        projects.withLock { projects in
            defer { projects = [:] }
            return projects.mapValues { types in types.mapValues(\.minutes) }
        }
    }

    /// Puts back what `drain()` returned (its move failed).
    func restore(_ drained: [String: [String: [Int64: Int]]]) {
        for (writeKey, types) in drained {
            for (type, minutes) in types {
                for (minute, count) in minutes {
                    record(writeKey: writeKey, countsByType: [type: count], atMilliseconds: minute * 60_000)
                }
            }
        }
    }

    /// The volume that `types`' counts make at `milliseconds`.
    static func volume(_ types: [String: Counts], atMilliseconds milliseconds: Int64) -> ProjectVolume {
        let minute = milliseconds / 60_000
        let hour = milliseconds / 3_600_000
        var perMinute: [String: [Int]] = [:]
        var perHour: [String: [Int]] = [:]
        for (type, counts) in types {
            perMinute[type] = (0..<60).map { counts.minutes[minute - 59 + Int64($0)] ?? 0 }
            perHour[type] = (0..<24).map { counts.hours[hour - 23 + Int64($0)] ?? 0 }
        }
        return ProjectVolume(
            firstMinute: (minute - 59) * 60_000, firstHour: (hour - 23) * 3_600_000, perMinute: perMinute,
            perHour: perHour)
    }
}

/// A project's recent volume by type.
struct ProjectVolume: Sendable {
    /// The start of the first minute of `perMinute`, in milliseconds since 1970.
    let firstMinute: Int64
    /// The start of the first hour of `perHour`, in milliseconds since 1970.
    let firstHour: Int64
    /// Events per minute by type, 60 values each, oldest first.
    let perMinute: [String: [Int]]
    /// Events per hour by type, 24 values each, oldest first.
    let perHour: [String: [Int]]

    /// Events per minute of every type together, 60 values, oldest first.
    var totalPerMinute: [Int] {
        perMinute.values.reduce(into: Array(repeating: 0, count: 60)) { total, counts in
            for (i, n) in counts.enumerated() { total[i] += n }
        }
    }

    var json: JSONValue {
        .object([
            "firstMinute": .int(firstMinute),
            "firstHour": .int(firstHour),
            "perMinute": .object(perMinute.mapValues { .array($0.map { .int(Int64($0)) }) }),
            "perHour": .object(perHour.mapValues { .array($0.map { .int(Int64($0)) }) }),
        ])
    }
}
