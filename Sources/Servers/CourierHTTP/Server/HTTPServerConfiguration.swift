import Foundation

/// How an `HTTPServer` listens and what it accepts.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind (`127.0.0.1` by default; `0.0.0.0` for every interface).
    public var host: String = "127.0.0.1"
    /// The port; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: Int = 8080
    /// Event loops of the engine, each a thread with its own listening socket on
    /// the same port (`SO_REUSEPORT`): the kernel spreads new connections across them, and each
    /// holds its share of `maximumConnections`. 1 by default; up to the number of cores helps
    /// when the loops, not the handlers, are busy.
    public var serviceThreads: Int = 1
    /// Threads the engine runs handlers on, as tasks (a handler that awaits holds
    /// none): its own, so the host's work on Swift's shared pool never holds requests up, and a
    /// handler that blocks holds only one of these. Twice the cores, at least 4, by default.
    public var handlerThreads: Int = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    /// Largest request body accepted on the wire; larger gets 413 without being read.
    public var maximumBodyBytes: Int = 1 << 20
    /// Largest body after gzip decompression; larger gets 413.
    public var maximumDecompressedBodyBytes: Int = 1 << 20
    /// How long a client may take to send its headers and body (slow clients are cut off).
    public var requestTimeoutMilliseconds: Int = 10_000
    /// How long the engine waits for each next piece of a request body, within
    /// `requestTimeoutMilliseconds` for the whole; `nil` (the default) sets only the whole
    /// body's deadline. A late piece is answered 408 (or, on a streamed body, thrown from the
    /// read).
    public var bodyReadTimeoutMilliseconds: Int?
    /// How long an idle keep-alive connection is kept open.
    public var keepAliveTimeoutMilliseconds: Int = 5_000
    /// Connections the engine holds open at once (10,000 by default, half the
    /// process file limit of about 20,000 here); one more is closed as soon as it is accepted,
    /// before anything is read from it, and answered nothing.
    public var maximumConnections: Int = 10_000
    /// Largest request head the engine reads (8 KiB by default, 1,024 to 65,535):
    /// the method, path and query plus the header values it stores. lws 4.1 closes the connection
    /// on a larger head without answering (no 431).
    public var maximumHeaderBytes: Int = 8192
    /// Header names the application reads that are not standard HTTP ones (`X-Client`): the
    /// libwebsockets engine shows a handler only the headers it knows, a short list of common
    /// extensions (`X-Request-Id`, `Traceparent`…) and these.
    public var extraHeaderNames: [String] = []
    /// TLS (HTTPS and `wss://`) on the engine; `nil` (the default) serves plain
    /// HTTP.
    public var tls: HTTPServerTLS?
    /// Proxies in front of the server (haproxy): from their connections, `HTTPRequest.remoteAddress`
    /// is the client's address as `X-Forwarded-For` gives it (the right-most one that is not a
    /// trusted proxy). Empty (the default) trusts no one: the header is ignored, so a client
    /// cannot choose the address its rate limits count against.
    public var trustedProxies: [IPNetwork] = []
    /// Receives one access-log line per request; `nil` logs nothing.
    public var accessLog: (@Sendable (String) -> Void)?

    /// The defaults: 127.0.0.1:8080, one event loop, 1 MiB bodies.
    public init() {}
}

/// The files a TLS server needs, in PEM: read once when the server starts.
public struct HTTPServerTLS: Sendable {
    /// The server's certificate, followed by any intermediate certificates.
    public var certificateChainPath: String
    /// The certificate's private key (unencrypted).
    public var privateKeyPath: String

    /// TLS from a certificate chain and its key.
    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }
}
