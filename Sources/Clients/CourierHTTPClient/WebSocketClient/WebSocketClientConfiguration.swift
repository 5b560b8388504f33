/// Settings of a `WebSocketClient`, shared by every connection it opens (each connection's own
/// limits and timers are its `WebSocketConfiguration`).
public struct WebSocketClientConfiguration: Sendable {
    /// A PEM file of certificate authorities to trust for `wss://` besides the system's store
    /// (a test server's self-signed CA, a company CA). The server's certificate must still name
    /// the host connected to. Linux only: on Apple platforms the system's trust settings apply.
    public var additionalTrustedCertificatesPath: String?
    /// How long `shutdown()` waits for open sockets to finish their close handshake (1001)
    /// before it drops them.
    public var shutdownGraceMilliseconds: Int = 1_000

    /// The system's CAs only, a one-second shutdown grace.
    public init() {}
}
