import Foundation

/// A loopback TCP port nothing is bound to now, for a server the tests start on a fixed port
/// (nats-server, haproxy, `courier-server` instances they kill and start again on the same port).
///
/// The port comes from below the kernel's ephemeral range (`ip_local_port_range`), never from
/// it: every socket the tests connect with, and every server they start on port 0, takes its
/// port from that range, so one of them could take a port handed out here between the check and
/// the server's `bind` (haproxy then exits or another test's server answers on its port). Below
/// the range only this function hands out ports, and it never hands out the same one twice in a
/// process.
/// - Throws: `POSIXError(.EADDRINUSE)` when no port is free.
public func freeLoopbackPort() throws -> Int {
    try LoopbackPorts.shared.take()
}

/// The ports `freeLoopbackPort()` handed out, and where it draws them from.
final class LoopbackPorts: @unchecked Sendable {
    static let shared = LoopbackPorts()

    /// The ports below the ephemeral range that it draws from.
    let range: ClosedRange<Int>
    // Guarded by `lock`.
    private let lock = NSLock()
    private var handedOut: Set<Int> = []

    private init() {
        // Linux's default ephemeral range is 32768–60999: 10000–32767 lies below it.
        let lowest = Self.ephemeralRange()?.lowerBound ?? 32_768
        range = lowest > 12_000 ? 10_000...(lowest - 1) : 61_000...65_535
    }

    /// A port in `range` that nothing is bound to and that was never handed out before.
    func take() throws -> Int {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let port = Int.random(in: range, using: &generator)
            let fresh = lock.withLock { handedOut.insert(port).inserted }
            if fresh && Self.isFree(port) { return port }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// The kernel's ephemeral port range, when it can be read.
    static func ephemeralRange() -> ClosedRange<Int>? {
        guard
            let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        else { return nil }
        let bounds = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return bounds[0]...bounds[1]
    }

    /// Whether a socket can bind `port` on 127.0.0.1 (without `SO_REUSEADDR`, so a port in
    /// `TIME_WAIT` counts as taken).
    static func isFree(_ port: Int) -> Bool {
        withLoopbackSocket(port: port) { fd, address, length in bind(fd, address, length) == 0 }
    }
}

/// A new TCP socket bound to a port the kernel picks on 127.0.0.1, listening with `backlog`
/// when one is given, and that port.
/// - Throws: `RawSocket.Failure` with `errno`'s text.
func boundLoopbackSocket(reuseAddress: Bool, listenBacklog backlog: Int32?) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw RawSocket.Failure(description: String(cString: strerror(errno))) }
    if reuseAddress {
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true)
                && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else {
        let message = String(cString: strerror(errno))
        close(fd)
        throw RawSocket.Failure(description: message)
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// Runs `body` with a new TCP socket and the address of `port` on 127.0.0.1 (closing the socket
/// after); `false` when no socket can be made.
package func withLoopbackSocket(
    port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool
) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            body(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
}
