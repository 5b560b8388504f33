import CourierCore
import CourierHTTP
import CourierHTTPClient
import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import MessengerServer

/// A delivery socket whose peer does not read: the answers to its sends wait for room in the
/// socket's queue (a task each), they keep the socket's request window closed meanwhile, so the
/// socket is read no further, and once the peer reads again every send is answered.
@Suite(.timeLimit(.minutes(1)))
struct SocketWindowSlowReaderTests {
    @Test func answersWaitingForRoomHoldTheWindowUntilThePeerReadsAgain() async throws {
        let harness = try await MessengerHarness(backend: .sqlite) { $0.sendRate = nil }
        defer { harness.stop() }
        let alice = try await harness.register()
        let bob = try await harness.register()
        let messenger = harness.messenger

        // The socket as the engine sees it, with room for one answer, and a peer that reads only
        // when the test takes what is queued (`nextOutgoing`). `wantsToWrite` is the engine's wake.
        let (wakes, wake) = AsyncStream<Void>.makeStream()
        var configuration = WebSocketConfiguration()
        configuration.maximumQueuedBytes = 128
        let channel = WebSocketChannel(
            configuration: configuration,
            transport: WebSocketChannelTransport(wantsToWrite: { wake.yield() }, resumeReading: {}),
            now: { DispatchTime.now().uptimeNanoseconds })
        let session = DeliverySession(
            device: AuthenticatedDevice(accountId: alice.accountId, deviceId: alice.deviceId),
            socket: WebSocket(channel: channel), connection: messenger.notifier.stamp(now: 0), store: messenger.store,
            storeQueues: messenger.storeQueues, acks: messenger.acks, window: 16)
        let window = SocketRequestWindow()

        // The socket's receive loop, fed one more send than the window holds, then a keepalive.
        let sends = Int64(SocketRequestWindow.limit) + 1
        let (handled, handledOne) = AsyncStream<Int64>.makeStream()
        let handledCount = Atomic<Int64>(0)
        let receiveLoop = Task {
            for id in 1...sends + 1 {
                var frame: [String: JSONValue] = ["type": "request", "id": .int(id)]
                if id <= sends {
                    frame["verb"] = "PUT"
                    frame["path"] = .string("/v1/messages/\(bob.accountId)")
                    frame["body"] = SocketRequestTests.send(to: bob, clientMessageId: "s\(id)")
                } else {
                    frame["verb"] = "GET"
                    frame["path"] = "/v1/keepalive"
                }
                await messenger.socketMessage(
                    .text(JSONWriter.string(.object(frame))), session: session, window: window)
                handledCount.add(1, ordering: .sequentiallyConsistent)
                handledOne.yield(id)
            }
            handledOne.finish()
        }
        defer { receiveLoop.cancel() }

        // One answer fits in the queue; every other waits in a task for room and keeps its send
        // in the window. With `limit` sends open the loop waits in the last send's admission: it
        // has handled one send fewer than it was given. Every send it handled is committed and
        // answered (one into the queue, the rest into waiting tasks) before the peer reads, so
        // the window can open only when a waiting answer gets room and leaves it.
        var handledIds = handled.makeAsyncIterator()
        var peerWakes = wakes.makeAsyncIterator()
        for expected in 1...sends - 1 { #expect(await handledIds.next() == expected) }
        #expect(await peerWakes.next() != nil)
        #expect(await poll { channel.waitingSenderCount == Int(sends) - 2 })
        #expect(channel.hasOutgoing)
        #expect(handledCount.load(ordering: .sequentiallyConsistent) == sends - 1)

        // The peer reads: each answer taken lets a waiting one in, its send leaves the window,
        // and the loop goes on to the last send and the keepalive.
        var answers: [Int64: JSONValue] = [:]
        while answers.count < Int(sends) + 1 {
            while case .message(.text(let text))? = channel.nextOutgoing() {
                let frame = try JSONParser.parse(text)
                answers[try #require(frame["id"]?.intValue)] = frame
            }
            // The next answer queued on an empty queue wakes the peer; a cancelled test stops.
            if answers.count < Int(sends) + 1, await peerWakes.next() == nil { break }
        }
        #expect(await handledIds.next() == sends)
        #expect(await handledIds.next() == sends + 1)
        #expect(await handledIds.next() == nil)
        #expect(Set(answers.keys) == Set(1...sends + 1))
        #expect(answers.values.allSatisfy { $0["status"] == 200 })
        let seqs = (1...sends).compactMap { answers[$0]?["body"]?["serverSeq"]?.intValue }
        #expect(seqs == Array(1...sends))
    }
}
