import CourierTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The port the "server is down" tests use: refused, and held against every other socket. A
/// stopped listener's port was free for the next server any test started, and the connection
/// meant to be refused reached it. (Whether a released port can be taken again is not asserted:
/// that is the race itself.)
struct ClosedPortTests {
    /// Whether a listening socket can be opened on `127.0.0.1:port` now (closed at once).
    static func canListen(on port: Int) -> Bool {
        withLoopbackSocket(port: port) { fd, address, length in
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            return bind(fd, address, length) == 0 && listen(fd, 1) == 0
        }
    }

    @Test func aClosedPortRefusesConnectionsAndNoListenerCanTakeItWhileHeld() throws {
        let closed = try ClosedPort()
        #expect(throws: RawSocket.Failure.self) { try RawSocket(port: closed.port) }
        #expect(!Self.canListen(on: closed.port))
        withExtendedLifetime(closed) {}
    }
}
