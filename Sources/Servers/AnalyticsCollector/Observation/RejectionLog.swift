import CourierCore
import Synchronization

/// Why the collector refused requests or messages, per project: counts by code and the last
/// few reasons. Kept in memory and bounded in entries and in bytes (projects are registered
/// keys of at most 128 bytes, reasons are cut at `maximumMessageBytes`); a restarted collector
/// starts from zero. On PostgreSQL it holds refusals only until `SharedObservations` moves them
/// to the tables every instance reads.
final class RejectionLog: Sendable {
    /// One refusal as the console shows it.
    struct Entry: Sendable {
        let atMilliseconds: Int64
        let code: String
        let message: String
        let count: Int
    }

    /// One project's refusals: counts by code, and the last reasons, oldest first.
    struct Project {
        var counts: [String: Int] = [:]
        var recent: [Entry] = []
    }

    /// Requests whose write key could not be told are filed under this name.
    static let unknownProject = ""
    /// The longest reason kept, in UTF-8 bytes.
    static let maximumMessageBytes = 256
    /// The reasons kept per project.
    let keep: Int
    private let maximumProjects: Int
    private let projects = Mutex<[String: Project]>([:])

    /// - Parameters:
    ///   - keep: the reasons kept per project.
    ///   - maximumProjects: projects tracked at most (write keys are chosen by clients).
    init(keep: Int = 20, maximumProjects: Int = 10_000) {
        self.keep = keep
        self.maximumProjects = maximumProjects
    }

    /// Files `count` refusals with `code` under `writeKey`, which must be a registered project's
    /// (refusals of unknown or malformed keys go under `unknownProject`: the log never keeps
    /// text a client chose as a key). Reasons longer than `maximumMessageBytes` are cut.
    func record(writeKey: String, code: String, message: String, count: Int = 1, atMilliseconds milliseconds: Int64) {
        guard count > 0 else { return }
        var message = message
        if message.utf8.count > Self.maximumMessageBytes {
            message = String(decoding: message.utf8.prefix(Self.maximumMessageBytes - 3), as: UTF8.self) + "…"
        }
        projects.withLock { projects in
            if projects[writeKey] == nil && projects.count >= maximumProjects { return }
            var project = projects[writeKey] ?? Project()
            project.counts[code, default: 0] += count
            project.recent.append(Entry(atMilliseconds: milliseconds, code: code, message: message, count: count))
            if project.recent.count > keep { project.recent.removeFirst(project.recent.count - keep) }
            projects[writeKey] = project
        }
    }

    /// Projects with refusals on file.
    var projectCount: Int { projects.withLock { $0.count } }

    /// Bytes of the write keys the log is keyed by.
    var keyBytes: Int { projects.withLock { $0.keys.reduce(0) { $0 + $1.utf8.count } } }

    /// Bytes of the reasons on file.
    var messageBytes: Int {
        projects.withLock { $0.values.reduce(0) { $0 + $1.recent.reduce(0) { $0 + $1.message.utf8.count } } }
    }

    /// Empties the log and returns what it held, by project.
    func drain() -> [String: Project] {
        projects.withLock { projects in
            defer { projects = [:] }
            return projects
        }
    }

    /// Puts back what `drain()` returned (its move failed), before what came since.
    func restore(_ drained: [String: Project]) {
        projects.withLock { projects in
            for (writeKey, old) in drained {
                var project = old
                if let newer = projects[writeKey] {
                    project.counts.merge(newer.counts, uniquingKeysWith: +)
                    project.recent += newer.recent
                }
                if project.recent.count > keep { project.recent.removeFirst(project.recent.count - keep) }
                projects[writeKey] = project
            }
        }
    }

    /// Counts by code and the last reasons, newest first.
    func json(writeKey: String) -> JSONValue {
        Self.json(projects.withLock { $0[writeKey] ?? Project() })
    }

    /// `project`'s counts by code and its last reasons, newest first.
    static func json(_ project: Project) -> JSONValue {
        .object([
            "counts": .object(project.counts.mapValues { .int(Int64($0)) }),
            "recent": .array(
                project.recent.reversed().map { entry in
                    .object([
                        "at": .string(Timestamp.format(milliseconds: entry.atMilliseconds)),
                        "code": .string(entry.code), "message": .string(entry.message),
                        "count": .int(Int64(entry.count)),
                    ])
                }),
        ])
    }
}
