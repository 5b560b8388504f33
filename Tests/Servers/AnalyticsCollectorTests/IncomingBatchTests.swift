@testable import AnalyticsCollector
import CourierCore
import Testing
import CourierHTTP

struct IncomingBatchTests {
    let configuration = CollectorConfiguration()
    static let receivedAt = Timestamp.parseMilliseconds("2026-11-29T08:00:00Z") ?? 0

    func read(_ json: JSONValue, type: MessageType? = nil) throws(HTTPError) -> IncomingBatch {
        try IncomingBatch(body: JSONWriter.encode(json), singleType: type, configuration: configuration)
    }

    func stored(_ batch: IncomingBatch) throws -> [JSONValue] {
        try batch.prepare(writeKey: "k", receivedAt: Self.receivedAt).map { try JSONParser.parse($0.payload) }
    }

    /// Messages that fail validation: a batch keeps its valid neighbours and lists these.
    static let invalidMessages: [(JSONValue, String)] = [
        (["event": "x", "userId": "u"], "type is required"),
        (["type": "purchase", "userId": "u"], "unknown type purchase"),
        (["type": "track", "userId": "u"], "track needs an event name"),
        (["type": "track", "event": "x"], "userId or anonymousId is required"),
        (["type": "track", "event": "x", "userId": "u", "properties": [1, 2]], "properties must be an object"),
        (["type": "track", "event": "x", "userId": true], "userId must be a string"),
        (["type": "track", "event": "x", "userId": "u", "timestamp": "yesterday"], "ISO 8601"),
        (["type": "group", "userId": "u"], "group needs a groupId"),
        (["type": "alias", "userId": "u"], "alias needs previousId and userId"),
        (["type": "track", "event": "x", "userId": "u", "messageId": ""], "messageId"),
        ("just a string", "must be a JSON object"),
    ]

    @Test(arguments: invalidMessages)
    func anInvalidMessageCostsOnlyItself(message: JSONValue, fragment: String) throws {
        let batch = try read([
            "batch": [IncomingBatchTests.track("good-0"), message, IncomingBatchTests.track("good-2")]
        ])
        #expect(try stored(batch).map { $0["messageId"] } == ["good-0", "good-2"])
        let rejection = try #require(batch.rejected.first)
        #expect(batch.rejected.count == 1)
        #expect(rejection.index == 1)
        #expect(rejection.error.code == .invalidMessage)
        #expect(rejection.error.message.contains("message 1: "))
        #expect(rejection.error.message.contains(fragment))
    }

    @Test func anInvalidSingleMessageIs400() {
        let error = #expect(throws: HTTPError.self) { try read(["userId": "u"], type: .track) }
        #expect(error?.status == 400)
        #expect(error?.code == .invalidRequest)
        #expect(error?.message == "track needs an event name")
    }

    @Test(
        arguments: [
            (["batch": "nope"], "batch must be an array"),
            (["batch": [], "sentAt": "soon"], "sentAt"),
            (["batch": [], "context": "str"], "context must be an object"),
        ] as [(JSONValue, String)])
    func aMalformedBatchIs400(json: JSONValue, fragment: String) {
        let error = #expect(throws: HTTPError.self) { try read(json) }
        #expect(error?.status == 400)
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains(fragment) == true)
    }

    @Test func aNumericIdBeyond64BitsKeepsEveryDigit() throws {
        let body = Array(
            #"{"batch":[{"type":"track","event":"e","userId":18446744073709551616,"anonymousId":-99999999999999999999}]}"#
                .utf8)
        let message = try #require(
            try stored(IncomingBatch(body: body, singleType: nil, configuration: configuration)).first)
        #expect(message["userId"] == "18446744073709551616")
        #expect(message["anonymousId"] == "-99999999999999999999")
    }

    @Test(
        arguments: [
            // Ids that differ only in bytes that are not UTF-8 would collapse into one id.
            [
                0x7B, 0x22, 0x62, 0x61, 0x74, 0x63, 0x68, 0x22, 0x3A, 0x5B, 0x7B, 0x22, 0x6D, 0x65, 0x73, 0x73, 0x61,
                0x67, 0x65,
                0x49, 0x64, 0x22, 0x3A, 0x22, 0x61, 0xFF, 0x22, 0x7D, 0x5D, 0x7D,
            ]
        ] as [[UInt8]])
    func invalidUTF8IsInvalidJSON(body: [UInt8]) {
        let error = #expect(throws: HTTPError.self) {
            try IncomingBatch(body: body, singleType: nil, configuration: configuration)
        }
        #expect(error?.code == .invalidJSON)
    }

    @Test func aRepeatedTypeIsInvalidJSON() {
        let body = Array(#"{"batch":[{"type":"track","event":"e","userId":"u","type":"identify"}]}"#.utf8)
        let error = #expect(throws: HTTPError.self) {
            try IncomingBatch(body: body, singleType: nil, configuration: configuration)
        }
        #expect(error?.code == .invalidJSON)
        #expect(error?.status == 400)
    }

    @Test(arguments: [
        "", "{", "[1,2]", "nul", "{\"batch\":[}",
        // Invalid JSON deep inside a message, which the fast path checks without building.
        #"{"batch":[{"type":"track","event":"e","userId":"u","properties":{"a":}}]}"#,
        #"{"batch":[{"type":"track","event":"e","userId":"u","context":{"s":"\ud800"}}]}"#,
        #"{"batch":[{"type":"track","event":"e","userId":"u","properties":[01]}]}"#,
        #"{"batch":[{"type":"track","event":"e","userId":"u","properties":{"x":"\q"}}]}"#,
    ])
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
        let bigBatch = JSONWriter.encode([
            "batch": .array((0..<3).map { IncomingBatchTests.track("\($0)", pad: 150) }),
            "padding": .string(String(repeating: "p", count: 2000)),
        ])
        let bigSingle = JSONWriter.encode(IncomingBatchTests.track("x", pad: 300))
        let cases: [([UInt8], MessageType?, HTTPError.Code)] = [
            (tooMany, nil, .batchTooLarge), (bigBatch, nil, .batchTooLarge), (bigSingle, .track, .eventTooLarge),
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

    @Test func anOversizedMessageOfABatchCostsOnlyItself() throws {
        var small = configuration
        small.maximumEventBytes = 200
        let body = JSONWriter.encode([
            "batch": [IncomingBatchTests.track("big", pad: 300), IncomingBatchTests.track("ok")]
        ])
        let batch = try IncomingBatch(body: body, singleType: nil, configuration: small)
        #expect(batch.rejected.map(\.index) == [0])
        #expect(batch.rejected.first?.error.code == .eventTooLarge)
        #expect(batch.rejected.first?.messageId == "big")
        #expect(batch.count == 1)
    }

    static func track(_ id: String, pad: Int = 0) -> JSONValue {
        [
            "type": "track", "event": "e", "userId": "u", "messageId": .string(id),
            "properties": ["pad": .string(String(repeating: "x", count: pad))],
        ]
    }

    @Test func nullsAreAcceptedAndIdsAreStrings() throws {
        let batch = try read([
            "batch": [
                [
                    "type": "identify", "userId": nil, "anonymousId": 42, "traits": nil,
                    "timestamp": nil, "context": nil, "messageId": nil,
                ]
            ]
        ])
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
        #expect(
            messages[0]["context"] == ["ip": "1.2.3.4", "locale": "fr-FR", "library": ["name": "analytics-python"]])
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
        let batch = try read([
            "batch": [["type": "track", "event": "e", "userId": "u", "timestamp": .string(timestamp)]],
            "sentAt": .string(sentAt),
        ])
        let message = try #require(try stored(batch).first)
        #expect(message["timestamp"]?.stringValue == corrected)
        #expect(message["originalTimestamp"]?.stringValue == timestamp)
        #expect(message["receivedAt"] == "2026-11-29T08:00:00.000Z")
    }

    @Test func withoutSentAtTheClientTimestampIsKept() throws {
        let batch = try read([
            "batch": [["type": "track", "event": "e", "userId": "u", "timestamp": "2026-11-28T08:00:00Z"]]
        ])
        let message = try #require(try stored(batch).first)
        #expect(message["timestamp"] == "2026-11-28T08:00:00.000Z")
    }

    static let spliceBodies: [String] = [
        #"{"batch":[{"type":"track","event":"A","userId":"u","messageId":"m1","properties":{"a" : 1, "b":[true,null]}}]}"#,
        #"{"batch":[{"type":"track","event":"B","userId":"u","messageId":"m2","timestamp":"2026-11-29T07:59:00+01:00","sentAt":"2026-11-29T07:59:30+01:00","writeKey":"leak"}],"sentAt":"2026-11-29T08:00:00Z"}"#,
        #"{"batch":[{"type":"identify","anonymousId":"a","messageId":"m3","originalTimestamp":"2026-11-28T08:00:00Z","timestamp":null,"receivedAt":"forged","traits":{"é":"x"}}],"sentAt":"2026-11-29T08:00:00Z"}"#,
        #"{"batch":[{"type":"track","event":"C","userId":42,"messageId":"m4"},{"type":"page","anonymousId":"a","messageId":"m5","name":"Home"}]}"#,
        #"{"batch":[{"type":"track","event":"D","userId":"u","messageId":"m6"}],"context":{"ip":"1.2.3.4"}}"#,
        #"{"batch":[{"type":"track","event":"E","userId":"u","messageId":"m7","context":{"app":"x"}},{"type":"track","event":"F","userId":"u","messageId":"m8","integrations":null},{"type":"track","event":"G","userId":"u","messageId":"m9"}],"context":{"ip":"1.2.3.4"},"integrations":{"All":false}}"#,
        // Escaped keys, a stamped one among them, and escaped values of checked members.
        #"{"batch":[{"type":"track","event":"H","userId":"u","messageId":"m10","\u0074imestamp":"2026-11-29T07:00:00Z","caf\u00e9":1}],"sentAt":"2026-11-29T07:00:10Z"}"#,
        #"{"batch":[{"type":"tr\u0061ck","event":"caf\u00e9","userId":"\u0075","messageId":"m\u0031\u0031","originalTimestamp":"2026-11-29T07:00:00\u005a"}]}"#,
        // `timestamp` wins over `originalTimestamp` whichever comes first.
        #"{"batch":[{"type":"track","event":"I","userId":"u","messageId":"m12","originalTimestamp":"2026-11-28T08:00:00Z","timestamp":"2026-11-28T09:00:00Z"},{"type":"track","event":"J","userId":"u","messageId":"m13","timestamp":"2026-11-28T09:00:00Z","originalTimestamp":"2026-11-28T08:00:00Z"},{"type":"track","event":"K","userId":"u","messageId":"m14","timestamp":null,"originalTimestamp":"2026-11-28T08:00:00Z"}],"sentAt":"2026-11-28T09:00:05Z"}"#,
        // No messageId: one is made (compared by presence, below).
        #"{"batch":[{"type":"screen","anonymousId":"a","name":"Home","properties":{"n":[1,{"x":null}]}}]}"#,
    ]

    @Test(arguments: spliceBodies)
    func copyingMembersAsSentStoresTheSameMessageAsRewritingIt(body: String) throws {
        let batch = try IncomingBatch(body: Array(body.utf8), singleType: nil, configuration: configuration)
        let whole = try IncomingBatch(
            body: Array(body.utf8), singleType: nil, configuration: configuration, shallow: false)
        let fast = batch.prepare(writeKey: "k", receivedAt: Self.receivedAt, copyingMembers: true)
        let full = whole.prepare(writeKey: "k", receivedAt: Self.receivedAt, copyingMembers: false)
        #expect(fast.count == full.count)
        for (a, b) in zip(fast, full) {
            var mine = try JSONParser.parse(a.payload).objectValue ?? [:]
            var theirs = try JSONParser.parse(b.payload).objectValue ?? [:]
            if body.contains("messageId") {
                #expect(a.messageId == b.messageId)
            } else {
                // Each reading makes its own id.
                #expect(
                    mine["messageId"]?.stringValue == a.messageId && theirs["messageId"]?.stringValue == b.messageId)
                mine["messageId"] = nil
                theirs["messageId"] = nil
            }
            #expect(mine == theirs)
            #expect(a.type == b.type)
            #expect(try JSONParser.parse(a.payload)["writeKey"] == nil)
        }
    }

    /// Readers disagree on which of two same-named members wins, so a message with one is
    /// refused (the batch's messages are read as members, not dictionaries, on the fast path).
    @Test(arguments: [
        #"{"batch":[{"type":"track","event":"A","userId":"u","userId":"v"}]}"#,
        #"{"batch":[{"type":"track","event":"A","userId":"u","\u0075serId":"v"}]}"#,
        #"{"batch":[{"type":"track","event":"A","userId":"u""# + (0..<20).map { ",\"p\($0)\":0" }.joined()
            + #","event":"B"}]}"#,
    ])
    func aMessageWithARepeatedMemberIs400(body: String) {
        let error = #expect(throws: HTTPError.self) {
            try IncomingBatch(body: Array(body.utf8), singleType: nil, configuration: configuration)
        }
        #expect(error?.status == 400)
        #expect(error?.message.contains("duplicate key") == true)
    }

    /// The batch's `context` and `integrations` go into every message whole, however deep they
    /// nest (the batch is read shallowly below its messages' members, the shared members are not).
    @Test(arguments: [
        #"{"batch":[{"type":"track","event":"A","userId":"u","messageId":"m1"}],"#,
        #"{"batch":[{"type":"track","event":"A","userId":"u","messageId":"m1","context":{"own":{"x":{"y":1}}}}],"#,
    ])
    func theBatchsDeeplyNestedContextIsStoredWhole(start: String) throws {
        let context: JSONValue = [
            "app": ["build": ["flavour": ["name": "beta", "flags": [1, ["deep": true]]]]],
            "traits": ["address": ["geo": ["lat": 1.5, "lon": -2]]],
        ]
        let integrations: JSONValue = ["Amplitude": ["session": ["id": ["value": 7]]]]
        let body =
            start + #""context":"# + String(decoding: JSONWriter.encode(context), as: UTF8.self)
            + #","integrations":"# + String(decoding: JSONWriter.encode(integrations), as: UTF8.self) + "}"
        let batch = try IncomingBatch(body: Array(body.utf8), singleType: nil, configuration: configuration)
        let message = try #require(try stored(batch).first)
        #expect(message["integrations"] == integrations)
        #expect(message["context"]?["app"] == context["app"])
        #expect(message["context"]?["traits"] == context["traits"])
    }

    @Test func untouchedMembersAreStoredByteForByte() throws {
        let body = #"{"batch":[{"type":"track","event":"A","userId":"u","messageId":"m1","properties":{"a" : 1.50}}]}"#
        let batch = try IncomingBatch(body: Array(body.utf8), singleType: nil, configuration: configuration)
        let stored = String(
            decoding: try #require(batch.prepare(writeKey: "k", receivedAt: Self.receivedAt).first).payload,
            as: UTF8.self)
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
