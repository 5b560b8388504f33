import CourierCore

/// Who a flag is evaluated for: OpenFeature's evaluation context, a targeting key (the user id
/// rollouts stick to) and attributes that conditions test.
public struct EvaluationContext: Sendable, Equatable {
    /// The id rollouts hash; also answered for the attributes `targetingKey` and `userId`.
    public var targetingKey: String?
    /// Attributes such as `country`, `appVersion`, `plan`.
    public var attributes: [String: JSONValue]

    /// Creates a context.
    public init(targetingKey: String? = nil, attributes: [String: JSONValue] = [:]) {
        self.targetingKey = targetingKey
        self.attributes = attributes
    }

    /// The attribute `name`; `targetingKey` and `userId` fall back to the targeting key.
    @inline(__always)
    public func value(of name: String) -> JSONValue? {
        if let value = attributes[name] { return value }
        if name == "targetingKey" || name == "userId", let targetingKey { return .string(targetingKey) }
        return nil
    }

    /// Reads `{"targetingKey": "…", "userId": "…", "attributes": {…}, …}`: members other than
    /// `targetingKey` and `attributes` count as attributes too, as OpenFeature's flat contexts do.
    public init(json: JSONValue) {
        var attributes: [String: JSONValue] = [:]
        for (key, value) in json.objectValue ?? [:] where key != "attributes" && key != "targetingKey" {
            attributes[key] = value
        }
        for (key, value) in json["attributes"]?.objectValue ?? [:] { attributes[key] = value }
        targetingKey = json["targetingKey"]?.stringValue ?? json["userId"]?.stringValue
        self.attributes = attributes
    }

    /// The JSON form that `init(json:)` reads.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["attributes": .object(attributes)]
        if let targetingKey { object["targetingKey"] = .string(targetingKey) }
        return .object(object)
    }
}
