#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain TCP connection to a loopback port, for tests that must control the bytes on the wire
/// (a slow client, a half-sent request, a body larger than it claims).
public final class RawSocket: @unchecked Sendable {
    // @unchecked: the only state is a descriptor fixed at init; the kernel serialises concurrent
    // send and recv calls on one socket, so one thread may write while another reads.
    private let descriptor: Int32

    /// Why a socket call failed.
    public struct Failure: Error, CustomStringConvertible {
        /// `errno` text.
        public let description: String

        /// Creates a failure.
        public init(description: String) { self.description = description }
    }

    /// Connects to `127.0.0.1:port`, with `timeoutSeconds` on every read; `receiveBufferBytes`
    /// fixes the kernel's receive buffer (no autotuning), for a client that stops reading.
    /// - Throws: `RawSocket.Failure`.
    public init(port: Int, timeoutSeconds: Int = 10, receiveBufferBytes: Int? = nil) throws {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: String(cString: strerror(errno))) }
        if let receiveBufferBytes {
            var size = Int32(receiveBufferBytes)
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: message)
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Sends all of `bytes`.
    /// - Throws: `RawSocket.Failure`.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { sendBytes(descriptor, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: String(cString: strerror(errno))) }
            offset += n
        }
    }

    /// Sends UTF-8 text.
    /// - Throws: `RawSocket.Failure`.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads until the peer closes the connection (or the read timeout passes).
    /// - Returns: everything read; `timedOut` is true when the timeout ended the read.
    public func readUntilClosed() -> (bytes: [UInt8], timedOut: Bool) {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                out.append(contentsOf: buffer[0..<n])
            } else if n == 0 {
                return (out, false)
            } else {
                return (out, errno == EAGAIN || errno == EWOULDBLOCK)
            }
        }
    }

    /// Reads what has arrived, at most `maximum` bytes, waiting up to the read timeout.
    /// - Returns: the bytes, or `nil` when the peer closed the connection or the timeout passed.
    public func read(maximum: Int = 65536) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return n > 0 ? Array(buffer[0..<n]) : nil
    }

    /// Reads one HTTP response whose body length is given by `Content-Length`.
    /// - Returns: the status and body, or `nil` if the connection closed first.
    public func readResponse() -> (status: Int, head: String, body: [UInt8])? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = Self.headerEnd(data) {
                let head = String(decoding: data[..<end], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: " ")) } ?? 0
                if data.count >= end + 4 + length {
                    let status = Int(head.split(separator: " ")[1]) ?? 0
                    return (status, head, Array(data[(end + 4)..<(end + 4 + length)]))
                }
            }
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    /// Where the head ends in `data` (the index of its blank line's CR LF CR LF), if it has.
    static func headerEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for i in 0...(data.count - 4) where data[i] == 13 && data[i + 1] == 10 && data[i + 2] == 13 && data[i + 3] == 10
        {
            return i
        }
        return nil
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}

private func sendBytes(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        return Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
        return Darwin.send(fd, pointer, count, 0)
    #endif
}
