import CourierCore
import CourierNATS
import CourierTesting
import Synchronization
import Testing

/// The bus against a real `nats-server`: two connections stand for two instances.
@Suite struct NATSMessageBusTests {
    @Test func aPublishOnOneConnectionReachesASubscriberOnAnother() async throws {
        let nats = try await TestNATS.start()
        let a = try NATSMessageBus(url: nats.url, name: "a")
        let b = try NATSMessageBus(url: nats.url, name: "b")
        let (messages, continuation) = AsyncStream.makeStream(of: BusMessage.self)
        let subscription = try await b.subscribe("mbx.*.1") { continuation.yield($0) }
        a.publish("mbx.alice.1", Array("wake".utf8))
        a.publish("mbx.alice.2", Array("not this one".utf8))
        a.publish("mbx.bob.1", Array("and".utf8))
        var iterator = messages.makeAsyncIterator()
        let first = await iterator.next()
        let second = await iterator.next()
        #expect(first?.subject == "mbx.alice.1" && first?.payload == Array("wake".utf8))
        #expect(second?.subject == "mbx.bob.1")
        subscription.cancel()
    }

    @Test func aRequestIsAnsweredAcrossConnectionsOrFindsNoResponders() async throws {
        let nats = try await TestNATS.start()
        let a = try NATSMessageBus(url: nats.url, name: "a")
        let b = try NATSMessageBus(url: nats.url, name: "b")
        #expect(await a.request("mbx.bob.1", [], timeout: .seconds(10)) == .noResponders)
        let subscription = try await b.subscribe("mbx.bob.1") { b.reply(to: $0, Array("here".utf8)) }
        #expect(await a.request("mbx.bob.1", [], timeout: .seconds(10)) == .answered(Array("here".utf8)))
        subscription.cancel()
        // The unsubscribe reaches the server before a round trip on the same connection.
        _ = try await b.subscribe("flush.after.cancel") { _ in }
        #expect(await a.request("mbx.bob.1", [], timeout: .seconds(10)) == .noResponders)
    }

    @Test func aSubscriberThatNeverAnswersTimesOut() async throws {
        let nats = try await TestNATS.start()
        let a = try NATSMessageBus(url: nats.url, name: "a")
        let subscription = try await a.subscribe("silent") { _ in }
        #expect(await a.request("silent", [], timeout: .milliseconds(50)) == .timedOut)
        withExtendedLifetime(subscription) {}
    }

    @Test func aStoppedServerMakesRequestsUnavailableAndARestartRunsReconnectHandlers() async throws {
        let nats = try await TestNATS.start()
        let a = try NATSMessageBus(
            url: nats.url, name: "a", reconnectWait: .milliseconds(20), jitter: .milliseconds(20))
        let b = try NATSMessageBus(
            url: nats.url, name: "b", reconnectWait: .milliseconds(20), jitter: .milliseconds(20))
        let (reconnects, reconnected) = AsyncStream.makeStream(of: Void.self)
        a.onReconnect { reconnected.yield() }
        let (messages, arrived) = AsyncStream.makeStream(of: BusMessage.self)
        let subscription = try await a.subscribe("after.outage") { arrived.yield($0) }
        await nats.stop()
        #expect(await poll { !a.isConnected })
        #expect(await a.request("after.outage", [], timeout: .seconds(1)) == .unavailable)
        try await nats.start()
        var events = reconnects.makeAsyncIterator()
        #expect(await events.next() != nil)
        // The subscription made before the outage is in force again.
        #expect(await poll { b.isConnected })
        _ = try await a.subscribe("flush") { _ in }
        b.publish("after.outage", [7])
        var iterator = messages.makeAsyncIterator()
        #expect(await iterator.next()?.payload == [7])
        withExtendedLifetime(subscription) {}
    }

    @Test func aBusStartsWhileNATSIsDownAndJoinsWhenItComesUp() async throws {
        let nats = try await TestNATS.start()
        await nats.stop()
        let a = try NATSMessageBus(
            url: nats.url, name: "a", reconnectWait: .milliseconds(20), jitter: .milliseconds(20))
        #expect(!a.isConnected)
        let (reconnects, reconnected) = AsyncStream.makeStream(of: Void.self)
        a.onReconnect { reconnected.yield() }
        try await nats.start()
        var events = reconnects.makeAsyncIterator()
        #expect(await events.next() != nil)
        #expect(a.isConnected)
    }
}
