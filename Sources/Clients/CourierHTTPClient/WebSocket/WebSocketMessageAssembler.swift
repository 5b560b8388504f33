/// Puts a message back together from the pieces an engine reads (fragments, and parts of a
/// frame larger than the engine's read buffer), within a size limit, checking text is UTF-8.
package struct WebSocketMessageAssembler {
    /// What a piece completed.
    package enum Outcome: Equatable {
        /// More pieces are to come.
        case partial
        /// A whole message.
        case message(WebSocketMessage)
        /// The message is over the limit: close with 1009.
        case tooBig
        /// A text message that is not UTF-8: close with 1007.
        case invalidText
    }

    package let limit: Int
    private var bytes: [UInt8] = []
    private var binary = false
    private var inMessage = false

    /// An assembler for messages of at most `limit` bytes.
    package init(limit: Int) { self.limit = max(0, limit) }

    /// Adds a piece of the current message.
    /// - Parameters:
    ///   - piece: the bytes (copied; the engine's buffer may go after the call).
    ///   - binary: whether the message is binary (read from its first frame).
    ///   - final: whether this piece ends the message.
    package mutating func append(_ piece: UnsafeRawBufferPointer, binary: Bool, final: Bool) -> Outcome {
        if !inMessage {
            inMessage = true
            self.binary = binary
        }
        guard bytes.count + piece.count <= limit else {
            reset()
            return .tooBig
        }
        bytes.append(contentsOf: piece)
        guard final else { return .partial }
        defer { reset() }
        if self.binary { return .message(.binary(bytes)) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .invalidText }
        return .message(.text(text))
    }

    private mutating func reset() {
        inMessage = false
        bytes = []
    }
}
