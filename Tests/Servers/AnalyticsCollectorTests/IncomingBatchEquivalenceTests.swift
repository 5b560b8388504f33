@testable import AnalyticsCollector
import CourierCore
import CourierHTTP
import CourierTesting
import Testing

/// The fast path (a batch's messages read as member records, checked and stamped from the
/// body's bytes, copied as sent) stores exactly what reading every message as a tree and writing
/// it out again stores, over generated batches: members in any order, escaped keys and values,
/// nulls, numbers where strings belong, invalid fields, a batch-level context or not.
struct IncomingBatchEquivalenceTests {
    static let receivedAt = Timestamp.parseMilliseconds("2026-11-29T08:00:00Z") ?? 0

    /// One member's JSON text, or nothing, drawn at random.
    struct Draw {
        var generator: SeededGenerator

        mutating func pick(_ choices: [String?]) -> String? {
            choices[Int.random(in: 0..<choices.count, using: &generator)]
        }

        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &generator) < percent }

        mutating func message(_ index: Int) -> String {
            var members: [String] = []
            func add(_ key: String, _ value: String?) {
                if let value { members.append("\"\(key)\":\(value)") }
            }
            // The type under its plain key or an escaped one (never both: that is a repeated key).
            add(
                chance(90) ? "type" : "\\u0074ype",
                pick([#""track""#, #""track""#, #""identify""#, #""tr\u0061ck""#, #""purchase""#, "3", nil]))
            add("event", pick([#""Viewed""#, #""Viewed""#, #""caf\u00e9""#, #""""#, "null", nil]))
            add("userId", pick([#""u1""#, #""u1""#, #""\u0075""#, "42", "null", nil, nil, chance(20) ? "true" : nil]))
            add("anonymousId", pick([#""3f2c8a1e-77aa-4123-8123-0a1b2c3d4e5f""#, nil]))
            add(
                "messageId",
                pick([#""m\#(index)""#, #""m\#(index)""#, #""m\#(index)""#, #""m\u0031\#(index)""#, "null", nil])
                    ?? (chance(10) ? #""""# : nil))
            add("groupId", pick([#""g""#, nil, nil]))
            add("previousId", pick([#""p""#, nil, nil]))
            let times = [
                #""2026-11-29T07:59:00Z""#, #""2026-11-29T09:00:00+01:00""#, #""2026-11-29T07:00:00\u005a""#, "null",
                nil, nil, nil, nil, chance(20) ? #""yesterday""# : nil,
            ]
            add("timestamp", pick(times))
            add("originalTimestamp", pick(times))
            add("sentAt", pick(times + [nil]))
            let objects = [
                #"{"a":1,"b":[true,null,{"c":"d"}],"e":{"f":{"g":1.25}}}"#, "{}", "null", nil, nil,
                chance(20) ? "[1]" : nil,
            ]
            add("properties", pick(objects))
            add("traits", pick(objects))
            add("context", chance(30) ? pick(objects) : nil)
            add("integrations", chance(30) ? pick(objects) : nil)
            add("writeKey", chance(10) ? #""leak""# : nil)
            add("receivedAt", pick([#""forged""#, nil, nil, nil]))
            add("caf\\u00e9", chance(10) ? "1" : nil)
            add("name", pick([#""Home""#, #""call 555 123 4567""#, nil]))
            members.shuffle(using: &generator)
            return "{" + members.joined(separator: ",") + "}"
        }

        mutating func batch() -> String {
            var top = ["\"batch\":[" + (0..<20).map { message($0) }.joined(separator: ",") + "]"]
            if chance(40) { top.append(#""context":{"app":{"build":{"n":7}},"ip":"1.2.3.4"}"#) }
            if chance(30) { top.append(#""integrations":{"All":false}"#) }
            if chance(50) { top.append(#""sentAt":"2026-11-29T08:00:05Z""#) }
            top.shuffle(using: &generator)
            return "{" + top.joined(separator: ",") + "}"
        }
    }

    @Test func theFastPathStoresWhatTheTreeStores() throws {
        var draw = Draw(generator: SeededGenerator(state: 20_261_203))
        let configuration = CollectorConfiguration()
        var compared = 0
        var refused = 0
        var copiedAsSent = 0
        for _ in 0..<600 {
            let body = Array(draw.batch().utf8)
            let fast = Result { () throws(HTTPError) in
                try IncomingBatch(body: body, singleType: nil, configuration: configuration)
            }
            let full = Result { () throws(HTTPError) in
                try IncomingBatch(body: body, singleType: nil, configuration: configuration, shallow: false)
            }
            switch (fast, full) {
            case (.failure(let a), .failure(let b)):
                #expect(a.status == b.status)
                refused += 1
                continue
            case (.success(let fast), .success(let full)):
                copiedAsSent += fast.messages.count { $0.members != nil && $0.tree == nil }
                #expect(fast.rejected.map(\.index) == full.rejected.map(\.index))
                #expect(fast.rejected.map(\.messageId) == full.rejected.map(\.messageId))
                let mine = fast.prepare(writeKey: "k", receivedAt: Self.receivedAt)
                let theirs = full.prepare(writeKey: "k", receivedAt: Self.receivedAt, copyingMembers: false)
                #expect(mine.count == theirs.count)
                for (a, b) in zip(mine, theirs) {
                    var stored = try JSONParser.parse(a.payload).objectValue ?? [:]
                    var expected = try JSONParser.parse(b.payload).objectValue ?? [:]
                    // A message without an id gets a fresh one on each reading.
                    if stored["messageId"] != expected["messageId"] {
                        #expect(a.messageId != b.messageId)
                        stored["messageId"] = nil
                        expected["messageId"] = nil
                    }
                    #expect(stored == expected, "\(String(decoding: body, as: UTF8.self))")
                    #expect(a.type == b.type)
                    compared += 1
                }
            default:
                Issue.record("one reading failed, the other did not: \(String(decoding: body, as: UTF8.self))")
            }
        }
        // The draws must reach the stores, not only the refusals.
        #expect(compared > 1_200, "\(compared) messages stored, \(refused) batches refused")
        #expect(copiedAsSent > 300, "\(copiedAsSent) messages on the fast path")
    }
}
