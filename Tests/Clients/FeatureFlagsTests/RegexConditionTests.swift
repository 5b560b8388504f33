import CourierCore
import FlagRules
import Testing

/// `regex` conditions run on RE2: time linear in the input, and patterns RE2 cannot compile
/// (backreferences, lookaround) refused when the definition is parsed, on client and server alike.
@Suite(.timeLimit(.minutes(1)))
struct RegexConditionTests {
    static func flag(pattern: String) throws(FlagDefinitionError) -> FlagDefinition {
        try FlagDefinition.parse(
            [
                "key": "f", "type": "string", "value": "off",
                "rules": [
                    [
                        "id": "r", "value": "on",
                        "conditions": [["attribute": "email", "operator": "regex", "values": [.string(pattern)]]],
                    ]
                ],
            ], segments: [:])
    }

    /// `(a+)+$` against a run of `a` ending in `!` backtracks exponentially in a backtracking
    /// engine (about 2 s at 24 characters with NSRegularExpression); RE2 answers at the input limit.
    @Test func catastrophicPatternAnswersAtTheInputLimit() throws {
        let flag = try Self.flag(pattern: "(a+)+$")
        let attack = String(repeating: "a", count: Condition.maximumRegexInputLength - 1) + "!"
        let refused = RuleEvaluator.evaluate(flag, context: EvaluationContext(attributes: ["email": .string(attack)]))
        #expect(refused.value == "off")
        let run = String(repeating: "a", count: Condition.maximumRegexInputLength)
        let matched = RuleEvaluator.evaluate(flag, context: EvaluationContext(attributes: ["email": .string(run)]))
        #expect(matched.value == "on")
    }

    /// Backreferences, lookahead, lookbehind, atomic groups and possessive quantifiers have no
    /// linear-time implementation: RE2 does not compile them, so the definition is refused.
    @Test(arguments: [#"(a)\1"#, "foo(?=bar)", "(?<=@)example", "^(?!admin)", "(?>a+)b", "a*+b"])
    func patternsRE2CannotCompileAreRefused(pattern: String) {
        #expect(throws: FlagDefinitionError.self) { try Self.flag(pattern: pattern) }
        do {
            _ = try Self.flag(pattern: pattern)
        } catch {
            #expect(error.path == "rules[0].conditions[0].values[0]")
            #expect(error.description.contains("RE2"), "\(error)")
        }
    }

    /// What RE2 keeps of the usual syntax still works.
    @Test(arguments: [
        (#"^[a-z]+@example\.com$"#, "ana@example.com", true),
        (#"(?i)^ANA@"#, "ana@example.com", true),
        (#"\d{3}-\d{4}"#, "call 555-0100", true),
        (#"^(foo|bar)+$"#, "foobarfoo", true),
        (#"^(foo|bar)+$"#, "foobaz", false),
        // RE2's `\w` and `\d` are ASCII only, where NSRegularExpression's are Unicode.
        (#"^caf\w$"#, "café", false),
        (#"^\p{Han}+$"#, "用户", true),
    ])
    func supportedSyntaxMatches(pattern: String, text: String, expected: Bool) throws {
        let flag = try Self.flag(pattern: pattern)
        let resolution = RuleEvaluator.evaluate(flag, context: EvaluationContext(attributes: ["email": .string(text)]))
        #expect(resolution.value == (expected ? "on" : "off"))
    }
}
