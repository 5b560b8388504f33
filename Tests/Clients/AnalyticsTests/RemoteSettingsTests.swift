import Analytics
import CourierCore
import CourierTesting
import Foundation
import Testing

/// Remote settings with `fetchesRemoteSettings` on: `null` is no opinion, a list only narrows,
/// and no number the collector sends can crash the host.
@Suite(.timeLimit(.minutes(2)))
struct RemoteSettingsTests {
    let harness: SDKHarness

    init() throws { harness = try SDKHarness() }

    /// An instance that has fetched and applied `settings` before the test tracks anything.
    func make(settings: JSONValue, _ change: @escaping (inout AnalyticsConfiguration) -> Void = { _ in }) async
        -> Analytics
    {
        harness.transport.settings.withLock { $0 = settings }
        let analytics = harness.make {
            $0.fetchesRemoteSettings = true
            change(&$0)
        }
        #expect(await poll { analytics.remoteSettingsApplied >= 1 })
        return analytics
    }

    func uploadedProperties(_ analytics: Analytics) async -> JSONValue? {
        analytics.track("Signed Up", properties: ["plan": "pro", "secret_note": "hunter2", "note": "n"])
        _ = await analytics.flushed()
        return harness.transport.uploadedMessages.first?["properties"]
    }

    @Test func aNullRemoteAllowListKeepsTheLocalOne() async throws {
        let analytics = await make(settings: ["enabled": true, "propertyAllowList": nil]) {
            $0.propertyAllowList = ["plan"]
        }
        #expect(await uploadedProperties(analytics) == ["plan": "pro"])
    }

    @Test func anAbsentRemoteAllowListKeepsTheLocalOne() async throws {
        let analytics = await make(settings: ["enabled": true]) { $0.propertyAllowList = ["plan"] }
        #expect(await uploadedProperties(analytics) == ["plan": "pro"])
    }

    @Test func aRemoteAllowListOnlyNarrowsTheLocalOne() async throws {
        let analytics = await make(settings: ["propertyAllowList": ["plan", "secret_note"]]) {
            $0.propertyAllowList = ["plan", "note"]
        }
        #expect(await uploadedProperties(analytics) == ["plan": "pro"])
    }

    @Test func aRemoteAllowListAloneApplies() async throws {
        let analytics = await make(settings: ["propertyAllowList": ["note"]])
        #expect(await uploadedProperties(analytics) == ["note": "n"])
    }

    @Test func aHugeFlushIntervalIsClampedNotACrash() async throws {
        let analytics = await make(settings: ["flushIntervalSeconds": 1e19])
        analytics.track("Later")
        try await harness.advance(.seconds(1))  // the write buffer's timer
        #expect(await poll { analytics.stats.stored == 1 })
        try await harness.advance(.seconds(86_399))
        #expect(harness.transport.uploads.isEmpty)
        try await harness.advance(.seconds(2))
        #expect(await poll { analytics.stats.sent == 1 })
    }
}

/// Feeds the settings decoder many random and mutated documents: it never traps, and every value
/// it keeps lies in its documented range.
struct RemoteSettingsFuzzTests {
    static let keys = ["enabled", "sampleRate", "flushAt", "flushIntervalSeconds", "propertyAllowList", "other"]
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.5, 99.999, 100, 100.0001, 2500, 2501, 86_400, 86_401, 1e19, -1e19,
        9.2e18, 9.3e18, 1e308, -1e308, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
        .nan, .infinity, -.infinity, -.leastNonzeroMagnitude,
    ]

    static func randomValue(_ rng: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(Int64.random(in: .min ... .max, using: &rng))
        case 3: return .int([Int64.min, Int64.max, 0, -1, 1, 20, 2500, 86_400][Int.random(in: 0..<8, using: &rng)])
        case 4, 5: return .double(numbers[Int.random(in: 0..<numbers.count, using: &rng)])
        case 6: return .double(Double(bitPattern: rng.next()))
        case 7: return .string(["", "30", "true", "nan", "1e19"][Int.random(in: 0..<5, using: &rng)])
        case 8 where depth < 2:
            return .array((0..<Int.random(in: 0..<4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            return depth < 2 ? randomDocument(&rng, depth: depth + 1) : .int(7)
        }
    }

    static func randomDocument(_ rng: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        var object: [String: JSONValue] = [:]
        for key in keys where Bool.random(using: &rng) { object[key] = randomValue(&rng, depth: depth) }
        return .object(object)
    }

    /// What is out of range in `settings` (empty when everything is in range).
    static func problems(_ settings: RemoteSettings) -> [String] {
        var problems: [String] = []
        if let rate = settings.sampleRate, !(rate.isFinite && (0...100).contains(rate)) {
            problems.append("sampleRate \(rate)")
        }
        if let flushAt = settings.flushAt, !(1...2500).contains(flushAt) { problems.append("flushAt \(flushAt)") }
        if let seconds = settings.flushIntervalSeconds, !(seconds.isFinite && (1...86_400).contains(seconds)) {
            problems.append("flushIntervalSeconds \(seconds)")
        }
        // The conversion the pipeline makes: it must not trap, and must land in range too.
        if let interval = settings.flushInterval, !(Duration.seconds(1)...Duration.seconds(86_400)).contains(interval) {
            problems.append("flushInterval \(interval)")
        }
        return problems
    }

    @Test func randomDocumentsDecodeIntoRange() {
        var rng = SeededGenerator(state: 0xC0FFEE)
        var problems: [String] = []
        var roundTripFailures = 0
        for _ in 0..<20_000 {
            let document = Self.randomDocument(&rng)
            let settings = RemoteSettings(json: document)
            problems += Self.problems(settings).map { "\($0) from \(document)" }
            // What is persisted reads back the same (the last-known-good copy).
            if RemoteSettings(json: settings.json) != settings { roundTripFailures += 1 }
        }
        #expect(problems.count == 0, "out of range, e.g. \(problems.prefix(3))")
        #expect(roundTripFailures == 0)
    }

    @Test func mutatedDocumentsNeverTrap() {
        var rng = SeededGenerator(state: 42)
        let seed = Array(
            #"{"enabled":true,"sampleRate":50,"flushAt":20,"flushIntervalSeconds":30,"propertyAllowList":["plan"]}"#
                .utf8)
        let inserts = ["1e19", "-", "9", "e308", "null", ".5", "\"", "[", "{}"].map { Array($0.utf8) }
        var parsed = 0
        var problems: [String] = []
        for _ in 0..<20_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.insert(contentsOf: inserts[Int.random(in: 0..<inserts.count, using: &rng)], at: at)
                default: if bytes.count > 2 { bytes.remove(at: at) }
                }
            }
            guard let json = try? JSONParser.parse(bytes) else { continue }
            parsed += 1
            problems += Self.problems(RemoteSettings(json: json))
        }
        #expect(problems.count == 0, "out of range, e.g. \(problems.prefix(3))")
        #expect(parsed > 1_000, "the mutations still leave many parseable documents")
    }
}
