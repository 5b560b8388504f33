import CourierCore
import Synchronization
import Testing

@Suite struct LocalMessageBusTests {
    @Test func aPublishReachesEveryMatchingSubscriberAndNoOther() async throws {
        let bus = LocalMessageBus()
        let seen = Mutex<[String]>([])
        let exact = try await bus.subscribe("mbx.a.1") { message in
            seen.withLock { $0.append("exact " + message.subject) }
        }
        let star = try await bus.subscribe("mbx.*.1") { message in
            seen.withLock { $0.append("star " + message.subject) }
        }
        let tail = try await bus.subscribe("mbx.>") { message in seen.withLock { $0.append("tail " + message.subject) }
        }
        bus.publish("mbx.a.1", [1])
        bus.publish("mbx.b.2", [2])
        bus.publish("mbx", [3])
        #expect(seen.withLock { $0.sorted() } == ["exact mbx.a.1", "star mbx.a.1", "tail mbx.a.1", "tail mbx.b.2"])
        exact.cancel()
        star.cancel()
        tail.cancel()
        bus.publish("mbx.a.1", [1])
        #expect(seen.withLock { $0.count } == 4)
    }

    @Test func aRequestIsAnsweredOrFindsNoResponders() async throws {
        let bus = LocalMessageBus()
        #expect(await bus.request("mbx.a.1", [], timeout: .seconds(5)) == .noResponders)
        let subscription = try await bus.subscribe("mbx.a.1") { message in bus.reply(to: message, Array("here".utf8)) }
        #expect(await bus.request("mbx.a.1", [], timeout: .seconds(5)) == .answered(Array("here".utf8)))
        subscription.cancel()
        #expect(await bus.request("mbx.a.1", [], timeout: .seconds(5)) == .noResponders)
    }

    @Test func aSubscriberThatNeverAnswersTimesOut() async throws {
        let bus = LocalMessageBus()
        let subscription = try await bus.subscribe("mbx.a.1") { _ in }
        #expect(await bus.request("mbx.a.1", [], timeout: .milliseconds(20)) == .timedOut)
        withExtendedLifetime(subscription) {}
    }

    @Test func aDroppedSubscriptionStopsItsHandler() async throws {
        let bus = LocalMessageBus()
        let count = Atomic<Int>(0)
        var subscription: BusSubscription? = try await bus.subscribe("x") { _ in count.add(1, ordering: .relaxed) }
        bus.publish("x", [])
        subscription = nil
        bus.publish("x", [])
        #expect(subscription == nil)
        #expect(count.load(ordering: .relaxed) == 1)
    }

    @Test func clientTextBecomesASafeToken() {
        #expect(BusSubject.token("7c9e6679-7425-40de-944b-e07fc1f98ae7") == "7c9e6679-7425-40de-944b-e07fc1f98ae7")
        for hostile in ["a.b", "*", ">", "a b", "", String(repeating: "x", count: 65), "h1234", "é"] {
            let token = BusSubject.token(hostile)
            #expect(token.count == 17 && token.hasPrefix("h"), "\(hostile) → \(token)")
            #expect(token.utf8.allSatisfy { $0 != UInt8(ascii: ".") && $0 != UInt8(ascii: "*") })
        }
        #expect(BusSubject.token("a.b") != BusSubject.token("a.c"))
    }
}
