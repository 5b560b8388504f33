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
}
