import CourierCore
import Foundation
@testable import Realtime
import Testing

/// The persisted outbox, inbox and cursor, in memory and in a file.
struct RealtimeStoreTests {
    static let paths = [":memory:", "file"]

    func open(_ kind: String) throws -> RealtimeStore {
        let path = kind == "file" ? NSTemporaryDirectory() + "realtime-\(UUID().uuidString).sqlite" : kind
        return try RealtimeStore(path: path, maximumPayloadBytes: 1_024)
    }

    @Test func anOutboxSurvivesReopeningItsFileWithItsClientIdsAndOrder() throws {
        let path = NSTemporaryDirectory() + "realtime-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let store = try RealtimeStore(path: path)
            for index in 0..<3 { try store.enqueue(destination: "bob", payload: [UInt8(index)], clientId: "c\(index)") }
            try store.advanceCursor(to: 17)
        }
        let reopened = try RealtimeStore(path: path)
        let items = try reopened.outbox(destination: "bob")
        #expect(items.map(\.clientId) == ["c0", "c1", "c2"])
        #expect(items.map(\.state) == [.sending, .sending, .sending])
        #expect(try reopened.cursor() == 17)
    }

    @Test(arguments: paths)
    func badInputGetsAClearError(kind: String) throws {
        let store = try open(kind)
        #expect(throws: RealtimeError(.invalidArgument, "the destination is empty")) {
            try store.enqueue(destination: "", payload: [1])
        }
        #expect(throws: RealtimeError(.invalidArgument, "the payload has 2000 bytes; the limit is 1024")) {
            try store.enqueue(destination: "bob", payload: Array(repeating: 0, count: 2_000))
        }
        try store.enqueue(destination: "bob", payload: [1], clientId: "once")
        #expect(throws: RealtimeError.self) { try store.enqueue(destination: "bob", payload: [1], clientId: "once") }
        #expect(throws: RealtimeError(.notFound, "no failed outbox item once")) { try store.retry("once") }
        #expect(throws: RealtimeError(.notFound, "no acknowledged outbox item once")) {
            try store.markReceipt("once", .read)
        }
        #expect(throws: RealtimeError(.invalidArgument, "a receipt marks delivered or read, not sent")) {
            try store.markReceipt("once", .sent)
        }
        #expect(throws: RealtimeError.self) { try RealtimeStore(path: "/nonexistent-dir/x/realtime.sqlite") }
    }

    @Test(arguments: paths)
    func ackedItemsSortByServerSeqWithPendingOnesAfterAndReceiptsOnlyMoveForward(kind: String) throws {
        let store = try open(kind)
        try store.enqueue(destination: "bob", payload: [1], clientId: "a")
        try store.enqueue(destination: "bob", payload: [2], clientId: "b")
        try store.enqueue(destination: "bob", payload: [3], clientId: "c")
        // The server ordered c before a; b is still pending.
        try store.acknowledge("c", serverSeq: 7)
        try store.acknowledge("a", serverSeq: 9)
        #expect(try store.outbox(destination: "bob").map(\.clientId) == ["c", "a", "b"])
        try store.markReceipt("c", .read)
        try store.markReceipt("c", .delivered)
        #expect(try store.outboxItem("c")?.state == .read)
        try store.markReceipt("a", .delivered)
        #expect(try store.outboxItem("a")?.state == .delivered)
    }

    @Test(arguments: paths)
    func incomingItemsAreDeduplicatedByIdAndOrderedByServerSeq(kind: String) throws {
        let store = try open(kind)
        func item(_ id: String, _ seq: Int64) -> IncomingItem {
            IncomingItem(id: id, conversation: "c", serverSeq: seq, body: .string(id))
        }
        #expect(try store.receive(item("x", 2)) == .accepted)
        #expect(try store.receive(item("x", 2)) == .duplicate)
        #expect(try store.receive(item("y", 5)) == .acceptedAfterGap(missing: 3...4))
        #expect(try store.receive(item("w", 1)) == .accepted)
        #expect(try store.received(conversation: "c").map(\.id) == ["w", "x", "y"])
    }
}
