import Foundation

/// Finds the sockets of civetweb's connections (civetweb does not hand out its descriptors) by
/// their addresses, so the server can end a read that civetweb would keep waiting in.
enum ConnectionSockets {
    /// Shuts the reading side of the one connection to `serverPort` from this peer.
    static func shutDownReading(_ connection: BodyReadWatchdog.Connection) {
        forEachConnection(toPort: connection.serverPort) { fd, peer in
            guard peer.port == connection.remotePort, peer.address == connection.remoteAddress else { return false }
            shutdown(fd, Int32(SHUT_RD))
            return true
        }
    }

    /// Calls `body` with each connected socket whose local port is `port`, until it returns `true`.
    private static func forEachConnection(toPort port: Int, _ body: (Int32, (address: String, port: Int)) -> Bool) {
        let limit = min(Int(sysconf(Int32(_SC_OPEN_MAX))), 65_536)
        for fd in 0..<Int32(max(limit, 0)) {
            guard let local = endpoint(fd, peer: false), local.port == port,
                let peer = endpoint(fd, peer: true)
            else { continue }
            if body(fd, peer) { return }
        }
    }

    private static func endpoint(_ fd: Int32, peer: Bool) -> (address: String, port: Int)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        guard rc == 0 else { return nil }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let flags = NI_NUMERICHOST | NI_NUMERICSERV
        let ok = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count), flags)
            }
        }
        guard ok == 0 else { return nil }
        let address = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let portText = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (address, Int(portText) ?? 0)
    }
}
