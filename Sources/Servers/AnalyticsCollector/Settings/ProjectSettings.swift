import CourierCore
import CourierHTTP

/// A project's remote configuration, served to SDKs at `GET /v1/projects/{writeKey}/settings`.
public struct ProjectSettings: Sendable, Equatable {
    /// The kill switch: `false` stops collection and sending in SDKs, and the collector refuses
    /// the project's batches.
    public var enabled = true
    /// Percentage (0–100) of users or sessions whose events are collected.
    public var sampleRate: Double = 100
    /// Events that trigger an upload.
    public var flushAt = 20
    /// Seconds after which queued events are uploaded.
    public var flushIntervalSeconds: Double = 30
    /// Property keys the SDK keeps; `nil` keeps all.
    public var propertyAllowList: [String]?

    /// The defaults: enabled, 100 %, 20 events or 30 s, every property.
    public init() {}

    /// The JSON served to SDKs.
    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "enabled": .bool(enabled),
            "sampleRate": sampleRate.rounded() == sampleRate ? .int(Int64(sampleRate)) : .double(sampleRate),
            "flushAt": .int(Int64(flushAt)),
            "flushIntervalSeconds": flushIntervalSeconds.rounded() == flushIntervalSeconds
                ? .int(Int64(flushIntervalSeconds)) : .double(flushIntervalSeconds),
        ]
        object["propertyAllowList"] = propertyAllowList.map { .array($0.map(JSONValue.string)) } ?? .null
        return .object(object)
    }

    /// Applies the members present in `patch` (a partial settings object).
    /// - Throws: `HTTPError` (400) for an unknown member or a value out of range.
    public func applying(_ patch: JSONValue) throws(HTTPError) -> ProjectSettings {
        guard let members = patch.objectValue else {
            throw HTTPError(.invalidRequest, "settings must be a JSON object")
        }
        var next = self
        for (key, value) in members {
            switch key {
            case "enabled":
                guard let b = value.boolValue else { throw Self.invalid("enabled must be true or false") }
                next.enabled = b
            case "sampleRate":
                guard let d = value.doubleValue, (0...100).contains(d) else {
                    throw Self.invalid("sampleRate must be a number from 0 to 100")
                }
                next.sampleRate = d
            case "flushAt":
                guard let i = value.intValue, (1...2500).contains(i) else {
                    throw Self.invalid("flushAt must be an integer from 1 to 2500")
                }
                next.flushAt = Int(i)
            case "flushIntervalSeconds":
                guard let d = value.doubleValue, d > 0, d <= 86_400 else {
                    throw Self.invalid("flushIntervalSeconds must be more than 0 and at most 86400 seconds")
                }
                next.flushIntervalSeconds = d
            case "propertyAllowList":
                if value.isNull {
                    next.propertyAllowList = nil
                } else {
                    guard let list = value.arrayValue?.compactMap(\.stringValue), list.count == value.arrayValue?.count
                    else {
                        throw Self.invalid("propertyAllowList must be an array of strings or null")
                    }
                    next.propertyAllowList = list
                }
            default:
                throw Self.invalid("unknown setting \(key)")
            }
        }
        return next
    }

    /// Reads settings stored as JSON; unknown or bad members fall back to defaults.
    static func decode(_ text: String) -> ProjectSettings {
        guard let json = try? JSONParser.parse(text), let members = json.objectValue else { return ProjectSettings() }
        var settings = ProjectSettings()
        for (key, value) in members {
            settings = (try? settings.applying(.object([key: value]))) ?? settings
        }
        return settings
    }

    private static func invalid(_ message: String) -> HTTPError {
        HTTPError(.invalidRequest, message)
    }
}
