#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback port where nothing listens and that no other socket can take while this is held:
/// a socket bound to it that never listens, so a connection to it is refused.
///
/// Stopping a listener to get a port "that is down" leaves the port free, and a server another
/// test starts at that moment may be given it: the connection meant to be refused then reached
/// that test's server, and both tests failed.
public final class ClosedPort: @unchecked Sendable {
    // @unchecked: the only state is a descriptor fixed at init and closed at deinit.
    private let descriptor: Int32

    /// The port; connections to `127.0.0.1:port` are refused.
    public let port: Int

    /// `http://127.0.0.1:port`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Binds a socket to a free loopback port.
    /// - Throws: `RawSocket.Failure`.
    public init() throws {
        let (fd, bound) = try boundLoopbackSocket(reuseAddress: false, listenBacklog: nil)
        descriptor = fd
        port = bound
    }

    deinit { close(descriptor) }
}
