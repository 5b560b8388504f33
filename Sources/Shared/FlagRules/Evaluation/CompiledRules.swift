import CourierCore

/// A flag's rules in the form evaluation reads, built once when the definition is parsed.
///
/// Every attribute the rules test (segments' conditions and rollouts' stickiness included) gets
/// a slot, so one evaluation looks each attribute up in the context once. The text values that
/// `equals`, `notEquals`, `in` and `notIn` compare with are numbered per attribute and each such
/// condition keeps a bit set of its numbers, so the attribute's text is hashed once per
/// evaluation, not once per condition; numbers and versions read from an attribute are read
/// once too. Unleash rollouts keep MurmurHash3's state after their `"{groupId}:"` prefix. The
/// tests and rules below hold no references, so walking them retains nothing.
final class CompiledRules: Sendable {
    /// One condition against one slot.
    struct Test: Sendable {
        let slot: Int
        let op: Condition.Operator
        /// Where the condition's bit set starts in `masks`, and its length in words.
        let maskStart: Int
        let maskCount: Int
        /// The condition in `conditions`, for numbers, versions and patterns.
        let condition: Int
    }

    /// One rule: its tests (its own conditions, then its segments') in `tests[testStart..<testEnd]`,
    /// then its rollout.
    struct Rule: Sendable {
        enum Rollout: Sendable {
            case none
            /// Unleash, with the hash state after `"{groupId}:"`.
            case unleash(percentage: Double, prefix: MurmurHash3)
            /// Another bucket function: the definition's rollout decides.
            case other
        }
        let testStart: Int
        let testEnd: Int
        let rollout: Rollout
        let stickinessSlot: Int
    }

    /// What one evaluation has read of one slot so far.
    struct Reading {
        var looked = false
        var value: JSONValue?
        var keyRead = false
        var keyIndex = -1
        var numberRead = false
        var number: Double?
        var versionRead = false
        var version: Semver?
    }

    let attributes: [String]
    let valueIndexes: [[String: Int]]
    let tests: [Test]
    let masks: [UInt64]
    let conditions: [Condition]
    let rules: [Rule]
    let source: [TargetingRule]

    init(_ rules: [TargetingRule]) {
        var slots: [String: Int] = [:]
        var attributes: [String] = []
        var valueIndexes: [[String: Int]] = []
        func slot(_ attribute: String) -> Int {
            if let slot = slots[attribute] { return slot }
            slots[attribute] = attributes.count
            attributes.append(attribute)
            valueIndexes.append([:])
            return attributes.count - 1
        }
        var tests: [Test] = []
        var masks: [UInt64] = []
        var conditions: [Condition] = []
        var compiled: [Rule] = []
        for rule in rules {
            let testStart = tests.count
            for condition in rule.conditions + rule.segments.flatMap(\.conditions) {
                let slot = slot(condition.attribute)
                var mask: [UInt64] = []
                for key in condition.keys {
                    let index: Int
                    if let known = valueIndexes[slot][key] {
                        index = known
                    } else {
                        index = valueIndexes[slot].count
                        valueIndexes[slot][key] = index
                    }
                    while mask.count <= index >> 6 { mask.append(0) }
                    mask[index >> 6] |= 1 << UInt64(index & 63)
                }
                tests.append(
                    Test(
                        slot: slot, op: condition.op, maskStart: masks.count, maskCount: mask.count,
                        condition: conditions.count))
                masks += mask
                conditions.append(condition)
            }
            var rollout = Rule.Rollout.none
            var stickinessSlot = -1
            if let definition = rule.rollout {
                stickinessSlot = slot(definition.stickiness)
                if definition.algorithm == .unleash {
                    rollout = .unleash(
                        percentage: definition.percentage, prefix: Bucketing.unleashPrefix(groupId: definition.seed))
                } else {
                    rollout = .other
                }
            }
            compiled.append(
                Rule(testStart: testStart, testEnd: tests.count, rollout: rollout, stickinessSlot: stickinessSlot))
        }
        self.attributes = attributes
        self.valueIndexes = valueIndexes
        self.tests = tests
        self.masks = masks
        self.conditions = conditions
        self.rules = compiled
        source = rules
    }

    /// The index of the first rule that matches `context`, or `nil`.
    @inline(__always)
    func firstMatch(_ context: EvaluationContext) -> Int? {
        if rules.isEmpty { return nil }
        // One reading more than needed, so the buffer has an address even for rules without attributes.
        return withUnsafeTemporaryAllocation(of: Reading.self, capacity: attributes.count + 1) { buffer in
            guard let readings = buffer.baseAddress else { return nil }
            readings.initialize(repeating: Reading(), count: attributes.count)
            defer { readings.deinitialize(count: attributes.count) }
            for index in rules.indices where matches(index, context, readings) { return index }
            return nil
        }
    }

    @inline(__always)
    private func matches(_ index: Int, _ context: EvaluationContext, _ readings: UnsafeMutablePointer<Reading>)
        -> Bool
    {
        let rule = rules[index]
        for t in rule.testStart..<rule.testEnd where !passes(tests[t], context, readings + tests[t].slot) {
            return false
        }
        if case .none = rule.rollout { return true }
        // Without a stickiness value there is no bucket: the rollout does not include it.
        guard let sticky = value(rule.stickinessSlot, context, readings + rule.stickinessSlot).flatMap(Condition.key)
        else { return false }
        switch rule.rollout {
        case .none:
            return true
        case .unleash(let percentage, let prefix):
            return percentage > 0 && Double(Bucketing.unleashNormalizedValue(id: sticky, prefix: prefix)) <= percentage
        case .other:
            return source[index].rollout?.includes(sticky) ?? false
        }
    }

    @inline(__always)
    private func value(_ slot: Int, _ context: EvaluationContext, _ reading: UnsafeMutablePointer<Reading>)
        -> JSONValue?
    {
        if !reading.pointee.looked {
            reading.pointee.value = context.value(of: attributes[slot])
            reading.pointee.looked = true
        }
        return reading.pointee.value
    }

    private func passes(_ test: Test, _ context: EvaluationContext, _ reading: UnsafeMutablePointer<Reading>) -> Bool {
        guard let value = value(test.slot, context, reading) else { return test.op == .notEquals || test.op == .notIn }
        switch test.op {
        case .equals, .in, .notEquals, .notIn:
            if !reading.pointee.keyRead {
                reading.pointee.keyIndex = Condition.key(value).flatMap { valueIndexes[test.slot][$0] } ?? -1
                reading.pointee.keyRead = true
            }
            let index = reading.pointee.keyIndex
            let word = index >> 6
            let contained =
                index >= 0 && word < test.maskCount && masks[test.maskStart + word] & (1 << UInt64(index & 63)) != 0
            return test.op == .equals || test.op == .in ? contained : !contained
        case .lt, .lte, .gt, .gte:
            if !reading.pointee.numberRead {
                reading.pointee.number = Condition.number(value)
                reading.pointee.numberRead = true
            }
            guard let n = reading.pointee.number else { return false }
            return conditions[test.condition].compare(number: n)
        case .semverEq, .semverLt, .semverLte, .semverGt, .semverGte:
            if !reading.pointee.versionRead {
                reading.pointee.version = value.stringValue.flatMap(Semver.init)
                reading.pointee.versionRead = true
            }
            guard let v = reading.pointee.version else { return false }
            return conditions[test.condition].compare(version: v)
        case .regex:
            return conditions[test.condition].matchesPattern(value)
        }
    }
}
