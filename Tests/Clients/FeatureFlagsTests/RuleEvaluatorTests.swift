import CourierCore
import FlagRules
import Testing

/// Targeting: conditions, segments, rollouts and the reasons they give; malformed definitions.
struct RuleEvaluatorTests {
    static func flag(_ conditions: JSONValue, segments: [String: Segment] = [:]) throws -> FlagDefinition {
        try FlagDefinition.parse(
            [
                "key": "f", "type": "string", "value": "off",
                "rules": [["id": "r", "conditions": conditions, "value": "on"]],
            ], segments: segments)
    }

    /// Operator, values, attribute (JSON text) and whether the condition holds.
    @Test(arguments: [
        ("equals", #"["FR"]"#, #""FR""#, true),
        ("equals", #"["FR"]"#, #""DE""#, false),
        ("notEquals", #"["FR"]"#, #""DE""#, true),
        ("in", #"["FR", "DE"]"#, #""DE""#, true),
        ("in", #"["FR", "DE"]"#, #""IT""#, false),
        ("notIn", #"["FR"]"#, #""IT""#, true),
        ("in", "[1, 2, 3]", "2", true),
        ("equals", "[true]", "true", true),
        ("gt", "[10]", "11", true),
        ("gt", "[10]", "10", false),
        ("lte", "[10]", #""9.5""#, true),
        ("semverGte", #"["2.3.0"]"#, #""2.10.1""#, true),
        ("semverLt", #"["2.3.0"]"#, #""2.3.0-beta.2""#, true),
        ("semverEq", #"["2.3.0"]"#, #""v2.3""#, true),
        ("semverGt", #"["2.3.0"]"#, #""not-a-version""#, false),
        ("regex", #"["^[a-z]+@example\\.com$"]"#, #""ana@example.com""#, true),
        ("regex", #"["^[a-z]+@example\\.com$"]"#, #""ana@example.org""#, false),
    ])
    func conditionMatches(op: String, values: String, attribute: String, expected: Bool) throws {
        let flag = try Self.flag([
            ["attribute": "a", "operator": .string(op), "values": try JSONParser.parse(values)]
        ])
        let context = EvaluationContext(attributes: ["a": try JSONParser.parse(attribute)])
        let resolution = RuleEvaluator.evaluate(flag, context: context)
        #expect(resolution.value == (expected ? "on" : "off"))
        #expect(resolution.reason == (expected ? .targetingMatch : .static))
        #expect(resolution.variant == (expected ? "r" : RuleEvaluator.fallthroughVariant))
    }

    @Test func missingAttributeMatchesOnlyNegations() throws {
        let empty = EvaluationContext()
        let isIn = try Self.flag([["attribute": "a", "operator": "in", "values": ["x"]]])
        let notIn = try Self.flag([["attribute": "a", "operator": "notIn", "values": ["x"]]])
        #expect(RuleEvaluator.evaluate(isIn, context: empty).value == "off")
        #expect(RuleEvaluator.evaluate(notIn, context: empty).value == "on")
    }

    @Test func regexInputOverTheLimitNeverMatches() throws {
        let flag = try Self.flag([["attribute": "a", "operator": "regex", "values": ["a+"]]])
        let long = String(repeating: "a", count: Condition.maximumRegexInputLength + 1)
        #expect(
            RuleEvaluator.evaluate(flag, context: EvaluationContext(attributes: ["a": .string(long)])).value == "off")
    }

    @Test func segmentsMustAllHold() throws {
        let beta = try Segment.parse(
            ["key": "beta", "conditions": [["attribute": "plan", "operator": "equals", "values": ["beta"]]]])
        let flag = try FlagDefinition.parse(
            ["key": "f", "type": "bool", "value": false, "rules": [["id": "b", "segments": ["beta"], "value": true]]],
            segments: ["beta": beta])
        #expect(RuleEvaluator.evaluate(flag, context: EvaluationContext(attributes: ["plan": "beta"])).value == true)
        #expect(RuleEvaluator.evaluate(flag, context: EvaluationContext(attributes: ["plan": "free"])).value == false)
    }

    @Test func bothBranchesAndTheirReasons() throws {
        let flag = try FlagDefinition.parse(checkoutDefinition(), segments: [:])
        let french = RuleEvaluator.evaluate(flag, context: EvaluationContext(attributes: ["country": "FR"]))
        #expect(french.value == true && french.reason == .targetingMatch && french.variant == "france")
        // Ids on both sides of the 50 % rollout: the Unleash bucket decides, SPLIT when inside.
        let rollout = Rollout(percentage: 50, algorithm: .unleash, seed: "new-checkout")
        let inside = try #require((0..<100).map { "user-\($0)" }.first(where: rollout.includes))
        let outside = try #require((0..<100).map { "user-\($0)" }.first { !rollout.includes($0) })
        let split = RuleEvaluator.evaluate(flag, context: EvaluationContext(targetingKey: inside))
        #expect(split.value == true && split.reason == .split && split.variant == "ramp")
        let noMatch = RuleEvaluator.evaluate(flag, context: EvaluationContext(targetingKey: outside))
        #expect(noMatch.value == false && noMatch.reason == .static)
        // No targeting key: no bucket, so the rollout does not include it.
        #expect(RuleEvaluator.evaluate(flag, context: EvaluationContext()).value == false)
        let killed = try FlagDefinition.parse(checkoutDefinition(enabled: false), segments: [:])
        let disabled = RuleEvaluator.evaluate(killed, context: EvaluationContext(attributes: ["country": "FR"]))
        #expect(disabled.value == nil && disabled.reason == .disabled)
    }

    @Test(arguments: [
        (#"{"key": "f", "type": "bool"}"#, "value"),
        (#"{"key": "f", "type": "color", "value": true}"#, "type"),
        (#"{"key": "bad key", "type": "bool", "value": true}"#, "key"),
        (#"{"key": "f", "type": "bool", "value": "yes"}"#, "value"),
        (#"{"key": "f", "type": "bool", "value": true, "expires": "next week"}"#, "expires"),
        (#"{"key": "f", "type": "bool", "value": true, "rule": []}"#, "rule"),
        (#"{"key": "f", "type": "bool", "value": true, "rules": [{"id": "r", "value": 1}]}"#, "rules[0].value"),
        (
            #"{"key": "f", "type": "bool", "value": true, "rules": [{"id": "r", "value": true, "conditions": [{"attribute": "a", "operator": "like", "values": ["x"]}]}]}"#,
            "rules[0].conditions[0].operator"
        ),
        (
            #"{"key": "f", "type": "bool", "value": true, "rules": [{"id": "r", "value": true, "conditions": [{"attribute": "a", "operator": "regex", "values": ["(unclosed"]}]}]}"#,
            "rules[0].conditions[0].values[0]"
        ),
        (
            #"{"key": "f", "type": "bool", "value": true, "rules": [{"id": "r", "value": true, "rollout": {"percentage": 120}}]}"#,
            "rules[0].rollout.percentage"
        ),
        (
            #"{"key": "f", "type": "bool", "value": true, "rules": [{"id": "r", "value": true, "rollout": {"percentage": 10, "algorithm": "growthbook", "hashVersion": 3}}]}"#,
            "rules[0].rollout.hashVersion"
        ),
        (
            #"{"key": "f", "type": "bool", "value": true, "rules": [{"id": "r", "value": true, "segments": ["nope"]}]}"#,
            "rules[0].segments[0]"
        ),
        (
            #"{"key": "f", "type": "bool", "value": true, "rules": [{"id": "r", "value": true}, {"id": "r", "value": false}]}"#,
            "rules[1].id"
        ),
    ])
    func malformedDefinitionsAreRefusedWithTheirPath(text: String, path: String) throws {
        let definition = try JSONParser.parse(text)
        #expect(throws: FlagDefinitionError.self) { try FlagDefinition.parse(definition, segments: [:]) }
        do {
            _ = try FlagDefinition.parse(definition, segments: [:])
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    @Test func regexLongerThanTheLimitIsRefused() {
        let pattern = String(repeating: "a", count: Condition.maximumRegexLength + 1)
        #expect(throws: FlagDefinitionError.self) {
            try Self.flag([["attribute": "a", "operator": "regex", "values": [.string(pattern)]]])
        }
    }

    /// The evaluation-ready form built at parse time answers as the rules themselves do, rule by
    /// rule: attributes shared by several rules and a segment, a set of more than 64 values,
    /// numbers given as text, versions, patterns, both rollout algorithms, and missing attributes.
    @Test func compiledRulesAnswerAsTheRulesDo() throws {
        let staff = try Segment.parse([
            "key": "staff", "conditions": [["attribute": "email", "operator": "regex", "values": ["@example\\.com$"]]],
        ])
        let many: [JSONValue] = (0..<70).map { .string("C\($0)") }
        let rules: [JSONValue] = [
            [
                "id": "many", "conditions": [["attribute": "country", "operator": "in", "values": .array(many)]],
                "rollout": ["percentage": 30, "algorithm": "unleash"], "value": "a",
            ],
            [
                "id": "pair",
                "conditions": [
                    ["attribute": "country", "operator": "notIn", "values": ["C1", "FR"]],
                    ["attribute": "plan", "operator": "equals", "values": ["pro"]],
                ], "value": "b",
            ],
            [
                "id": "age",
                "conditions": [
                    ["attribute": "age", "operator": "gte", "values": [18]],
                    ["attribute": "age", "operator": "lt", "values": [30]],
                    ["attribute": "appVersion", "operator": "semverGte", "values": ["2.3.0"]],
                ], "value": "c",
            ],
            [
                "id": "staff", "segments": ["staff"],
                "conditions": [
                    ["attribute": "country", "operator": "notEquals", "values": ["C69"]]
                ], "value": "d",
            ],
            [
                "id": "gb",
                "rollout": [
                    "percentage": 50, "algorithm": "growthbook", "hashVersion": 2,
                    "stickiness": "userId",
                ], "value": "e",
            ],
            [
                "id": "number", "conditions": [["attribute": "plan", "operator": "in", "values": [1, true]]],
                "value": "f",
            ],
        ]
        let flag = try FlagDefinition.parse(
            ["key": "f", "type": "string", "value": "off", "rules": .array(rules)], segments: ["staff": staff])
        var generator = SystemRandomNumberGenerator()
        var seen: Set<String> = []
        let countries: [JSONValue?] = [nil, "FR", "C1", "C5", "C64", "C69", "C70", 3]
        let plans: [JSONValue?] = [nil, "pro", "free", 1, "1", true, "true"]
        let ages: [JSONValue?] = [nil, 17, 18, "25", 29.5, 30, "x"]
        let versions: [JSONValue?] = [nil, "2.3.0", "2.2.9", "v3", "2.3.0-beta", "nope"]
        let emails: [JSONValue?] = [nil, "ana@example.com", "ana@example.org"]
        for index in 0..<5000 {
            var attributes: [String: JSONValue] = [:]
            attributes["country"] = countries.randomElement(using: &generator) ?? nil
            attributes["plan"] = plans.randomElement(using: &generator) ?? nil
            attributes["age"] = ages.randomElement(using: &generator) ?? nil
            attributes["appVersion"] = versions.randomElement(using: &generator) ?? nil
            attributes["email"] = emails.randomElement(using: &generator) ?? nil
            let key: String? = index % 7 == 0 ? nil : "user-\(index)"
            let context = EvaluationContext(targetingKey: key, attributes: attributes)
            let expected = flag.rules.first { $0.matches(context) }
            let resolution = RuleEvaluator.evaluate(flag, context: context)
            #expect(resolution.variant == (expected?.variant ?? RuleEvaluator.fallthroughVariant), "\(context)")
            #expect(resolution.value == (expected?.value ?? "off"), "\(context)")
            seen.insert(resolution.variant ?? "")
        }
        #expect(seen == ["many", "pair", "age", "staff", "gb", "number", RuleEvaluator.fallthroughVariant])
    }
}
