import CourierHTTPClient
import Synchronization

/// The frames read from the delivery socket and not yet processed. A reader task fills it while
/// the listener processes, so what arrived meanwhile is taken as one batch (`next(upTo:)`).
///
/// Bounded: the reader waits while `capacity` frames are queued, so a fast server cannot make the
/// listener hold more than about `capacity` frames in memory; the rest stays in the socket.
final class DeliveryFrameQueue: Sendable {
    private struct State {
        var frames: [WebSocketMessage] = []
        /// The socket has closed (`finish`).
        var finished = false
        /// The listener takes no more frames (`close`).
        var closed = false
        var consumer: CheckedContinuation<[WebSocketMessage]?, Never>?
        var blockedProducer: (frame: WebSocketMessage, continuation: CheckedContinuation<Void, Never>)?
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// Queues `frame`; waits while the queue is full. After `close()` the frame is dropped.
    func append(_ frame: WebSocketMessage) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let outcome = state.withLock { state -> AppendOutcome in
                if state.closed { return .queued }
                // A waiting consumer means an empty queue: the frame goes to it at once.
                if let consumer = state.consumer {
                    state.consumer = nil
                    return .handedOver(consumer)
                }
                if state.frames.count < capacity {
                    state.frames.append(frame)
                    return .queued
                }
                state.blockedProducer = (frame, continuation)
                return .waitingForRoom
            }
            switch outcome {
            case .queued:
                continuation.resume()
            case .handedOver(let consumer):
                consumer.resume(returning: [frame])
                continuation.resume()
            case .waitingForRoom:
                break  // `next` or `close` resumes it
            }
        }
    }

    private enum AppendOutcome {
        case queued
        case handedOver(CheckedContinuation<[WebSocketMessage]?, Never>)
        case waitingForRoom
    }

    /// The socket has closed: `next` returns what is queued, then `nil`.
    func finish() {
        let consumer = state.withLock { state in
            state.finished = true
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume(returning: nil)
    }

    /// Up to `limit` frames, oldest first: what is queued, else the next frame to arrive; `nil`
    /// once the socket has closed and everything queued was taken.
    func next(upTo limit: Int) async -> [WebSocketMessage]? {
        await withCheckedContinuation { (continuation: CheckedContinuation<[WebSocketMessage]?, Never>) in
            let ready = state.withLock { state -> Ready? in
                if !state.frames.isEmpty {
                    let batch = Array(state.frames.prefix(max(limit, 1)))
                    state.frames.removeFirst(batch.count)
                    guard let blocked = state.blockedProducer else { return (batch, nil) }
                    state.blockedProducer = nil
                    state.frames.append(blocked.frame)
                    return (batch, blocked.continuation)
                }
                if state.finished || state.closed { return (nil, nil) }
                state.consumer = continuation
                return nil
            }
            guard let ready else { return }
            ready.producer?.resume()
            continuation.resume(returning: ready.batch)
        }
    }

    /// What `next` hands out at once: frames (or `nil` at the end) and a reader that may go on.
    private typealias Ready = (batch: [WebSocketMessage]?, producer: CheckedContinuation<Void, Never>?)

    /// The listener stopped taking frames: what is queued is dropped (left unacknowledged on the
    /// server) and a reader waiting for room goes on, so it sees the socket close.
    func close() {
        let producer = state.withLock { state in
            state.closed = true
            state.frames = []
            defer { state.blockedProducer = nil }
            return state.blockedProducer?.continuation
        }
        producer?.resume()
    }
}
