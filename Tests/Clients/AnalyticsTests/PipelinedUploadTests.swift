import Analytics
import CourierCore
import CourierTesting
import Foundation
import Synchronization
import Testing

/// Holds the first `width` uploads until all of them have arrived (so they are in flight at
/// once), then answers each through `answer`; later uploads are answered at once. Counts the most
/// uploads seen in flight together.
final class GatedTransport: AnalyticsTransport {
    let width: Int
    let base: FakeTransport
    private let state = Mutex<(arrived: Int, inFlight: Int, peak: Int, waiting: [CheckedContinuation<Void, Never>])>(
        (0, 0, 0, []))

    init(width: Int, base: FakeTransport) {
        self.width = width
        self.base = base
    }

    var peakInFlight: Int { state.withLock { $0.peak } }

    func send(_ request: TransportRequest) async -> TransportResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let release: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.arrived += 1
                state.inFlight += 1
                state.peak = max(state.peak, state.inFlight)
                guard state.arrived <= width else { return [continuation] }
                state.waiting.append(continuation)
                if state.arrived == width {
                    defer { state.waiting.removeAll() }
                    return state.waiting
                }
                return []
            }
            release.forEach { $0.resume() }
        }
        let result = await base.send(request)
        state.withLock { $0.inFlight -= 1 }
        return result
    }
}

/// Passes uploads to `base` at once but holds each successful answer until `release()`, so a
/// test can have a failed batch answered before a successful one.
final class HeldSuccessTransport: AnalyticsTransport {
    let base: FakeTransport
    private let state = Mutex<(released: Bool, held: [CheckedContinuation<Void, Never>])>((false, []))

    init(base: FakeTransport) { self.base = base }

    func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.held.removeAll() }
            return state.held
        }
        held.forEach { $0.resume() }
    }

    func send(_ request: TransportRequest) async -> TransportResult {
        let result = await base.send(request)
        guard request.method == "POST", case .response(200, _, _) = result else { return result }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let go = state.withLock { state in
                if !state.released { state.held.append(continuation) }
                return state.released
            }
            if go { continuation.resume() }
        }
        return result
    }
}

@Suite(.timeLimit(.minutes(2)))
struct PipelinedUploadTests {
    let harness: SDKHarness
    init() throws { harness = try SDKHarness() }

    @Test func aFailureInTheMiddleOfKInFlightBatchesResendsOnlyThatBatch() async throws {
        let gate = GatedTransport(width: 3, base: harness.transport)
        let failedOnce = Mutex(false)
        // The middle batch (E5…E9) gets a 500 the first time; every other upload is stored.
        harness.transport.setBodyRule { messages in
            guard messages.first?["event"]?.stringValue == "E5" else { return nil }
            return failedOnce.withLock { failed in
                defer { failed = true }
                return failed ? nil : FakeTransport.status(500)
            }
        }
        let analytics = harness.make {
            $0.transport = gate
            $0.maximumBatchCount = 5
            $0.maximumUploadsInFlight = 3
            $0.flushAt = 1000
        }
        for i in 0..<15 {
            analytics.track("E\(i)")
            // Distinct `track` times: the order a reader sorts by.
            harness.clock.advance(by: .milliseconds(1))
        }
        let first = await analytics.flushed()
        #expect(first.blocked)
        #expect(first.remaining == 5)
        #expect(gate.peakInFlight == 3)
        try await harness.advance(.seconds(1))
        #expect(await poll { analytics.stats.sent == 15 })

        let uploads = harness.transport.uploads
        let names = uploads.map { $0.messages.compactMap { $0["event"]?.stringValue } }
        // Three batches went out together; only the refused one was sent again, with the same ids.
        #expect(uploads.count == 4)
        #expect(names.last == ["E5", "E6", "E7", "E8", "E9"])
        let ids = uploads.flatMap(\.messages).compactMap { $0["messageId"]?.stringValue }
        #expect(Set(ids).count == 15)
        // What the collector holds, in the order it stored it, sorted by `timestamp` as a reader
        // does, is the order of the `track` calls.
        let delivered = harness.transport.uploadedMessages
        #expect(delivered.count == 15)
        let byTimestamp = delivered.sorted {
            ($0["timestamp"]?.stringValue ?? "") < ($1["timestamp"]?.stringValue ?? "")
        }
        #expect(byTimestamp.compactMap { $0["event"]?.stringValue } == (0..<15).map { "E\($0)" })
    }

    @Test func oneInFlightSendsBatchesOneAfterAnother() async throws {
        let gate = GatedTransport(width: 1, base: harness.transport)
        let analytics = harness.make {
            $0.transport = gate
            $0.maximumBatchCount = 5
            $0.maximumUploadsInFlight = 1
            $0.flushAt = 1000
        }
        for i in 0..<15 { analytics.track("E\(i)") }
        _ = await analytics.flushed()
        #expect(await poll { analytics.stats.sent == 15 })
        #expect(gate.peakInFlight == 1)
        let names = harness.transport.uploadedMessages.compactMap { $0["event"]?.stringValue }
        #expect(names == (0..<15).map { "E\($0)" })
    }

    /// A batch that will be retried keeps the flush blocked even when another batch in flight is
    /// answered with success after it (the last answer used to decide).
    @Test func aSuccessAnsweredAfterAFailureLeavesTheFlushBlocked() async throws {
        let held = HeldSuccessTransport(base: harness.transport)
        harness.transport.setBodyRule { messages in
            messages.first?["event"]?.stringValue == "E0" ? FakeTransport.status(500) : nil
        }
        let analytics = harness.make {
            $0.transport = held
            $0.maximumBatchCount = 5
            $0.maximumUploadsInFlight = 2
            $0.flushAt = 1000
        }
        for i in 0..<10 { analytics.track("E\(i)") }
        analytics.flush()
        #expect(await poll { analytics.stats.retries == 1 })
        held.release()
        #expect(await poll { analytics.stats.sent == 5 })
        let result = await analytics.flushed()
        #expect(result.blocked)
        #expect(result.remaining == 5)
    }
}
