/// A running engine, as `HTTPServer` sees it: libwebsockets on one libev event loop, or a group
/// of such loops sharing a port (`serviceThreads` > 1). A slow or idle connection costs a socket,
/// not a thread; handlers run as tasks off the loop (docs/http-engine.md).
protocol HTTPEngine: Sendable {
    /// The port it listens on.
    var port: Int { get }
    /// Answers what is in flight (new requests get 503), then stops listening.
    /// - Returns: requests still unanswered when `deadline` passed.
    func stop(deadline: Duration) -> Int
    /// Does what `stop(deadline:)` does, suspending instead of blocking a thread.
    /// - Returns: requests still unanswered when `deadline` passed.
    func shutdown(deadline: Duration) async -> Int
}

/// Starts the engine that `configuration` asks for in front of `responder`.
func startEngine(configuration: HTTPServerConfiguration, responder: Responder) throws -> any HTTPEngine {
    configuration.serviceThreads > 1
        ? try LibWebSocketsEngineGroup(configuration: configuration, responder: responder)
        : try LibWebSocketsEngine(configuration: configuration, responder: responder)
}
