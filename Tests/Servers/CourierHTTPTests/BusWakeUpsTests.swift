import CourierCore
import CourierHTTP
import Synchronization
import Testing

/// Wake-ups between instances: the key crosses whole (even when its subject token is a hash),
/// an instance does not hear its own, and nothing is heard before `start()`.
struct BusWakeUpsTests {
    /// What one instance heard.
    final class Heard: Sendable {
        let keys = Mutex<[String]>([])
        var all: [String] { keys.withLock { $0 } }
        func add(_ key: String) { keys.withLock { $0.append(key) } }
    }

    @Test func anotherInstanceHearsTheWholeKeyAndTheSenderDoesNot() async throws {
        let bus = LocalMessageBus()
        let (heardA, heardB) = (Heard(), Heard())
        let a = BusWakeUps(bus: bus, prefix: "flags.changed") { heardA.add($0) }
        let b = BusWakeUps(bus: bus, prefix: "flags.changed") { heardB.add($0) }
        try await a.start()
        try await b.start()
        try await b.start()
        let odd = "prod.eu >*"
        a.publish(odd)
        a.publish("staging")
        #expect(heardB.all == [odd, "staging"])
        #expect(heardA.all.isEmpty)
        #expect(bus.published.load(ordering: .relaxed) == 2)
    }

    @Test func nothingIsHeardBeforeStartAndOtherPrefixesAreNotHeard() async throws {
        let bus = LocalMessageBus()
        let heard = Heard()
        let listener = BusWakeUps(bus: bus, prefix: "sync.poke") { heard.add($0) }
        let sender = BusWakeUps(bus: bus, prefix: "sync.poke") { _ in }
        let other = BusWakeUps(bus: bus, prefix: "commits") { _ in }
        sender.publish("early")
        #expect(!listener.isStarted)
        try await listener.start()
        #expect(listener.isStarted)
        other.publish("alice")
        sender.publish("alice")
        #expect(heard.all == ["alice"])
    }
}
