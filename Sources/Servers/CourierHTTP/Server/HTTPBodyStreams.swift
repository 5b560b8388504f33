import Synchronization

/// How a route receives its request body.
public enum RequestBodyMode: Sendable, Equatable {
    /// Read whole before the handler runs, into `HTTPRequest.body` (the default).
    case whole
    /// The handler runs as soon as the headers are in and reads the body as it arrives, from
    /// `HTTPRequest.bodyStream`; `HTTPRequest.body` is empty. The size limit and the body
    /// deadlines still hold: a read past them throws (413, 408).
    case stream
}

/// A request body as an `AsyncSequence` of byte chunks, read once.
///
/// ```swift
/// router.add("POST", "/upload", body: .stream) { request, _ in
///     var total = 0
///     for try await chunk in request.bodyStream { total += chunk.count }
///     return .json(["bytes": .int(Int64(total))])
/// }
/// ```
///
/// On a route that takes its body whole, the stream gives `HTTPRequest.body` as one chunk.
public struct HTTPRequestBodyStream: AsyncSequence, Sendable {
    /// A piece of the body, as it arrived.
    public typealias Element = [UInt8]

    enum Source: Sendable {
        case whole([UInt8])
        case feed(RequestBodyFeed)
    }

    let source: Source

    /// Reads the chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var source: Source?

        /// The next chunk, or `nil` at the end of the body.
        /// - Throws: `HTTPError` — `payloadTooLarge` past the size limit, `requestTimeout` when a
        ///   piece or the whole body is late, `badRequest` when the connection closed first.
        public mutating func next() async throws -> [UInt8]? {
            switch source {
            case .whole(let bytes):
                source = nil
                return bytes.isEmpty ? nil : bytes
            case .feed(let feed):
                return try await feed.next()
            case nil:
                return nil
            }
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: source) }

    /// Reads the rest of the body into one array (within the server's size limit).
    public func collect() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await chunk in self { bytes += chunk }
        return bytes
    }
}

/// The pieces of a streamed request body between the engine's loop, which appends them, and the
/// handler's task, which awaits them. Holds at most the server's body size limit.
final class RequestBodyFeed: Sendable {
    private struct State {
        var chunks = ReaderQueue<[UInt8], any Error>()
        var ended = false
        var failure: HTTPError?
    }

    private let state = Mutex(State())

    /// A piece has arrived.
    func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let waiter = state.withLock { state in state.ended ? nil : state.chunks.offer(bytes) }
        waiter?.resume(returning: bytes)
    }

    /// The whole body has arrived (`failure` nil) or never will.
    func end(_ failure: HTTPError? = nil) {
        let waiter = state.withLock { state -> ReaderQueue<[UInt8], any Error>.Reader? in
            guard !state.ended else { return nil }
            state.ended = true
            state.failure = failure
            return state.chunks.unpark()
        }
        if let failure { waiter?.resume(throwing: failure) } else { waiter?.resume(returning: nil) }
    }

    func next() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<[UInt8]?, HTTPError>? in
                if let chunk = state.chunks.take() { return .success(chunk) }
                if state.ended { return state.failure.map { .failure($0) } ?? .success(nil) }
                state.chunks.park(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// A response body produced while it is sent: the handler's `AsyncSequence` of chunks, pulled
/// only as fast as the client reads (a few chunks ahead at most).
public final class HTTPResponseBodyStream: Sendable {
    /// The length declared in `Content-Length`, or `nil` for chunked transfer encoding.
    let length: Int?
    /// Runs `body` on each chunk in order until it returns `false` or the sequence ends.
    let forEach: @Sendable (_ body: @escaping @Sendable ([UInt8]) async -> Bool) async throws -> Void

    /// Wraps `chunks`; `length`, when given, is sent as `Content-Length` and the chunks must add
    /// up to it (else the connection is closed at the end), otherwise the body is sent chunked.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int? = nil)
    where Chunks.Element == [UInt8] {
        self.length = length
        forEach = { body in
            for try await chunk in chunks {
                guard await body(chunk) else { return }
            }
        }
    }
}

/// The chunks of a streamed response between the handler's producing task and the engine's loop:
/// at most `capacity` chunks wait here, and the producer is suspended until the loop has taken
/// one, so a client that stops reading stops the producer instead of growing memory.
final class ResponseBodyPipe: Sendable {
    static let capacity = 4

    enum Next {
        case chunk([UInt8])
        case end
        case failed
        /// Nothing yet: the pipe calls `onReady` when there is.
        case wait
    }

    private struct State {
        var chunks: [[UInt8]] = []
        var end: Bool?
        var closed = false
        var producer: CheckedContinuation<Bool, Never>?
        var consumerWaiting = false
    }

    private let state = Mutex(State())
    private let onReady: @Sendable () -> Void

    /// `onReady` is called (on the producer's thread) when the loop, having found the pipe empty,
    /// can go on.
    init(onReady: @escaping @Sendable () -> Void) { self.onReady = onReady }

    /// Adds a chunk; returns once there is room for another, `false` when the connection has gone.
    func push(_ chunk: [UInt8]) async -> Bool {
        guard !chunk.isEmpty else { return !state.withLock { $0.closed } }
        let (accepted, notify) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.chunks.append(chunk)
            defer { state.consumerWaiting = false }
            return (true, state.consumerWaiting)
        }
        guard accepted else { return false }
        if notify { onReady() }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool? in
                if state.closed { return false }
                if state.chunks.count < Self.capacity { return true }
                state.producer = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// The producer has finished, whole or `failed`.
    func finish(failed: Bool) {
        let notify = state.withLock { state -> Bool in
            state.end = failed
            defer { state.consumerWaiting = false }
            return state.consumerWaiting
        }
        if notify { onReady() }
    }

    /// The connection has gone: the producer's next push returns `false`.
    func close() {
        let producer = state.withLock { state in
            state.closed = true
            state.chunks = []
            defer { state.producer = nil }
            return state.producer
        }
        producer?.resume(returning: false)
    }

    /// The next chunk for the loop to write (loop thread).
    func take() -> Next {
        let (next, producer) = state.withLock { state -> (Next, CheckedContinuation<Bool, Never>?) in
            if !state.chunks.isEmpty {
                let chunk = state.chunks.removeFirst()
                defer { state.producer = nil }
                return (.chunk(chunk), state.producer)
            }
            if let failed = state.end { return (failed ? .failed : .end, nil) }
            state.consumerWaiting = true
            return (.wait, nil)
        }
        producer?.resume(returning: true)
        return next
    }
}
