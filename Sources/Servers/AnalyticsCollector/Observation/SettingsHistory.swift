import CourierCore
import Synchronization

/// The settings changes made through the admin API, per project, newest last. Kept in memory
/// and bounded; the settings themselves are stored, their history restarts with the process.
final class SettingsHistory: Sendable {
    private struct Change {
        let atMilliseconds: Int64
        let before: JSONValue
        let after: JSONValue
    }

    private let keep: Int
    private let changes = Mutex<[String: [Change]]>([:])

    /// - Parameter keep: the changes kept per project.
    init(keep: Int = 50) { self.keep = keep }

    /// Notes that `writeKey`'s settings went from `before` to `after`.
    func record(writeKey: String, before: ProjectSettings, after: ProjectSettings, atMilliseconds milliseconds: Int64) {
        changes.withLock { changes in
            var list = changes[writeKey] ?? []
            list.append(Change(atMilliseconds: milliseconds, before: before.json, after: after.json))
            if list.count > keep { list.removeFirst(list.count - keep) }
            changes[writeKey] = list
        }
    }

    /// The changes, newest first.
    func json(writeKey: String) -> JSONValue {
        let list = changes.withLock { $0[writeKey] ?? [] }
        return .object([
            "entries": .array(
                list.reversed().map { change in
                    .object([
                        "at": .string(Timestamp.format(milliseconds: change.atMilliseconds)),
                        "before": change.before, "after": change.after,
                    ])
                })
        ])
    }
}
