@testable import AnalyticsCollector
import CourierCore
import Testing

struct IncomingBatchTests {
    let configuration = CollectorConfiguration()
    static let receivedAt = Timestamp.parseMilliseconds("2026-11-29T08:00:00Z") ?? 0

    func read(_ json: JSONValue, type: MessageType? = nil) throws(CollectorError) -> IncomingBatch {
        try IncomingBatch(body: JSONWriter.encode(json), singleType: type, configuration: configuration)
    }

    func stored(_ batch: IncomingBatch) throws -> [JSONValue] {
        try batch.prepare(writeKey: "k", receivedAt: Self.receivedAt).map { try JSONParser.parse($0.payload) }
    }

    static let invalidMessages: [(JSONValue, String)] = [
        (["batch": [["event": "x", "userId": "u"]]], "type is required"),
        (["batch": [["type": "purchase", "userId": "u"]]], "unknown type purchase"),
        (["batch": [["type": "track", "userId": "u"]]], "track needs an event name"),
        (["batch": [["type": "track", "event": "x"]]], "userId or anonymousId is required"),
        (["batch": [["type": "track", "event": "x", "userId": "u", "properties": [1, 2]]]], "properties must be an object"),
        (["batch": [["type": "track", "event": "x", "userId": true]]], "userId must be a string"),
        (["batch": [["type": "track", "event": "x", "userId": "u", "timestamp": "yesterday"]]], "ISO 8601"),
        (["batch": [["type": "group", "userId": "u"]]], "group needs a groupId"),
        (["batch": [["type": "alias", "userId": "u"]]], "alias needs previousId and userId"),
        (["batch": [["type": "track", "event": "x", "userId": "u", "messageId": ""]]], "messageId"),
        (["batch": ["just a string"]], "must be a JSON object"),
        (["batch": "nope"], "batch must be an array"),
        (["batch": [], "sentAt": "soon"], "sentAt"),
        (["batch": [], "context": "str"], "context must be an object"),
    ]

    @Test(arguments: invalidMessages)
    func invalidFieldsAre400(json: JSONValue, fragment: String) {
        do {
            _ = try read(json)
            Issue.record("expected a 400 for \(json)")
        } catch {
            #expect(error.status == 400)
            #expect(error.code == .invalidRequest)
            #expect(error.message.contains(fragment))
        }
    }

    @Test(arguments: ["", "{", "[1,2]", "nul", "{\"batch\":[}",
                      // Invalid JSON deep inside a message, which the fast path checks without building.
                      #"{"batch":[{"type":"track","event":"e","userId":"u","properties":{"a":}}]}"#,
                      #"{"batch":[{"type":"track","event":"e","userId":"u","context":{"s":"\ud800"}}]}"#,
                      #"{"batch":[{"type":"track","event":"e","userId":"u","properties":[01]}]}"#,
                      #"{"batch":[{"type":"track","event":"e","userId":"u","properties":{"x":"\q"}}]}"#])
    func malformedBodiesAre400(text: String) {
        do {
            _ = try IncomingBatch(body: Array(text.utf8), singleType: nil, configuration: configuration)
            Issue.record("expected a 400")
        } catch {
            #expect(error.status == 400)
        }
    }

    @Test func limitsAre413() {
        var small = configuration
        small.maximumBatchEvents = 3
        small.maximumEventBytes = 200
        small.maximumBatchBytes = 2000
        let tooMany = JSONWriter.encode(["batch": .array((0..<4).map { IncomingBatchTests.track("\($0)") })])
        let bigEvent = JSONWriter.encode(["batch": [IncomingBatchTests.track("x", pad: 300)]])
        let bigBatch = JSONWriter.encode(["batch": .array((0..<3).map { IncomingBatchTests.track("\($0)", pad: 150) }),
                                          "padding": .string(String(repeating: "p", count: 2000))])
        let bigSingle = JSONWriter.encode(IncomingBatchTests.track("x", pad: 300))
        let cases: [([UInt8], MessageType?, CollectorError.Code)] = [
            (tooMany, nil, .batchTooLarge), (bigEvent, nil, .eventTooLarge), (bigBatch, nil, .batchTooLarge),
            (bigSingle, .track, .eventTooLarge),
        ]
        for (body, type, code) in cases {
            do {
                _ = try IncomingBatch(body: body, singleType: type, configuration: small)
                Issue.record("expected 413 \(code)")
            } catch {
                #expect(error.status == 413)
                #expect(error.code == code)
            }
        }
    }

    static func track(_ id: String, pad: Int = 0) -> JSONValue {
        ["type": "track", "event": "e", "userId": "u", "messageId": .string(id),
         "properties": ["pad": .string(String(repeating: "x", count: pad))]]
    }

    @Test func nullsAreAcceptedAndIdsAreStrings() throws {
        let batch = try read(["batch": [["type": "identify", "userId": nil, "anonymousId": 42, "traits": nil,
                                         "timestamp": nil, "context": nil, "messageId": nil]]])
        let message = try #require(try stored(batch).first)
        #expect(message["anonymousId"] == "42")
        #expect(message["userId"] == nil)
        #expect(message["messageId"]?.stringValue?.count == 36)
        #expect(message["timestamp"] == "2026-11-29T08:00:00.000Z")
    }

    @Test func batchContextAndIntegrationsMergeIntoEachMessage() throws {
        let batch = try read([
            "batch": [
                ["type": "track", "event": "a", "userId": "u", "context": ["ip": "1.2.3.4", "locale": "fr-FR"]],
                ["type": "track", "event": "b", "userId": "u"],
            ],
            "context": ["library": ["name": "analytics-python"], "locale": "en-US"],
            "integrations": ["All": false],
            "writeKey": "body-key",
        ])
        #expect(batch.bodyWriteKey == "body-key")
        let messages = try stored(batch)
        #expect(messages[0]["context"] == ["ip": "1.2.3.4", "locale": "fr-FR", "library": ["name": "analytics-python"]])
        #expect(messages[1]["context"] == ["locale": "en-US", "library": ["name": "analytics-python"]])
        #expect(messages[1]["integrations"] == ["All": false])
        #expect(messages[0]["writeKey"] == nil)
    }

    @Test(arguments: [
        // The device clock runs 1 h fast: the event happened 5 s before the upload.
        ("2026-11-29T09:00:00Z", "2026-11-29T09:00:05Z", "2026-11-29T07:59:55.000Z"),
        // Any UTC offset: the same instants written in +02:00.
        ("2026-11-29T11:00:00+02:00", "2026-11-29T11:00:05+02:00", "2026-11-29T07:59:55.000Z"),
        // The device clock runs 10 min slow.
        ("2026-11-29T07:49:00.250Z", "2026-11-29T07:50:00Z", "2026-11-29T07:59:00.250Z"),
    ])
    func skewIsCorrectedWithSentAt(timestamp: String, sentAt: String, corrected: String) throws {
        let batch = try read(["batch": [["type": "track", "event": "e", "userId": "u", "timestamp": .string(timestamp)]],
                              "sentAt": .string(sentAt)])
        let message = try #require(try stored(batch).first)
        #expect(message["timestamp"]?.stringValue == corrected)
        #expect(message["originalTimestamp"]?.stringValue == timestamp)
        #expect(message["receivedAt"] == "2026-11-29T08:00:00.000Z")
    }

    @Test func withoutSentAtTheClientTimestampIsKept() throws {
        let batch = try read(["batch": [["type": "track", "event": "e", "userId": "u", "timestamp": "2026-11-28T08:00:00Z"]]])
        let message = try #require(try stored(batch).first)
        #expect(message["timestamp"] == "2026-11-28T08:00:00.000Z")
    }

    static let spliceBodies: [String] = [
        #"{"batch":[{"type":"track","event":"A","userId":"u","messageId":"m1","properties":{"a" : 1, "b":[true,null]}}]}"#,
        #"{"batch":[{"type":"track","event":"B","userId":"u","messageId":"m2","timestamp":"2026-11-29T07:59:00+01:00","sentAt":"2026-11-29T07:59:30+01:00","writeKey":"leak"}],"sentAt":"2026-11-29T08:00:00Z"}"#,
        #"{"batch":[{"type":"identify","anonymousId":"a","messageId":"m3","originalTimestamp":"2026-11-28T08:00:00Z","timestamp":null,"receivedAt":"forged","traits":{"é":"x"}}],"sentAt":"2026-11-29T08:00:00Z"}"#,
        #"{"batch":[{"type":"track","event":"C","userId":42,"messageId":"m4"},{"type":"page","anonymousId":"a","messageId":"m5","name":"Home"}]}"#,
        #"{"batch":[{"type":"track","event":"D","userId":"u","messageId":"m6"}],"context":{"ip":"1.2.3.4"}}"#,
    ]

    @Test(arguments: spliceBodies)
    func copyingMembersAsSentStoresTheSameMessageAsRewritingIt(body: String) throws {
        let batch = try IncomingBatch(body: Array(body.utf8), singleType: nil, configuration: configuration)
        let whole = try IncomingBatch(body: Array(body.utf8), singleType: nil, configuration: configuration, shallow: false)
        let fast = batch.prepare(writeKey: "k", receivedAt: Self.receivedAt, copyingMembers: true)
        let full = whole.prepare(writeKey: "k", receivedAt: Self.receivedAt, copyingMembers: false)
        #expect(fast.count == full.count)
        for (a, b) in zip(fast, full) {
            #expect(try JSONParser.parse(a.payload) == JSONParser.parse(b.payload))
            #expect(a.messageId == b.messageId)
            #expect(try JSONParser.parse(a.payload)["writeKey"] == nil)
        }
    }

    @Test func untouchedMembersAreStoredByteForByte() throws {
        let body = #"{"batch":[{"type":"track","event":"A","userId":"u","messageId":"m1","properties":{"a" : 1.50}}]}"#
        let batch = try IncomingBatch(body: Array(body.utf8), singleType: nil, configuration: configuration)
        let stored = String(decoding: try #require(batch.prepare(writeKey: "k", receivedAt: Self.receivedAt).first).payload, as: UTF8.self)
        #expect(stored.contains(#""properties":{"a" : 1.50}"#))
        #expect(stored.contains(#""receivedAt":"2026-11-29T08:00:00.000Z""#))
    }

    @Test func singleEndpointsTakeTheTypeFromThePath() throws {
        let batch = try read(["event": "Viewed", "anonymousId": "a", "sentAt": "2026-11-29T08:00:00Z"], type: .track)
        let message = try #require(try stored(batch).first)
        #expect(message["type"] == "track")
        #expect(message["sentAt"] == "2026-11-29T08:00:00.000Z")
    }
}
