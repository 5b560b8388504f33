import CourierCore

/// A flag as the server defines it: its type, whether it is on (the kill switch), the targeting
/// rules in order, the value served when none matches, and its owner and expiry.
public struct FlagDefinition: Sendable {
    /// The flag's key, such as `new-checkout`.
    public let key: String
    /// The type of every value it serves.
    public let type: FlagType
    /// `false` is the kill switch: evaluation gives the app's default with reason `DISABLED`.
    public let enabled: Bool
    /// The value when no rule matches.
    public let value: JSONValue
    /// The rules, tried in order; the first that matches decides.
    public let rules: [TargetingRule]
    /// Who answers for the flag.
    public let owner: String?
    /// The day (`YYYY-MM-DD`) after which the flag is overdue for removal.
    public let expires: String?
    /// The definition as JSON, as it was validated (what the server stores and serves).
    public let json: JSONValue
    /// The rules in the form evaluation reads.
    let compiled: CompiledRules

    init(
        key: String, type: FlagType, enabled: Bool, value: JSONValue, rules: [TargetingRule], owner: String?,
        expires: String?, json: JSONValue
    ) {
        self.key = key
        self.type = type
        self.enabled = enabled
        self.value = value
        self.rules = rules
        self.owner = owner
        self.expires = expires
        self.json = json
        compiled = CompiledRules(rules)
    }

    /// Whether the flag is past its expiry on `day` (`YYYY-MM-DD`, compared as text).
    public func isExpired(today day: String) -> Bool {
        guard let expires else { return false }
        return expires < day
    }
}
