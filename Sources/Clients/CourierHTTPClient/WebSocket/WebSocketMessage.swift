/// One WebSocket message, whole: the engines reassemble fragmented messages before handing them
/// on, and send each message as one frame.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (UTF-8 on the wire).
    case text(String)
    /// A binary message.
    case binary([UInt8])

    /// The payload's size on the wire.
    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let bytes): bytes.count
        }
    }
}
