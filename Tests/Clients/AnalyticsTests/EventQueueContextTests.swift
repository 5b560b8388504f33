@testable import Analytics
import CourierCore
import Foundation
import Testing

/// A session's context row lives as long as a queued event names it: once its events are sent,
/// expired or pushed out by the byte cap, the row goes too (not at the next launch), while the
/// context appends use now stays for the next event.
@Suite(.timeLimit(.minutes(1)))
final class EventQueueContextTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-queue-\(Identifier.uuid())")

    deinit { try? FileManager.default.removeItem(at: directory) }

    let first = PendingEvent(payload: Array(#"{"event":"First"}"#.utf8), context: Array(#"{"sessionId":1}"#.utf8))
    let second = PendingEvent(payload: Array(#"{"event":"Second"}"#.utf8), context: Array(#"{"sessionId":2}"#.utf8))

    /// The context rows in the file, read through a connection of its own.
    private func contextRows() throws -> Int64 {
        let db = try Database(path: directory.appendingPathComponent("queue.sqlite").path)
        return try db.query("SELECT count(*) FROM contexts") { $0.int(0) }.first ?? -1
    }

    @Test func aSessionsContextGoesWhenItsLastEventIsSent() throws {
        let (queue, _) = try EventQueue.open(directory: directory, now: 0)
        _ = try queue.append([first, first], createdAt: 0, maximumBytes: 1 << 20)
        _ = try queue.append([second], createdAt: 0, maximumBytes: 1 << 20)
        #expect(try contextRows() == 2)
        let batch = try queue.peek(maximumCount: 10, maximumBytes: 1 << 20)
        #expect(batch.count == 2)  // a batch shares one context: the first session's two events
        try queue.delete(batch)
        #expect(try contextRows() == 1)
        try queue.delete(try queue.peek(maximumCount: 10, maximumBytes: 1 << 20))
        // The context appends use now stays (the session goes on), and is not stored again.
        #expect(try contextRows() == 1)
        _ = try queue.append([second], createdAt: 0, maximumBytes: 1 << 20)
        #expect(try contextRows() == 1)
    }

    @Test func aSessionsContextGoesWhenTheByteCapPushesItsEventsOut() throws {
        let (queue, _) = try EventQueue.open(directory: directory, now: 0)
        _ = try queue.append([first, first], createdAt: 0, maximumBytes: 1 << 20)
        let dropped = try queue.append([second], createdAt: 0, maximumBytes: second.payload.count)
        #expect(dropped == 2)
        #expect(try contextRows() == 1)
    }

    @Test func aSessionsContextGoesWhenItsEventsExpire() throws {
        let (queue, _) = try EventQueue.open(directory: directory, now: 0)
        _ = try queue.append([first], createdAt: 0, maximumBytes: 1 << 20)
        _ = try queue.append([second], createdAt: 1_000, maximumBytes: 1 << 20)
        #expect(try queue.dropExpired(before: 500) == 1)
        #expect(try contextRows() == 1)
    }

    @Test func contextsOfEventsDeletedBehindABatchGoToo() throws {
        // The kill switch deletes what is queued behind the batch it answered.
        let (queue, _) = try EventQueue.open(directory: directory, now: 0)
        for event in [first, second, first] { _ = try queue.append([event], createdAt: 0, maximumBytes: 1 << 20) }
        #expect(try contextRows() == 2)
        let batch = try queue.peek(maximumCount: 10, maximumBytes: 1 << 20)
        #expect(try queue.delete(after: try #require(batch.last?.id)) == 2)
        #expect(try contextRows() == 1)
    }
}
