import Analytics
import CourierCore
import Testing

struct FlushPolicyTests {
    @Test func countTriggerUploadsAndCancelsTheTimer() {
        var policy = FlushPolicy(flushAt: 3, interval: .seconds(30))
        #expect(policy.eventsStored(queued: 1) == [.scheduleTimer(after: .seconds(30))])
        #expect(policy.eventsStored(queued: 2) == [])
        #expect(policy.eventsStored(queued: 3) == [.cancelTimer, .upload(.count)])
    }

    @Test func noTimerWhileTheQueueIsEmpty() {
        var policy = FlushPolicy(flushAt: 20, interval: .seconds(30))
        #expect(policy.eventsStored(queued: 0) == [])
        #expect(policy.timerFired(queued: 0) == [])
        #expect(policy.trigger(.background, queued: 0) == [])
        #expect(policy.trigger(.launch, queued: 0) == [])
        #expect(policy.timerScheduled == false)
    }

    @Test func timerBackgroundExplicitAndLaunchUpload() {
        var policy = FlushPolicy(flushAt: 20, interval: .seconds(30))
        _ = policy.eventsStored(queued: 1)
        #expect(policy.timerFired(queued: 1) == [.upload(.timer)])
        _ = policy.eventsStored(queued: 2)
        #expect(policy.trigger(.background, queued: 2) == [.cancelTimer, .upload(.background)])
        #expect(policy.trigger(.explicit, queued: 2) == [.upload(.explicit)])
        #expect(policy.trigger(.launch, queued: 5) == [.upload(.launch)])
        _ = policy.eventsStored(queued: 1)
        #expect(policy.queueEmptied() == [.cancelTimer])
    }
}

struct UploadDecisionTests {
    static let cases: [(TransportResult, Int, UploadDecision)] = [
        (.response(status: 200, headers: [:], body: []), 5, .delivered(rejected: 0)),
        (.response(status: 202, headers: [:], body: []), 5, .delivered(rejected: 0)),
        (
            .response(status: 200, headers: [:], body: Array(#"{"success":true,"rejected":[]}"#.utf8)), 5,
            .delivered(rejected: 0)
        ),
        (
            .response(
                status: 200, headers: [:], body: Array(#"{"success":true,"rejected":[{"index":4},{"index":0}]}"#.utf8)),
            5,
            .delivered(rejected: 2)
        ),
        (.response(status: 200, headers: [:], body: Array("not json".utf8)), 5, .delivered(rejected: 0)),
        (.response(status: 400, headers: [:], body: []), 5, .split),
        (.response(status: 400, headers: [:], body: []), 1, .poison(status: 400)),
        // `batch_rejected`: nothing stored, every message listed; dropped as rejected, never retried.
        (
            .response(status: 400, headers: [:], body: Array(#"{"rejected":[{"index":0}]}"#.utf8)), 1,
            .delivered(rejected: 1)
        ),
        (
            .response(status: 400, headers: [:], body: Array(#"{"rejected":[{"index":1},{"index":0}]}"#.utf8)), 2,
            .delivered(rejected: 2)
        ),
        // A 400 naming only some messages leaves the rest to bisection.
        (.response(status: 400, headers: [:], body: Array(#"{"rejected":[{"index":1}]}"#.utf8)), 2, .split),
        (.response(status: 422, headers: [:], body: []), 5, .poison(status: 422)),
        (.response(status: 413, headers: [:], body: []), 5, .split),
        (.response(status: 413, headers: [:], body: []), 1, .dropOversized),
        (.response(status: 401, headers: [:], body: []), 5, .unauthorized),
        (.response(status: 403, headers: [:], body: []), 5, .disabled),
        (.response(status: 429, headers: ["retry-after": "7"], body: []), 5, .retry(after: .seconds(7))),
        (.response(status: 429, headers: [:], body: []), 5, .retry(after: nil)),
        (.response(status: 503, headers: ["retry-after": "soon"], body: []), 5, .retry(after: nil)),
        (.response(status: 500, headers: [:], body: []), 5, .retry(after: nil)),
        (.response(status: 408, headers: [:], body: []), 5, .retry(after: nil)),
        (.failure("offline"), 5, .retry(after: nil)),
    ]

    @Test(arguments: cases)
    func decisions(result: TransportResult, count: Int, expected: UploadDecision) {
        #expect(UploadDecision.decide(result, batchCount: count) == expected)
    }

    @Test func retryAfterAsAnHTTPDate() {
        let now = Timestamp.parseMilliseconds("2026-11-29T08:00:00Z") ?? 0
        let later = TransportResult.response(
            status: 503, headers: ["retry-after": "Sun, 29 Nov 2026 08:01:30 GMT"], body: [])
        #expect(UploadDecision.decide(later, batchCount: 1, now: now) == .retry(after: .seconds(90)))
        let past = TransportResult.response(
            status: 429, headers: ["retry-after": "Sun, 29 Nov 2026 07:00:00 GMT"], body: [])
        #expect(UploadDecision.decide(past, batchCount: 1, now: now) == .retry(after: .zero))
        let junk = TransportResult.response(status: 429, headers: ["retry-after": "Sunday, whenever"], body: [])
        #expect(UploadDecision.decide(junk, batchCount: 1, now: now) == .retry(after: nil))
    }
}

struct BatchSizerTests {
    @Test func aRefusedBatchIsHalvedUntilItsSuspectsAreResolved() {
        var sizer = BatchSizer(maximum: 10)
        #expect(sizer.limit == 10)
        sizer.refused(10)
        #expect(sizer.limit == 5)
        sizer.resolved(5)  // the first half was fine: the bad event is in the other half
        #expect(sizer.limit == 5)
        sizer.refused(5)
        #expect(sizer.limit == 2)
        sizer.resolved(2)
        #expect(sizer.limit == 2)
        sizer.refused(2)
        sizer.resolved(1)
        #expect(sizer.limit == 1)
        sizer.resolved(1)  // the bad event, dropped alone
        #expect(sizer.limit == 10)
        #expect(sizer.suspects == 0)
    }

    @Test func aSingleEventIsNeverSplitFurther() {
        var sizer = BatchSizer(maximum: 1)
        sizer.refused(1)
        #expect(sizer.limit == 1)
        sizer.resolved(1)
        #expect(sizer.limit == 1)
    }
}

struct SamplerTests {
    @Test func stableHashIsFNV1aWithAFinalMix() {
        #expect(Sampler.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Sampler.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Sampler.stableHash("a") == Sampler.stableHash("a"))
        #expect(Sampler.stableHash("a") != Sampler.fnv1a("a"))
    }

    @Test func sequentialIdsSpreadEvenly() {
        let ids = (0..<2_000).map { String(1_795_939_200_000 + Int64($0) * 10) }
        let kept = ids.filter { Sampler.isSampled($0, rate: 50) }.count
        #expect(kept > 850 && kept < 1_150)
    }

    @Test func rateIsRespectedAndDecisionsAreStable() {
        let ids = (0..<20_000).map { "user-\($0)" }
        let kept = ids.filter { Sampler.isSampled($0, rate: 25) }.count
        #expect(kept > 4_500 && kept < 5_500)
        #expect(ids.allSatisfy { Sampler.isSampled($0, rate: 100) })
        #expect(!ids.contains { Sampler.isSampled($0, rate: 0) })
        #expect(
            ids.prefix(100).map { Sampler.isSampled($0, rate: 50) }
                == ids.prefix(100).map { Sampler.isSampled($0, rate: 50) })
    }
}

struct PIIScrubberTests {
    @Test(arguments: [
        ("write to jane.doe+news@example.co.uk today", "write to [email] today"),
        ("call +1 (415) 555-0134 now", "call [phone] now"),
        ("0049 30 1234567", "[phone]"),
        ("a@b.c and x@y.org", "[email] and [email]"),
    ])
    func redactsEmailsAndPhones(input: String, expected: String) {
        #expect(PIIScrubber.redact(input) == expected)
    }

    /// A numeric user id is a database key: redacting it as a phone number would merge every
    /// such user into one `[phone]` user.
    @Test(arguments: [
        ("12345678", "12345678"),
        ("4155550134", "4155550134"),
        ("-9876543210", "-9876543210"),
        ("+14155550134", "[phone]"),
        ("415-555-0134", "[phone]"),
        ("jane@example.com", "[email]"),
    ])
    func numericIdsAreKeptButContactDetailsInIdsAreNot(id: String, expected: String) {
        #expect(PIIScrubber(allowList: nil, redacts: true).redactIdentifier(id) == expected)
    }

    /// Remembered ids give what the scrubber gives, whatever their order and however many
    /// there are (more than it remembers at once, some seen again after being forgotten).
    @Test func rememberedIdsAreRedactedAsTheScrubberWould() {
        let scrubber = PIIScrubber(allowList: nil, redacts: true)
        let ids = [
            "a1b2c3d4-1234-4567-8901-abcdef123456", "4155550134", "jane@example.com", "+14155550134", "u-1",
            "415-555-0134", "a1b2c3d4-1234-4567-8901-abcdef123456", "jane@example.com", "x@y.org",
        ]
        var remembered = RedactedIdentifiers()
        for id in ids + ids.reversed() + ids {
            #expect(remembered.redacted(id, by: scrubber) == scrubber.redactIdentifier(id), "\(id)")
        }
        var unredacted = RedactedIdentifiers()
        #expect(
            unredacted.redacted("jane@example.com", by: PIIScrubber(allowList: nil, redacts: false))
                == "jane@example.com")
    }

    @Test(arguments: [
        "order 12345", "2026-11-29T08:00:00Z", "price 19.99", "@handle", "me@localhost", "v1.2.3", "ab12345678cd",
        // UUIDs (ids are scrubbed too): digit groups joined to hex letters are no phone.
        "a1b2c3d4-1234-4567-8901-abcdef123456", "3f2c8a1e-77aa-4123-8123-abcdefabcdef",
        "12345678-1234-4123-8123-123456789012", "SKU-5551234-XL",
    ])
    func leavesOrdinaryTextAlone(input: String) {
        #expect(PIIScrubber.redact(input) == input)
    }

    @Test func allowListKeepsOnlyListedKeysAndRedactsNestedValues() {
        let scrubber = PIIScrubber(allowList: ["plan", "contact"], redacts: true)
        let result = scrubber.scrub(["plan": "pro", "email": "a@b.co", "contact": ["who": "a@b.co"]])
        #expect(result == ["plan": "pro", "contact": ["who": "[email]"]])
    }
}

struct EncodingTests {
    @Test(arguments: [AnalyticsEvent.Kind.track, .screen, .identify, .group, .alias])
    func fastEncodingMatchesTheJSONModel(kind: AnalyticsEvent.Kind) throws {
        let context: [String: JSONValue] = ["library": ["name": "x"], "sessionId": 7]
        let event = AnalyticsEvent(
            messageId: "m", kind: kind, name: "N", properties: ["a": 1.5, "b": [nil, "s"]],
            timestamp: 1_795_939_200_000, userId: "u", anonymousId: "an", groupId: "g",
            previousId: "p", context: context)
        #expect(try JSONParser.parse(event.encoded()) == event.json)
        #expect(try JSONParser.parse(event.encoded(encodedContext: JSONWriter.encode(.object(context)))) == event.json)
    }
}
