#if canImport(Darwin)
    import Foundation
    import Synchronization

    /// Opens WebSockets to servers (`ws://` and `wss://`). On Apple platforms each connection is
    /// a `URLSessionWebSocketTask` driving the same `WebSocketChannel` as the Linux client, so
    /// `connect` returns the same `WebSocket`; on Linux one libwebsockets context serves them all.
    public final class WebSocketClient: Sendable {
        private let session: URLSession
        private let delegate: URLSessionWebSocketDelegateHub

        /// Creates the client's `URLSession`. `additionalTrustedCertificatesPath` is not used here:
        /// the system's trust settings apply.
        public init(configuration: WebSocketClientConfiguration = .init()) throws {
            delegate = URLSessionWebSocketDelegateHub()
            // No disk cache, cookie jar or credential store: the client writes nothing outside
            // its application's own data.
            let sessionConfiguration = URLSessionConfiguration.ephemeral
            sessionConfiguration.urlCache = nil
            session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
        }

        deinit { shutdown() }

        /// Opens a WebSocket to `url` and waits for the handshake.
        /// - Throws: `WebSocketError` `invalidURL`, `connectFailed`, `timedOut`, `closed` after
        ///   `shutdown()`; `CancellationError` when the task is cancelled.
        public func connect(
            to url: String, headers: [(String, String)] = [], configuration: WebSocketConfiguration = .init()
        ) async throws -> WebSocket {
            _ = try WebSocketEndpoint(parsing: url)
            let handshake = try WebSocketHandshakeHeaders(headers)
            guard let target = URL(string: url) else { throw WebSocketError(.invalidURL, "\"\(url)\" is not a URL") }
            var request = URLRequest(url: target)
            request.timeoutInterval = Double(max(1, configuration.connectTimeoutMilliseconds)) / 1000
            if let origin = handshake.origin { request.setValue(origin, forHTTPHeaderField: "Origin") }
            if let host = handshake.host { request.setValue(host, forHTTPHeaderField: "Host") }
            for (name, value) in handshake.extra { request.addValue(value, forHTTPHeaderField: name) }
            let task = session.webSocketTask(with: request)
            task.maximumMessageSize = max(1, configuration.maximumMessageBytes)
            let connection = URLSessionWebSocketConnection(task: task, configuration: configuration)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    guard delegate.add(connection, waiting: continuation) else {
                        continuation.resume(
                            throwing: WebSocketError(.closed, "the WebSocket client has been shut down"))
                        return
                    }
                    task.resume()
                    connection.startTimers(hub: delegate)
                }
            } onCancel: {
                delegate.fail(task, CancellationError())
            }
        }

        /// Opens a WebSocket to `url`; see `connect(to:headers:configuration:)`.
        public func connect(
            to url: URL, headers: [(String, String)] = [], configuration: WebSocketConfiguration = .init()
        ) async throws -> WebSocket {
            try await connect(to: url.absoluteString, headers: headers, configuration: configuration)
        }

        /// Closes every socket with 1001 and invalidates the session; connects under way fail.
        public func shutdown() {
            delegate.closeAll()
            session.finishTasksAndInvalidate()
        }
    }

    /// The session's delegate: finds a task's connection, and tells it about opens and closes.
    package final class URLSessionWebSocketDelegateHub: NSObject, URLSessionWebSocketDelegate, Sendable {
        private struct State {
            var connections: [Int: URLSessionWebSocketConnection] = [:]
            var waiting: [Int: CheckedContinuation<WebSocket, any Error>] = [:]
            var stopped = false
        }
        private let state = Mutex(State())

        func add(_ connection: URLSessionWebSocketConnection, waiting: CheckedContinuation<WebSocket, any Error>)
            -> Bool
        {
            state.withLock { state in
                guard !state.stopped else { return false }
                state.connections[connection.task.taskIdentifier] = connection
                state.waiting[connection.task.taskIdentifier] = waiting
                return true
            }
        }

        /// Answers a caller still waiting for the handshake with `error`, and drops the task.
        func fail(_ task: URLSessionTask, _ error: any Error) {
            let waiting = state.withLock { $0.waiting.removeValue(forKey: task.taskIdentifier) }
            guard let waiting else { return }
            task.cancel()
            waiting.resume(throwing: error)
        }

        func closeAll() {
            let (connections, waiting) = state.withLock { state in
                state.stopped = true
                defer { state.waiting = [:] }
                return (Array(state.connections.values), state.waiting)
            }
            let error = WebSocketError(.closed, "the WebSocket client has been shut down")
            for (_, continuation) in waiting { continuation.resume(throwing: error) }
            for connection in connections { connection.channel.close(WebSocketClose(.goingAway)) }
        }

        func urlSession(
            _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
        ) {
            let (connection, waiting) = state.withLock { state in
                (
                    state.connections[webSocketTask.taskIdentifier],
                    state.waiting.removeValue(forKey: webSocketTask.taskIdentifier)
                )
            }
            guard let connection, let waiting else { return }
            connection.opened()
            waiting.resume(returning: WebSocket(channel: connection.channel))
        }

        func urlSession(
            _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
            didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
        ) {
            let connection = state.withLock { $0.connections[webSocketTask.taskIdentifier] }
            connection?.channel.peerClosed(
                WebSocketClose(
                    WebSocketCloseCode(rawValue: UInt16(clamping: closeCode.rawValue)),
                    reason: reason.map { String(decoding: $0, as: UTF8.self) } ?? ""))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let timedOut = (error as? URLError)?.code == .timedOut
            fail(
                task,
                WebSocketError(
                    timedOut ? .timedOut : .connectFailed,
                    "cannot open a WebSocket to \(task.originalRequest?.url?.absoluteString ?? "?"): "
                        + (error.map { "\($0)" } ?? "closed during the handshake")))
            let connection = state.withLock { $0.connections.removeValue(forKey: task.taskIdentifier) }
            connection?.ended()
        }
    }

    /// One `URLSessionWebSocketTask` and the channel it carries: a receive loop that pauses while
    /// the reader's buffer is full, a send loop that drains the outbound queue, and a 100 ms timer
    /// for the connect deadline, pings, the idle timeout and slow readers.
    package final class URLSessionWebSocketConnection: Sendable {
        private struct State {
            var pumping = false
            var readingPaused: CheckedContinuation<Void, Never>?
            var resumeWaiting = false
            var open = false
            var lastHeard = ContinuousClock.now
            var lastPing = ContinuousClock.now
            var timers: Task<Void, Never>?
        }

        let task: URLSessionWebSocketTask
        let configuration: WebSocketConfiguration
        private let state = Mutex(State())
        private let box = Mutex<WebSocketChannel?>(nil)

        init(task: URLSessionWebSocketTask, configuration: WebSocketConfiguration) {
            self.task = task
            self.configuration = configuration
            let channel = WebSocketChannel(
                configuration: configuration,
                transport: WebSocketChannelTransport(
                    wantsToWrite: { [weak self] in self?.pump() },
                    resumeReading: { [weak self] in self?.resumeReading() }),
                now: { DispatchTime.now().uptimeNanoseconds })
            box.withLock { $0 = channel }
        }

        var channel: WebSocketChannel { box.withLock { $0! } }

        func opened() {
            state.withLock {
                $0.open = true
                $0.lastHeard = .now
            }
            Task { await receiveLoop() }
        }

        func ended() {
            state.withLock { $0.timers?.cancel() }
            resumeReading()
            channel.ended()
        }

        func startTimers(hub: URLSessionWebSocketDelegateHub) {
            let deadline = ContinuousClock.now + .milliseconds(max(1, configuration.connectTimeoutMilliseconds))
            let timers = Task { [weak self, weak hub] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    guard let self else { return }
                    self.check(deadline: deadline, hub: hub)
                }
            }
            state.withLock { $0.timers = timers }
        }

        private func check(deadline: ContinuousClock.Instant, hub: URLSessionWebSocketDelegateHub?) {
            let now = ContinuousClock.now
            let (open, silent, sincePing) = state.withLock { ($0.open, now - $0.lastHeard, now - $0.lastPing) }
            guard open else {
                if now >= deadline { hub?.fail(task, WebSocketError(.timedOut, "no WebSocket handshake in time")) }
                return
            }
            if channel.checkSlowReader() { pump() }
            let idle = Duration.milliseconds(configuration.idleTimeoutMilliseconds)
            let ping = Duration.milliseconds(configuration.pingIntervalMilliseconds)
            if configuration.idleTimeoutMilliseconds > 0, silent >= idle {
                let close = WebSocketClose(.goingAway, reason: "idle timeout")
                channel.engineClosing(close)
                task.cancel(with: .goingAway, reason: Data(close.reason.utf8))
            } else if configuration.pingIntervalMilliseconds > 0, silent >= ping, sincePing >= ping {
                state.withLock { $0.lastPing = now }
                task.sendPing { [weak self] error in
                    if error == nil { self?.state.withLock { $0.lastHeard = .now } }
                }
            }
        }

        private func receiveLoop() async {
            while true {
                guard let message = try? await task.receive() else { return }
                state.withLock { $0.lastHeard = .now }
                let converted: WebSocketMessage
                switch message {
                case .string(let text): converted = .text(text)
                case .data(let data): converted = .binary(Array(data))
                @unknown default: continue
                }
                if !channel.received(converted) {
                    await withCheckedContinuation { continuation in
                        let resumeNow = state.withLock { state -> Bool in
                            if state.resumeWaiting {
                                state.resumeWaiting = false
                                return true
                            }
                            state.readingPaused = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                }
            }
        }

        private func resumeReading() {
            let paused = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let paused = state.readingPaused else {
                    state.resumeWaiting = true
                    return nil
                }
                state.readingPaused = nil
                return paused
            }
            paused?.resume()
        }

        /// Sends what the channel has queued, one message at a time, until it is empty.
        private func pump() {
            let start = state.withLock { state -> Bool in
                guard !state.pumping else { return false }
                state.pumping = true
                return true
            }
            guard start else { return }
            Task {
                while true {
                    switch channel.nextOutgoing() {
                    case .message(.text(let text)):
                        try? await task.send(.string(text))
                    case .message(.binary(let bytes)):
                        try? await task.send(.data(Data(bytes)))
                    case .close(let close):
                        // URLSession takes only the codes it names; others go out as 1000.
                        let code =
                            URLSessionWebSocketTask.CloseCode(rawValue: Int(close.code.rawValue)) ?? .normalClosure
                        task.cancel(with: code, reason: Data(Array(close.payload.dropFirst(2))))
                    case nil:
                        // Checked under the lock that `pump` takes: a message queued after this
                        // check starts a new pump.
                        let more = state.withLock { state -> Bool in
                            if channel.hasOutgoing { return true }
                            state.pumping = false
                            return false
                        }
                        if !more { return }
                    }
                }
            }
        }
    }
#endif
