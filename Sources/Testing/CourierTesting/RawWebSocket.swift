import Foundation

/// A WebSocket client that writes and reads frames byte by byte, for tests that need what a
/// well-behaved client never does: a fragmented or oversized message, pings left unanswered, a
/// peer that stops reading. Blocking: use it off Swift's shared threads (`runOffPool`).
public final class RawWebSocket: @unchecked Sendable {
    // @unchecked: used by one thread at a time (the test's), like `RawSocket`.

    /// A frame as it came off the wire.
    public struct Frame: Sendable, Equatable {
        /// The opcode: 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong.
        public let opcode: UInt8
        /// The FIN bit.
        public let fin: Bool
        /// The payload.
        public let payload: [UInt8]

        /// A frame as a test expects it.
        public init(opcode: UInt8, fin: Bool = true, payload: [UInt8]) {
            self.opcode = opcode
            self.fin = fin
            self.payload = payload
        }

        /// For a close frame: its code (1005 when it carries none).
        public var closeCode: UInt16 {
            payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
        }
        /// For a close frame: its reason.
        public var closeReason: String { String(decoding: payload.dropFirst(2), as: UTF8.self) }
    }

    /// The connection.
    public let socket: RawSocket
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port` and upgrades `path`.
    /// - Parameters:
    ///   - headers: extra request headers.
    ///   - compression: offer `permessage-deflate` (this client cannot inflate: only for checking
    ///     what the server answers).
    /// - Throws: `RawSocket.Failure` when the server does not answer 101.
    public init(
        port: Int, path: String, headers: [(String, String)] = [], timeoutSeconds: Int = 10
    ) throws {
        socket = try RawSocket(port: port, timeoutSeconds: timeoutSeconds)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
        request += "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        request += "Sec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try socket.send(request + "\r\n")
        while true {
            if let end = RawSocket.headerEnd(buffer) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                guard head.hasPrefix("HTTP/1.1 101") else {
                    throw RawSocket.Failure(description: "no upgrade: \(head.split(separator: "\r\n").first ?? "")")
                }
                responseHead = head
                return
            }
            guard let bytes = socket.read() else { throw RawSocket.Failure(description: "closed during handshake") }
            buffer += bytes
        }
    }

    /// The server's 101 response head.
    public private(set) var responseHead = ""

    /// Sends one masked frame.
    /// - Throws: `RawSocket.Failure`.
    public func send(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        try socket.send(frame)
    }

    /// Sends a text message in one frame.
    /// - Throws: `RawSocket.Failure`.
    public func send(text: String) throws { try send(opcode: 1, Array(text.utf8)) }

    /// Reads the next frame, or `nil` when the connection closed (or the read timed out).
    public func readFrame() -> Frame? {
        while true {
            if let (frame, used) = Self.parse(buffer) {
                buffer.removeFirst(used)
                return frame
            }
            guard let bytes = socket.read() else { return nil }
            buffer += bytes
        }
    }

    /// Reads frames until one that is not a ping (pings are answered when `answerPings`).
    public func readNonPing(answerPings: Bool = true) -> Frame? {
        while let frame = readFrame() {
            guard frame.opcode == 9 else { return frame }
            if answerPings { try? send(opcode: 10, frame.payload) }
        }
        return nil
    }

    private static func parse(_ data: [UInt8]) -> (Frame, Int)? {
        guard data.count >= 2 else { return nil }
        var length = Int(data[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard data.count >= 4 else { return nil }
            length = Int(data[2]) << 8 | Int(data[3])
            offset = 4
        } else if length == 127 {
            guard data.count >= 10 else { return nil }
            length = data[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard data.count >= offset + length else { return nil }
        let frame = Frame(
            opcode: data[0] & 0x0F, fin: data[0] & 0x80 != 0, payload: Array(data[offset..<(offset + length)]))
        return (frame, offset + length)
    }
}
