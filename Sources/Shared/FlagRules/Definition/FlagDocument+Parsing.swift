import CourierCore

extension FlagDocument {
    /// Parses and validates a whole document: every flag, rule, condition and segment. One
    /// malformed part refuses the whole document, so a client keeps its last-known-good copy.
    /// - Parameters:
    ///   - json: `{"environment", "version", "flags": [...], "segments": [...]}`.
    ///   - strict: refuse members this version does not know (the server does; clients accept
    ///     them so a newer server does not break older apps).
    /// - Throws: `FlagDefinitionError` naming the first problem.
    public static func parse(_ json: JSONValue, strict: Bool = false) throws(FlagDefinitionError) -> FlagDocument {
        guard case .object(let object) = json else { throw FlagDefinitionError(path: "", "must be an object") }
        if strict {
            try DefinitionReader.refuseUnknown(object, known: ["environment", "version", "flags", "segments"], "")
        }
        let environment = object["environment"]?.stringValue ?? ""
        let version = object["version"]?.intValue ?? 0
        var segments: [String: Segment] = [:]
        for (index, item) in (try DefinitionReader.array(object["segments"], "segments")).enumerated() {
            let segment = try Segment.parse(item, path: "segments[\(index)]", strict: strict)
            guard segments[segment.key] == nil else {
                throw FlagDefinitionError(path: "segments[\(index)].key", "segment \(segment.key) is defined twice")
            }
            segments[segment.key] = segment
        }
        var flags: [String: FlagDefinition] = [:]
        for (index, item) in (try DefinitionReader.array(object["flags"], "flags")).enumerated() {
            let flag = try FlagDefinition.parse(item, segments: segments, path: "flags[\(index)]", strict: strict)
            guard flags[flag.key] == nil else {
                throw FlagDefinitionError(path: "flags[\(index)].key", "flag \(flag.key) is defined twice")
            }
            flags[flag.key] = flag
        }
        return FlagDocument(
            environment: environment, version: version, flags: flags, segments: segments, json: json)
    }
}

extension Segment {
    /// Parses `{"key": "...", "conditions": [...]}`.
    /// - Throws: `FlagDefinitionError`.
    public static func parse(_ json: JSONValue, path: String = "", strict: Bool = true) throws(FlagDefinitionError)
        -> Segment
    {
        let object = try DefinitionReader.object(json, path)
        if strict { try DefinitionReader.refuseUnknown(object, known: ["key", "conditions", "description"], path) }
        let key = try DefinitionReader.key(object["key"], DefinitionReader.join(path, "key"))
        let conditions = try DefinitionReader.conditions(
            object["conditions"], DefinitionReader.join(path, "conditions"))
        return Segment(key: key, conditions: conditions)
    }
}

extension FlagDefinition {
    /// Parses and validates one flag.
    /// - Parameters:
    ///   - json: the definition (docs/feature-flags.md shows its members).
    ///   - segments: the segments its rules may name.
    ///   - path: where it sits, for error messages.
    ///   - strict: refuse unknown members.
    /// - Throws: `FlagDefinitionError`.
    public static func parse(
        _ json: JSONValue, segments: [String: Segment], path: String = "", strict: Bool = true
    ) throws(FlagDefinitionError) -> FlagDefinition {
        let object = try DefinitionReader.object(json, path)
        let p = { (member: String) in DefinitionReader.join(path, member) }
        if strict {
            try DefinitionReader.refuseUnknown(
                object, known: ["key", "type", "enabled", "value", "rules", "owner", "expires", "description"], path)
        }
        let key = try DefinitionReader.key(object["key"], p("key"))
        guard let typeName = object["type"]?.stringValue, let type = FlagType(rawValue: typeName) else {
            throw FlagDefinitionError(
                path: p("type"), "must be one of \(FlagType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var enabled = true
        if let member = object["enabled"] {
            guard let value = member.boolValue else {
                throw FlagDefinitionError(path: p("enabled"), "must be a boolean")
            }
            enabled = value
        }
        guard let value = object["value"], type.accepts(value) else {
            throw FlagDefinitionError(path: p("value"), "is required and must be a \(type.rawValue)")
        }
        let owner = try DefinitionReader.optionalString(object["owner"], p("owner"))
        let expires = try DefinitionReader.optionalString(object["expires"], p("expires"))
        if let expires, !DefinitionReader.isDay(expires) {
            throw FlagDefinitionError(path: p("expires"), "must be a day written YYYY-MM-DD")
        }
        var rules: [TargetingRule] = []
        var ids: Set<String> = []
        for (index, item) in (try DefinitionReader.array(object["rules"], p("rules"))).enumerated() {
            let rule = try TargetingRule.parse(
                item, flagKey: key, type: type, segments: segments, path: p("rules[\(index)]"), strict: strict)
            guard ids.insert(rule.id).inserted else {
                throw FlagDefinitionError(path: p("rules[\(index)].id"), "rule \(rule.id) appears twice")
            }
            rules.append(rule)
        }
        return FlagDefinition(
            key: key, type: type, enabled: enabled, value: value, rules: rules, owner: owner, expires: expires,
            json: json)
    }
}

extension TargetingRule {
    static func parse(
        _ json: JSONValue, flagKey: String, type: FlagType, segments: [String: Segment], path: String, strict: Bool
    ) throws(FlagDefinitionError) -> TargetingRule {
        let object = try DefinitionReader.object(json, path)
        let p = { (member: String) in DefinitionReader.join(path, member) }
        if strict {
            try DefinitionReader.refuseUnknown(
                object, known: ["id", "conditions", "segments", "rollout", "value", "variant"], path)
        }
        let id = try DefinitionReader.key(object["id"], p("id"))
        let conditions = try DefinitionReader.conditions(object["conditions"], p("conditions"))
        var members: [Segment] = []
        for (index, name) in (try DefinitionReader.array(object["segments"], p("segments"))).enumerated() {
            guard let name = name.stringValue, let segment = segments[name] else {
                throw FlagDefinitionError(path: p("segments[\(index)]"), "names no defined segment")
            }
            members.append(segment)
        }
        var rollout: Rollout?
        if let member = object["rollout"], !member.isNull {
            rollout = try Rollout.parse(member, flagKey: flagKey, path: p("rollout"), strict: strict)
        }
        guard let value = object["value"], type.accepts(value) else {
            throw FlagDefinitionError(path: p("value"), "is required and must be a \(type.rawValue)")
        }
        let variant = try DefinitionReader.optionalString(object["variant"], p("variant")) ?? id
        return TargetingRule(
            id: id, conditions: conditions, segments: members, rollout: rollout, value: value, variant: variant)
    }
}

extension Rollout {
    static func parse(_ json: JSONValue, flagKey: String, path: String, strict: Bool) throws(FlagDefinitionError)
        -> Rollout
    {
        let object = try DefinitionReader.object(json, path)
        let p = { (member: String) in DefinitionReader.join(path, member) }
        if strict {
            try DefinitionReader.refuseUnknown(
                object, known: ["percentage", "algorithm", "hashVersion", "seed", "stickiness"], path)
        }
        guard let percentage = object["percentage"]?.doubleValue, (0...100).contains(percentage) else {
            throw FlagDefinitionError(path: p("percentage"), "must be a number from 0 to 100")
        }
        let algorithm: Algorithm
        switch object["algorithm"]?.stringValue ?? "unleash" {
        case "unleash":
            algorithm = .unleash
        case "growthbook":
            let version = object["hashVersion"]?.intValue ?? 1
            guard version == 1 || version == 2 else {
                throw FlagDefinitionError(path: p("hashVersion"), "must be 1 or 2")
            }
            algorithm = .growthBook(hashVersion: Int(version))
        default:
            throw FlagDefinitionError(path: p("algorithm"), "must be unleash or growthbook")
        }
        let seed = try DefinitionReader.optionalString(object["seed"], p("seed")) ?? flagKey
        let stickiness = try DefinitionReader.optionalString(object["stickiness"], p("stickiness")) ?? "targetingKey"
        return Rollout(percentage: percentage, algorithm: algorithm, seed: seed, stickiness: stickiness)
    }
}
