import CourierHTTPClient
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(1)))
struct DeliveryFrameQueueTests {
    @Test func queuedFramesComeOutTogetherInOrderUpToTheLimit() async {
        let queue = DeliveryFrameQueue(capacity: 8)
        for text in ["a", "b", "c"] { await queue.append(.text(text)) }
        #expect(await queue.next(upTo: 2) == [.text("a"), .text("b")])
        #expect(await queue.next(upTo: 2) == [.text("c")])
        queue.finish()
        #expect(await queue.next(upTo: 2) == nil)
    }

    @Test func aWaitingConsumerGetsTheNextFrameAtOnce() async {
        let queue = DeliveryFrameQueue(capacity: 8)
        let consumer = Task { await queue.next(upTo: 8) }
        await queue.append(.text("a"))
        #expect(await consumer.value == [.text("a")])
    }

    /// A full queue holds the reader back until frames are taken; nothing is lost or reordered.
    @Test func aFullQueueHoldsTheReaderUntilFramesAreTaken() async {
        let queue = DeliveryFrameQueue(capacity: 2)
        await queue.append(.text("a"))
        await queue.append(.text("b"))
        let reader = Task { await queue.append(.text("c")) }
        var taken: [WebSocketMessage] = []
        while taken.count < 3, let batch = await queue.next(upTo: 8) {
            #expect(batch.count <= 2, "never more than the capacity queued")
            taken += batch
        }
        await reader.value
        #expect(taken == [.text("a"), .text("b"), .text("c")])
    }

    /// Closing drops what is queued and lets a reader waiting for room go on.
    @Test func closingReleasesAWaitingReaderAndDropsTheRest() async {
        let queue = DeliveryFrameQueue(capacity: 1)
        await queue.append(.text("a"))
        let reader = Task { await queue.append(.text("b")) }
        queue.close()
        await reader.value
        #expect(await queue.next(upTo: 8) == nil)
    }
}
