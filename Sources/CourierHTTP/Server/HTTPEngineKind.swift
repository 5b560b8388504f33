/// Which HTTP engine an `HTTPServer` runs on.
///
/// ```swift
/// var configuration = HTTPServerConfiguration()
/// configuration.engine = .libWebSockets
/// let server = HTTPServer(configuration: configuration, router: router)
/// ```
public enum HTTPEngineKind: String, Sendable, CaseIterable {
    /// civetweb: one worker thread per connection for the connection's whole life; no TLS or
    /// WebSocket routes. Kept while the collector's deployments move.
    case civetweb
    /// libwebsockets on one libev event loop (the default): a slow or idle connection costs a
    /// socket, not a thread; TLS and WebSocket routes. Handlers run as tasks on Swift's shared
    /// pool, off the loop (docs/http-engine.md).
    case libWebSockets

    /// Starts this engine in front of `responder`.
    func start(configuration: HTTPServerConfiguration, responder: Responder) throws -> any HTTPEngine {
        if self == .civetweb, configuration.tls != nil || responder.router.hasWebSocketRoutes {
            throw HTTPServerError("TLS and WebSocket routes need the libwebsockets engine")
        }
        return switch self {
        case .civetweb: try CivetWebEngine(configuration: configuration, responder: responder)
        case .libWebSockets:
            configuration.serviceThreads > 1
                ? try LibWebSocketsEngineGroup(configuration: configuration, responder: responder)
                : try LibWebSocketsEngine(configuration: configuration, responder: responder)
        }
    }
}

/// A running engine, as `HTTPServer` sees it.
protocol HTTPEngine: Sendable {
    /// The port it listens on.
    var port: Int { get }
    /// Answers what is in flight (new requests get 503), then stops listening.
    /// - Returns: requests still unanswered when `deadline` passed.
    func stop(deadline: Duration) -> Int
}

extension CivetWebEngine: HTTPEngine {}
