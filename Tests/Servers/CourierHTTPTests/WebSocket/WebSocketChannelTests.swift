import Synchronization
import CourierTesting
import Testing

@testable import CourierHTTP

/// The channel's queue, buffer and close rules, driven as an engine would drive them.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketChannelTests {
    final class Engine: Sendable {
        let writes = Mutex(0)
        let resumes = Mutex(0)
        let time = Mutex<UInt64>(0)

        func transport() -> WebSocketChannelTransport {
            WebSocketChannelTransport(
                wantsToWrite: { self.writes.withLock { $0 += 1 } },
                resumeReading: { self.resumes.withLock { $0 += 1 } })
        }

        func advance(milliseconds: UInt64) { time.withLock { $0 += milliseconds * 1_000_000 } }
    }

    let engine = Engine()

    func channel(queueBytes: Int = 10, buffered: Int = 4, slowReaderMilliseconds: Int = 1000) -> WebSocketChannel {
        var configuration = WebSocketConfiguration()
        configuration.maximumQueuedBytes = queueBytes
        configuration.maximumBufferedMessages = buffered
        configuration.slowReaderTimeoutMilliseconds = slowReaderMilliseconds
        let engine = engine
        return WebSocketChannel(
            configuration: configuration, transport: engine.transport(), now: { engine.time.withLock { $0 } })
    }

    @Test func messagesGoOutInOrderAndTheEngineIsWokenOnceForAnEmptyQueue() async throws {
        let channel = channel()
        try await channel.send(.text("a"))
        try await channel.send(.binary([1, 2]))
        #expect(engine.writes.withLock { $0 } == 1)
        #expect(channel.nextOutgoing() == .message(.text("a")))
        #expect(channel.nextOutgoing() == .message(.binary([1, 2])))
        #expect(channel.nextOutgoing() == nil)
    }

    @Test func aFullQueueMakesTheSenderWaitUntilTheEngineWrites() async throws {
        let channel = channel(queueBytes: 4)
        try await channel.send(.binary([1, 2, 3]))
        let waiting = Task { try await channel.send(.binary([4, 5])) }
        #expect(await poll { channel.hasWaitingSender })
        #expect(channel.nextOutgoing() == .message(.binary([1, 2, 3])))
        try await waiting.value
        #expect(channel.nextOutgoing() == .message(.binary([4, 5])))
    }

    @Test func aSenderWaitingPastTheDeadlineClosesTheSocketAsASlowReader() async throws {
        let channel = channel(queueBytes: 4, slowReaderMilliseconds: 1000)
        try await channel.send(.binary([1, 2, 3]))
        let waiting = Task { try await channel.send(.binary([4, 5])) }
        #expect(await poll { channel.hasWaitingSender })
        engine.advance(milliseconds: 999)
        #expect(channel.checkSlowReader() == false)
        engine.advance(milliseconds: 1)
        #expect(channel.checkSlowReader())
        let error = await #expect(throws: WebSocketError.self) { try await waiting.value }
        #expect(error?.code == .slowReader)
        #expect(channel.nextOutgoing() == .close(WebSocketClose(.policyViolation, reason: "slow reader")))
        #expect(channel.nextOutgoing() == nil)
    }

    @Test func sendNowRefusesWhatDoesNotFitAndClosesTheSocket() throws {
        let channel = channel(queueBytes: 4)
        try channel.sendNow(.binary([1, 2, 3]))
        let error = #expect(throws: WebSocketError.self) { try channel.sendNow(.binary([4, 5])) }
        #expect(error?.code == .slowReader)
        #expect(channel.nextOutgoing() == .close(WebSocketClose(.policyViolation, reason: "slow reader")))
        #expect(throws: WebSocketError.self) { try channel.sendNow(.text("x")) }
    }

    @Test func aMessageLargerThanTheQueueIsRefusedWithoutClosing() async throws {
        let channel = channel(queueBytes: 4)
        let error = await #expect(throws: WebSocketError.self) { try await channel.send(.binary([1, 2, 3, 4, 5])) }
        #expect(error?.code == .messageTooBig)
        try await channel.send(.binary([1]))
    }

    @Test func closeGoesOutAfterWhatIsQueuedAndStopsFurtherSends() async throws {
        let channel = channel()
        try await channel.send(.text("last"))
        channel.close(WebSocketClose(.goingAway, reason: "stopping"))
        let error = await #expect(throws: WebSocketError.self) { try await channel.send(.text("late")) }
        #expect(error?.code == .closed)
        #expect(channel.nextOutgoing() == .message(.text("last")))
        #expect(channel.nextOutgoing() == .close(WebSocketClose(.goingAway, reason: "stopping")))
    }

    @Test func aFullBufferPausesReadingUntilTheReaderTakesHalf() async {
        let channel = channel(buffered: 4)
        #expect(channel.received(.text("1")))
        #expect(channel.received(.text("2")))
        #expect(channel.received(.text("3")))
        #expect(channel.received(.text("4")) == false)
        #expect(await channel.nextInbound() == .text("1"))
        #expect(engine.resumes.withLock { $0 } == 0)
        #expect(await channel.nextInbound() == .text("2"))
        #expect(engine.resumes.withLock { $0 } == 1)
    }

    @Test func theReaderGetsWhatIsBufferedThenNilOnceEnded() async {
        let channel = channel()
        _ = channel.received(.text("1"))
        channel.peerClosed(WebSocketClose(.goingAway, reason: "bye"))
        channel.ended()
        #expect(await channel.nextInbound() == .text("1"))
        #expect(await channel.nextInbound() == nil)
        #expect(await channel.waitUntilEnded() == WebSocketClose(.goingAway, reason: "bye"))
    }

    @Test func aWaitingReaderIsHandedTheMessageDirectly() async {
        let channel = channel()
        let reader = Task { await channel.nextInbound() }
        #expect(await poll { channel.hasWaitingReader })
        #expect(channel.received(.binary([9])))
        #expect(await reader.value == .binary([9]))
    }

    @Test func endingWithoutACloseFrameIsAbnormalAndFailsWaitingSenders() async throws {
        let channel = channel(queueBytes: 2)
        try await channel.send(.binary([1, 2]))
        let waiting = Task { try await channel.send(.binary([3])) }
        #expect(await poll { channel.hasWaitingSender })
        channel.ended()
        let error = await #expect(throws: WebSocketError.self) { try await waiting.value }
        #expect(error?.close?.code == .abnormalClosure)
        #expect(channel.endedClose?.code == .abnormalClosure)
    }

    @Test func cancellingTheReaderEndsItsWait() async {
        let channel = channel()
        let reader = Task { await channel.nextInbound() }
        #expect(await poll { channel.hasWaitingReader })
        reader.cancel()
        #expect(await reader.value == nil)
    }

    /// The cancellation check sits under the channel's lock with the parking: a reader whose task
    /// is already cancelled (as one cancelled between an earlier check and the lock would be) gets
    /// `nil` at once, is never parked, and leaves the buffered message for the next reader.
    @Test func aReaderCancelledBeforeItTakesTheLockIsNotParked() async {
        let channel = channel()
        #expect(channel.received(.text("kept")))
        let reader = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await channel.nextInbound()
        }
        #expect(await reader.value == nil)
        #expect(!channel.hasWaitingReader)
        #expect(await channel.nextInbound() == .text("kept"))
    }

    /// A message handler gets the buffered messages first, in order, then each new one as it
    /// arrives; a buffer that had paused reading lets it resume; the end drops the handler.
    @Test func aMessageHandlerTakesTheBufferThenEachMessageUntilTheEnd() {
        let channel = channel(buffered: 2)
        #expect(channel.received(.text("a")))
        #expect(!channel.received(.text("b")))  // full: reading pauses
        let handled = Mutex<[WebSocketMessage]>([])
        channel.handleEachMessage { message in handled.withLock { $0.append(message) } }
        #expect(handled.withLock { $0 } == [.text("a"), .text("b")])
        #expect(engine.resumes.withLock { $0 } == 1)
        #expect(channel.received(.text("c")))
        #expect(handled.withLock { $0 } == [.text("a"), .text("b"), .text("c")])
        channel.ended()
        #expect(channel.received(.text("after the end")))
        #expect(handled.withLock { $0 }.count == 3)
    }

    /// A connection that ended while its upgrade was being accepted still hands what it had
    /// buffered to the handler, as a reading task would still read it; and a socket served by a
    /// handler gives a reader nothing.
    @Test func aHandlerSetAfterTheEndStillGetsTheBufferAndReadersGetNothing() async {
        let channel = channel()
        #expect(channel.received(.text("hello")))
        channel.ended()
        let handled = Mutex<[WebSocketMessage]>([])
        channel.handleEachMessage { message in handled.withLock { $0.append(message) } }
        #expect(handled.withLock { $0 } == [.text("hello")])
        let live = self.channel()
        live.handleEachMessage { _ in }
        #expect(await live.nextInbound() == nil)
    }

    /// A handler's end is told once, after the last message: when the connection ends while the
    /// handler runs, when it ended before the handler was set, and when it ends while the buffer
    /// is being handed over (here, from inside the handler), after what was buffered.
    @Test func anEndHandlerIsToldOnceAfterTheLastMessage() {
        let events = Mutex<[String]>([])
        @Sendable func record(_ event: String) { events.withLock { $0.append(event) } }
        let onEnd: @Sendable (WebSocketClose) -> Void = { close in events.withLock { $0.append("end \(close.code)") } }

        let live = channel()
        live.handleEachMessage({ _ in record("message") }, onEnd: onEnd)
        #expect(live.received(.text("a")))
        live.ended()
        live.ended()
        #expect(events.withLock { $0 } == ["message", "end 1006"])

        events.withLock { $0 = [] }
        let endedFirst = channel()
        #expect(endedFirst.received(.text("a")))
        endedFirst.peerClosed(WebSocketClose(.normalClosure))
        endedFirst.ended()
        endedFirst.handleEachMessage({ _ in record("message") }, onEnd: onEnd)
        #expect(events.withLock { $0 } == ["message", "end 1000"])

        events.withLock { $0 = [] }
        let endingWhileHanding = channel()
        #expect(endingWhileHanding.received(.text("a")))
        #expect(endingWhileHanding.received(.text("b")))
        endingWhileHanding.handleEachMessage(
            { message in
                guard case .text(let text) = message else { return }
                record(text)
                if text == "a" { endingWhileHanding.ended() }
            }, onEnd: onEnd)
        #expect(events.withLock { $0 } == ["a", "b", "end 1006"])
    }

    @Test func aLongReasonIsCutAtACharacterBoundary() {
        let close = WebSocketClose(.normalClosure, reason: String(repeating: "é", count: 100))
        #expect(close.payload.count == 2 + 122)
        let parsed = close.payload.withUnsafeBytes { WebSocketClose(payload: $0) }
        #expect(parsed.reason == String(repeating: "é", count: 61))
        #expect(WebSocketCloseCode.refused(401).rawValue == 4401)
        #expect(WebSocketCloseCode(rawValue: 4429).refusedStatus == 429)
        #expect(WebSocketCloseCode.goingAway.refusedStatus == nil)
    }
}
