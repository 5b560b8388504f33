/// A close code (RFC 6455 §7.4): the standard ones as constants; 4000–4999 are private use.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The two-byte code.
    public let rawValue: UInt16

    /// A code from its number.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the server is stopping, or the client is leaving (also an idle connection cut off).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the peer broke the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: a kind of message the endpoint does not take.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: the peer's close frame carried no code (never sent; reported only).
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection ended without a close frame (never sent; reported only).
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message that is not UTF-8.
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// 1008: the peer broke a rule of the endpoint (a slow reader is closed with it).
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message over the endpoint's size limit.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1011: the endpoint failed (a server handler threw).
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// 1013: try again later (overload).
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)

    /// 4000 + status: an upgrade the server's middleware or `shouldUpgrade` refused after the
    /// handshake (`4401` unauthorized, `4429` rate limited). libwebsockets 4.1 must accept or
    /// refuse an upgrade inside its callback, before asynchronous checks can run.
    public static func refused(_ status: HTTPStatus) -> WebSocketCloseCode {
        WebSocketCloseCode(rawValue: UInt16(4000 + min(max(status.code, 0), 999)))
    }

    /// The HTTP status a `refused(_:)` code stands for, or `nil` for other codes.
    public var refusedStatus: HTTPStatus? {
        (4100..<5000).contains(rawValue) ? HTTPStatus(code: Int(rawValue) - 4000) : nil
    }

    /// The number.
    public var description: String { String(rawValue) }
}

/// How a WebSocket ended: its close code and reason.
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public var code: WebSocketCloseCode
    /// The reason (at most 123 bytes of UTF-8 on the wire).
    public var reason: String

    /// A close with `code` and `reason`.
    public init(_ code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// The close a server sends every socket when it stops: 1001 "server stopping".
    public static let serverStopping = WebSocketClose(.goingAway, reason: "server stopping")

    /// "1001 going away".
    public var description: String { reason.isEmpty ? code.description : "\(code) \(reason)" }

    /// The close frame's payload: the code, then the reason cut to what a control frame holds.
    package var payload: [UInt8] {
        var bytes = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        // Whole characters only, up to the 123 bytes a control frame leaves for the reason.
        var reasonBytes: [UInt8] = []
        for scalar in reason.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if reasonBytes.count + encoded.count > 123 { break }
            reasonBytes += encoded
        }
        bytes += reasonBytes
        return bytes
    }

    /// Reads a close frame's payload; an empty one means 1005.
    package init(payload: UnsafeRawBufferPointer) {
        guard payload.count >= 2 else {
            self.init(.noStatusReceived)
            return
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        self.init(
            WebSocketCloseCode(rawValue: code),
            reason: String(decoding: UnsafeRawBufferPointer(rebasing: payload[2...]), as: UTF8.self))
    }
}
