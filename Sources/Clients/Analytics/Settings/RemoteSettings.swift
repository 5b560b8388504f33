import CourierCore

/// The collector's settings for this write key, as last fetched (the last-known-good copy is
/// persisted, so the kill switch holds offline and across restarts).
///
/// The collector is not trusted with the host's stability: a member that is missing, `null`, of
/// the wrong type, NaN or infinite means "no opinion" (the app's configuration applies), and a
/// finite number is clamped into its documented range before anything converts it.
package struct RemoteSettings: Sendable, Equatable {
    /// The range each remote number is clamped into (docs/analytics-sdk.md has the same table).
    package enum Range {
        /// Percent of users or sessions kept.
        package static let sampleRate: ClosedRange<Double> = 0...100
        /// Events that trigger an upload.
        package static let flushAt: ClosedRange<Int> = 1...2500
        /// Seconds after the first unsent event before an upload: one second to one day.
        package static let flushIntervalSeconds: ClosedRange<Double> = 1...86_400
    }

    package var enabled = true
    package var sampleRate: Double?
    package var flushAt: Int?
    package var flushIntervalSeconds: Double?
    /// Property keys the collector allows; `nil` is no opinion. It can only narrow the app's list.
    package var propertyAllowList: [String]?

    package init() {}

    /// Reads the collector's JSON; unknown members are ignored, bad values keep the defaults.
    package init(json: JSONValue) {
        enabled = json["enabled"]?.boolValue ?? true
        sampleRate = Self.number(json["sampleRate"]).map { Self.clamp($0, to: Range.sampleRate) }
        flushAt = Self.number(json["flushAt"]).map { Self.clampToInt($0, to: Range.flushAt) }
        flushIntervalSeconds = Self.number(json["flushIntervalSeconds"]).map {
            Self.clamp($0, to: Range.flushIntervalSeconds)
        }
        propertyAllowList = json["propertyAllowList"]?.arrayValue?.compactMap(\.stringValue)
    }

    /// The flush interval as a `Duration`; always in range, so the conversion cannot trap.
    package var flushInterval: Duration? {
        flushIntervalSeconds.map { .milliseconds(Int64(Self.clamp($0, to: Range.flushIntervalSeconds) * 1000)) }
    }

    /// The allow-list in force: the app's list narrowed by the collector's (their intersection
    /// when both exist); `nil` keeps every key.
    package func allowList(local: [String]?) -> Set<String>? {
        switch (local, propertyAllowList) {
        case (nil, nil): return nil
        case (let local?, nil): return Set(local)
        case (nil, let remote?): return Set(remote)
        case (let local?, let remote?): return Set(local).intersection(remote)
        }
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = ["enabled": .bool(enabled)]
        if let sampleRate { object["sampleRate"] = .double(sampleRate) }
        if let flushAt { object["flushAt"] = .int(Int64(flushAt)) }
        if let flushIntervalSeconds { object["flushIntervalSeconds"] = .double(flushIntervalSeconds) }
        if let propertyAllowList { object["propertyAllowList"] = .array(propertyAllowList.map(JSONValue.string)) }
        return .object(object)
    }

    /// A finite number, or `nil` for any other value (wrong type, NaN, ±infinity).
    private static func number(_ value: JSONValue?) -> Double? {
        guard let double = value?.doubleValue, double.isFinite else { return nil }
        return double
    }

    private static func clamp(_ value: Double, to range: ClosedRange<Double>) -> Double {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// Rounds, then clamps in `Double` before converting: `Int(_:)` never sees a value it would trap on.
    private static func clampToInt(_ value: Double, to range: ClosedRange<Int>) -> Int {
        Int(clamp(value.rounded(), to: Double(range.lowerBound)...Double(range.upperBound)))
    }
}
