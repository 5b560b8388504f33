import CourierCore
import CourierTesting
import FlagRules
import Foundation
import Testing

/// The bucket functions against known answers and against the real Unleash and GrowthBook
/// Python SDKs, id for id.
@Suite(.timeLimit(.minutes(5)))
struct BucketingTests {
    static let packageRoot = ProjectPaths.packageRoot

    static var python: String { ProjectPaths.python }

    @Test(arguments: [
        ("", UInt32(0)), ("hello", 0x248b_fa47), ("The quick brown fox jumps over the lazy dog", 0x2e4f_f723),
        ("abc", 0xb3dd_93fa), ("abcd", 0x43ed_676a),
    ])
    func murmurHash3KnownAnswers(text: String, expected: UInt32) {
        #expect(MurmurHash3.hash(Array(text.utf8)) == expected)
    }

    @Test(arguments: [("", UInt32(0x811c_9dc5)), ("a", 0xe40c_292c), ("foobar", 0xbf9c_f968)])
    func fnv1aKnownAnswers(text: String, expected: UInt32) {
        #expect(FNV1a.hash32(utf16: text) == expected)
    }

    @Test func rolloutIncludesAStableShareOfIds() {
        let rollout = Rollout(percentage: 25, algorithm: .unleash, seed: "new-checkout")
        let included = (0..<10_000).filter { rollout.includes("user-\($0)") }.count
        #expect((2_200...2_800).contains(included))
        #expect((0..<1_000).allSatisfy { rollout.includes("user-\($0)") == rollout.includes("user-\($0)") })
        #expect(!Rollout(percentage: 0, algorithm: .unleash, seed: "x").includes("anyone"))
        #expect(Rollout(percentage: 100, algorithm: .growthBook(hashVersion: 2), seed: "x").includes("anyone"))
    }

    /// GrowthBook's SDKs include an id whose hash equals the coverage (`n <= coverage`), and none
    /// at coverage 0. Ids found by search whose hash lands exactly on 0.5 (v1 and v2) and on 0.
    @Test(arguments: [1, 2])
    func growthBookRolloutIncludesTheBoundary(version: Int) throws {
        let seed = "boundary"
        func firstID(hashing target: Double) throws -> String {
            let found = (0..<1_000_000).lazy.map { "user-\($0)" }.first {
                Bucketing.growthBookHash(seed: seed, value: $0, version: version) == target
            }
            return try #require(found, "no id hashes to \(target)")
        }
        let half = try firstID(hashing: 0.5)
        let rollout = Rollout(percentage: 50, algorithm: .growthBook(hashVersion: version), seed: seed)
        #expect(rollout.includes(half))
        #expect(!Rollout(percentage: 49.99, algorithm: .growthBook(hashVersion: version), seed: seed).includes(half))
        let zero = try firstID(hashing: 0)
        #expect(!Rollout(percentage: 0, algorithm: .growthBook(hashVersion: version), seed: seed).includes(zero))
        #expect(Rollout(percentage: 0.01, algorithm: .growthBook(hashVersion: version), seed: seed).includes(zero))
        // The evaluation-ready rules answer the same way.
        let flag = try FlagDefinition.parse(
            [
                "key": "f", "type": "bool", "value": false,
                "rules": [
                    [
                        "id": "r", "value": true,
                        "rollout": [
                            "percentage": 50, "algorithm": "growthbook", "hashVersion": .int(Int64(version)),
                            "seed": .string(seed),
                        ],
                    ]
                ],
            ], segments: [:])
        #expect(RuleEvaluator.evaluate(flag, context: EvaluationContext(targetingKey: half)).value == true)
    }

    /// 100,000 ids (ASCII, accented, CJK, emoji outside the BMP, random scalars from every plane)
    /// bucketed by UnleashClient's `normalized_hash` and growthbook's `gbhash` v1 and v2.
    @Test func bucketsEqualThePythonSDKsOnAHundredThousandIds() async throws {
        let python = Self.python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no Python venv at \(python): run scripts/bootstrap first")
        let items = Self.ids(count: 100_000)
        var lines: [UInt8] = []
        for (id, group, seed) in items {
            lines += JSONWriter.encode(["id": .string(id), "group": .string(group), "seed": .string(seed)])
            lines.append(10)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flag-ids-\(UUID().uuidString).jsonl")
        try Data(lines).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = Self.packageRoot.appendingPathComponent("Tests/peers/flag_buckets.py").path
        let outcome = await runOffPool { () -> ChildProcess.Outcome? in
            try? ChildProcess.run(python, [script, file.path])
        }
        let result = try #require(outcome)
        try #require(result.status == 0, "peer failed: \(result.errorOutput)")
        let answers = result.output.split(separator: "\n")
        try #require(answers.count == items.count)
        var mismatches = 0
        for ((id, group, seed), answer) in zip(items, answers) {
            let fields = answer.split(separator: " ")
            let unleash = Int(fields[0])
            let v1 = Double(String(fields[1]))
            let v2 = Double(String(fields[2]))
            let ours = (
                Bucketing.unleashNormalizedValue(id: id, groupId: group),
                Bucketing.growthBookHash(seed: seed, value: id, version: 1),
                Bucketing.growthBookHash(seed: seed, value: id, version: 2)
            )
            if ours.0 != unleash || ours.1 != v1 || ours.2 != v2 {
                mismatches += 1
                if mismatches <= 5 { Issue.record("\(id.unicodeScalars.map(\.value)): ours \(ours), theirs \(answer)") }
            }
        }
        #expect(mismatches == 0)
        #expect(items.contains { $0.0.unicodeScalars.contains { $0.value > 0xFFFF } })
    }

    /// Deterministic ids of every kind.
    static func ids(count: Int) -> [(String, String, String)] {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        let fixed = ["café", "Ünïcødé", "用户-42", "🎉party", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "e\u{301}", "", " ", "a:b", "👩‍👩‍👧"]
        let groups = ["new-checkout", "grüppe", "🚀launch", "g"]
        var items: [(String, String, String)] = []
        items.reserveCapacity(count)
        for i in 0..<count {
            let id: String
            switch i % 5 {
            case 0: id = "user-\(i)"
            case 1: id = fixed[i / 5 % fixed.count] + String(i)
            default:
                var scalars = String.UnicodeScalarView()
                for _ in 0..<(1 + Int(next() % 12)) {
                    let plane = next() % 4
                    let raw: UInt32
                    switch plane {
                    case 0: raw = UInt32(0x20 + next() % 0x5F)
                    case 1: raw = UInt32(0xA0 + next() % 0xD700)
                    case 2: raw = UInt32(0xE000 + next() % 0x1FFF)
                    default: raw = UInt32(0x10000 + next() % 0x10000)
                    }
                    if let scalar = Unicode.Scalar(raw) { scalars.append(scalar) }
                }
                id = String(scalars)
            }
            items.append((id, groups[i % groups.count], groups[(i + 1) % groups.count]))
        }
        return items
    }
}
