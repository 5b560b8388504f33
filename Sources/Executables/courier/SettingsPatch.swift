import CourierCommandLine
import CourierCore

/// Builds the settings change from `courier settings set` options.
enum SettingsPatch {
    /// The options that set one setting each: the option, the setting's key, what the option
    /// takes (for the refusal) and how its text becomes the setting's value.
    private static let settings:
        [(option: String, key: String, takes: String, parse: @Sendable (String) -> JSONValue?)] = [
            ("--enabled", "enabled", "true or false", { Bool($0).map(JSONValue.bool) }),
            ("--sample-rate", "sampleRate", "a number from 0 to 100", { Double($0).map(JSONValue.double) }),
            ("--flush-at", "flushAt", "a whole number", { Int64($0).map(JSONValue.int) }),
            ("--flush-interval", "flushIntervalSeconds", "seconds", { Double($0).map(JSONValue.double) }),
        ]

    static func from(_ arguments: Invocation) throws -> JSONValue {
        var patch: [String: JSONValue] = [:]
        for setting in settings {
            guard let text = arguments.value(setting.option) else { continue }
            guard let value = setting.parse(text) else {
                throw CommandError("\(setting.option) takes \(setting.takes)")
            }
            patch[setting.key] = value
        }
        if let list = arguments.value("--allow-list") {
            patch["propertyAllowList"] = .array(list.split(separator: ",").map { .string(String($0)) })
        }
        if arguments.flag("--allow-all") { patch["propertyAllowList"] = .null }
        guard !patch.isEmpty else { throw CommandError("settings set needs at least one change") }
        return .object(patch)
    }
}
