#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Synchronization

/// A TCP proxy on 127.0.0.1 (ephemeral port) between a client and a real server, with faults a
/// test injects: `cut()` breaks every connection, `stall()` holds every byte while the sockets
/// stay open, `halfOpen()` makes the server vanish without a close, `delay` slows each chunk,
/// `refuse` closes new connections at once, `retarget(port:)` follows a restarted server.
/// Connections are pumped by threads of their own, never Swift's cooperative pool.
public final class FaultProxy: Sendable {
    private final class Pair: Sendable {
        let client: Int32
        let server: Int32
        let blackholed = Atomic<Bool>(false)
        let ended = Atomic<Bool>(false)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func end() {
            guard !ended.exchange(true, ordering: .relaxed) else { return }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }
    }

    private struct State {
        var targetPort: Int
        var pairs: [Pair] = []
        var stalled = false
        var refusing = false
        var delay: Duration = .zero
        var acceptTimes: [UInt64] = []
        var stopping = false
    }

    private let listener: Int32
    private let state: Mutex<State>
    /// The port clients connect to.
    public let port: Int

    /// Starts a proxy to `127.0.0.1:targetPort`.
    /// - Throws: `RawSocket.Failure` when the listening socket cannot be opened.
    public init(targetPort: Int) throws {
        let (fd, bound) = try boundLoopbackSocket(reuseAddress: true, listenBacklog: 1024)
        listener = fd
        port = bound
        state = Mutex(State(targetPort: targetPort))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Connections accepted so far (refused ones included).
    public var acceptedCount: Int { state.withLock { $0.acceptTimes.count } }

    /// The uptime (nanoseconds, `DispatchTime`) of each accepted connection, in order.
    public var acceptTimes: [UInt64] { state.withLock { $0.acceptTimes } }

    /// Connections open now.
    public var openCount: Int { state.withLock { $0.pairs.filter { !$0.ended.load(ordering: .relaxed) }.count } }

    /// Breaks every open connection (both sides see it end).
    public func cut() {
        for pair in state.withLock({ $0.pairs }) { pair.end() }
    }

    /// Holds every byte in both directions (`true`) or lets them flow again (`false`).
    public func stall(_ on: Bool = true) { state.withLock { $0.stalled = on } }

    /// The server vanishes from every open connection without a close: its side is dropped, the
    /// client's stays open and what it sends is swallowed (half-open TCP, as after a NAT timeout).
    public func halfOpen() {
        for pair in state.withLock({ $0.pairs }) {
            pair.blackholed.store(true, ordering: .relaxed)
            shutdown(pair.server, Int32(SHUT_RDWR))
        }
    }

    /// New connections are closed at once (`true`), as by a server that is down.
    public func refuse(_ on: Bool = true) { state.withLock { $0.refusing = on } }

    /// Every chunk waits `delay` before it is passed on.
    public func setDelay(_ delay: Duration) { state.withLock { $0.delay = delay } }

    /// New connections go to `port` (a restarted server).
    public func retarget(port: Int) { state.withLock { $0.targetPort = port } }

    /// Stops accepting and breaks every connection.
    public func stop() {
        let pairs = state.withLock { state in
            state.stopping = true
            return state.pairs
        }
        for pair in pairs { pair.end() }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { close(listener) }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            let (stopping, refusing, target) = state.withLock { state in
                if client >= 0 { state.acceptTimes.append(DispatchTime.now().uptimeNanoseconds) }
                return (state.stopping, state.refusing, state.targetPort)
            }
            if stopping {
                if client >= 0 { close(client) }
                return
            }
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            guard !refusing, let server = Self.connectTo(port: target) else {
                close(client)
                continue
            }
            let pair = Pair(client: client, server: server)
            state.withLock { state in
                state.pairs.removeAll { $0.ended.load(ordering: .relaxed) }
                state.pairs.append(pair)
            }
            let finished = Atomic<Int>(0)
            for (from, to) in [(client, server), (server, client)] {
                Thread.detachNewThread { [self] in
                    pump(pair, from: from, to: to)
                    if finished.add(1, ordering: .relaxed).newValue == 2 {
                        close(pair.client)
                        close(pair.server)
                    }
                }
            }
        }
    }

    private static func connectTo(port: Int) -> Int32? {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var address = loopback(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Copies `from` to `to` until either ends, applying the faults.
    private func pump(_ pair: Pair, from: Int32, to: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !pair.ended.load(ordering: .relaxed) {
            let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                // A half-open pair keeps the client's side open after the server's went away.
                if pair.blackholed.load(ordering: .relaxed), from == pair.server { return }
                pair.end()
                return
            }
            if pair.blackholed.load(ordering: .relaxed) { continue }
            while state.withLock({ $0.stalled }) && !pair.ended.load(ordering: .relaxed) { usleep(2_000) }
            let delay = state.withLock { $0.delay }
            if delay > .zero { usleep(UInt32(clamping: delay.wholeNanoseconds / 1_000)) }
            var offset = 0
            while offset < count {
                let sent = buffer.withUnsafeBytes {
                    send(to, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 {
                    pair.end()
                    return
                }
                offset += sent
            }
        }
    }
}
