import CourierCommandLine
import CourierCore

/// Builds the settings change from `courier settings set` options.
enum SettingsPatch {
    static func from(_ arguments: Invocation) throws -> JSONValue {
        var patch: [String: JSONValue] = [:]
        if let enabled = arguments.value("--enabled") {
            guard let value = Bool(enabled) else { throw CommandError("--enabled takes true or false") }
            patch["enabled"] = .bool(value)
        }
        if let rate = arguments.value("--sample-rate") {
            guard let value = Double(rate) else { throw CommandError("--sample-rate takes a number from 0 to 100") }
            patch["sampleRate"] = .double(value)
        }
        if let count = arguments.value("--flush-at") {
            guard let value = Int64(count) else { throw CommandError("--flush-at takes a whole number") }
            patch["flushAt"] = .int(value)
        }
        if let seconds = arguments.value("--flush-interval") {
            guard let value = Double(seconds) else { throw CommandError("--flush-interval takes seconds") }
            patch["flushIntervalSeconds"] = .double(value)
        }
        if let list = arguments.value("--allow-list") {
            patch["propertyAllowList"] = .array(list.split(separator: ",").map { .string(String($0)) })
        }
        if arguments.flag("--allow-all") { patch["propertyAllowList"] = .null }
        guard !patch.isEmpty else { throw CommandError("settings set needs at least one change") }
        return .object(patch)
    }
}
