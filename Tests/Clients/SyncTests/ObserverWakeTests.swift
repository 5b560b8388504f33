import CourierCore
@testable import Sync
import Testing

/// Observers' wake-ups coalesced in time (`SyncConfiguration.observerWakeInterval`): the first
/// commit after a quiet interval wakes at once, later ones within it are held until it ends, and
/// nothing they changed is lost.
@Suite(.timeLimit(.minutes(1)))
struct ObserverWakeTests {
    private func change(_ id: String, in collection: String = "notes") -> RecordChange {
        RecordChange(collection: collection, id: id, deleted: false, origin: .local)
    }

    private func record(_ id: String) -> LocalRecord {
        LocalRecord(collection: "notes", id: id, fields: ["id": .string(id)], version: 0, isPending: true)
    }

    @Test func commitsWithinTheIntervalAreHeldAndWokenForOnceWhenItEnds() async {
        let signals = CollectionSignals(wakeInterval: .seconds(3600))
        let (stream, take) = signals.subscribe("notes")
        var wakes = stream.makeAsyncIterator()
        _ = await wakes.next()  // the subscription's own first signal
        #expect(take() == .all)

        signals.send([change("a")], states: [record("a")])
        #expect(signals.wakeCount == 1, "the first commit after a quiet interval wakes at once")
        _ = await wakes.next()
        #expect(take() == .records(["a": .state(record("a"))]))

        for id in ["b", "c", "d"] { signals.send([change(id)], states: [record(id)]) }
        signals.send([change("x", in: "other")], states: [record("x")])
        #expect(signals.wakeCount == 1, "commits within the interval wait for its end")

        signals.wakeDeferred()  // the interval's end
        #expect(signals.wakeCount == 2, "one wake-up for the three commits")
        _ = await wakes.next()
        #expect(take() == .records(["b": .state(record("b")), "c": .state(record("c")), "d": .state(record("d"))]))

        signals.wakeDeferred()
        #expect(signals.wakeCount == 2, "nothing left to wake for: another collection's commit woke no one")
    }

    @Test func aHeldWakeUpArrivesWhenTheIntervalEndsWithoutAnotherCommit() async {
        let signals = CollectionSignals(wakeInterval: .milliseconds(20))
        let (stream, take) = signals.subscribe("notes")
        var wakes = stream.makeAsyncIterator()
        _ = await wakes.next()
        _ = take()
        signals.send([change("a")], states: [record("a")])
        _ = await wakes.next()
        #expect(take() == .records(["a": .state(record("a"))]))
        // Held (or, on a slow machine past the interval, woken at once): it arrives either way.
        signals.send([change("b")], states: [record("b")])
        _ = await wakes.next()
        #expect(take() == .records(["b": .state(record("b"))]))
        #expect(signals.wakeCount == 2)
    }

    @Test func eachObserverHasItsOwnIntervalAndATakenChangeIsNotWokenForAgain() async {
        let signals = CollectionSignals(wakeInterval: .seconds(3600))
        let (notes, takeNotes) = signals.subscribe("notes")
        let (tasks, _) = signals.subscribe("tasks")
        var noteWakes = notes.makeAsyncIterator()
        _ = await noteWakes.next()
        _ = takeNotes()
        signals.send([change("a")], states: [record("a")])
        #expect(signals.wakeCount == 1)
        // Another collection's observer was never woken: its first commit wakes it at once.
        signals.send([change("t", in: "tasks")], states: [record("t")])
        #expect(signals.wakeCount == 2, "a quiet observer is not held by another's wake-up")

        _ = await noteWakes.next()
        _ = takeNotes()
        signals.send([change("b")], states: [record("b")])
        #expect(signals.wakeCount == 2, "held")
        // The consumer reads before the interval ends (it was busy, and looks again): it takes b.
        #expect(takeNotes() == .records(["b": .state(record("b"))]))
        signals.wakeDeferred()
        #expect(signals.wakeCount == 2, "nothing left to wake the notes' consumer for")
        withExtendedLifetime(tasks) {}
    }

    @Test func aZeroIntervalWakesOnEveryCommit() async {
        let signals = CollectionSignals(wakeInterval: .zero)
        let (stream, _) = signals.subscribe("notes")
        for id in ["a", "b", "c"] { signals.send([change(id)], states: [record(id)]) }
        #expect(signals.wakeCount == 3)
        withExtendedLifetime(stream) {}
    }
}
