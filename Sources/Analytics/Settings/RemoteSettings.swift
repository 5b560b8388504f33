import CourierCore

/// The collector's settings for this write key, as last fetched (the last-known-good copy is
/// persisted, so the kill switch holds offline and across restarts).
struct RemoteSettings: Sendable, Equatable {
    var enabled = true
    var sampleRate: Double?
    var flushAt: Int?
    var flushIntervalSeconds: Double?
    var propertyAllowList: [String]?
    var allowListSet = false

    init() {}

    /// Reads the collector's JSON; unknown members are ignored, bad values keep the defaults.
    init(json: JSONValue) {
        enabled = json["enabled"]?.boolValue ?? true
        sampleRate = json["sampleRate"]?.doubleValue.flatMap { (0...100).contains($0) ? $0 : nil }
        flushAt = json["flushAt"]?.intValue.flatMap { (1...2500).contains($0) ? Int($0) : nil }
        flushIntervalSeconds = json["flushIntervalSeconds"]?.doubleValue.flatMap { $0 > 0 ? $0 : nil }
        if let list = json["propertyAllowList"] {
            allowListSet = true
            propertyAllowList = list.arrayValue?.compactMap(\.stringValue)
        }
    }

    var json: JSONValue {
        var object: [String: JSONValue] = ["enabled": .bool(enabled)]
        if let sampleRate { object["sampleRate"] = .double(sampleRate) }
        if let flushAt { object["flushAt"] = .int(Int64(flushAt)) }
        if let flushIntervalSeconds { object["flushIntervalSeconds"] = .double(flushIntervalSeconds) }
        if allowListSet { object["propertyAllowList"] = propertyAllowList.map { .array($0.map(JSONValue.string)) } ?? .null }
        return .object(object)
    }
}
