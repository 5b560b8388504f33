/// Decodes a `Transfer-Encoding: chunked` request body as it arrives in pieces: lws 4.1 hands
/// the server the chunk framing as it came.
struct ChunkedBodyDecoder {
    /// What the bytes so far amount to.
    enum Progress: Equatable {
        /// More bytes are needed.
        case needMore
        /// The last chunk and the trailers have arrived.
        case complete
        /// The framing is broken; the rest cannot be trusted.
        case malformed
    }

    private enum State {
        case size(digits: Int, value: Int, inExtension: Bool, sawCR: Bool)
        case data(remaining: Int)
        case dataCR
        case dataLF
        case trailerLineStart
        case trailerLine(sawCR: Bool)
        case trailerEndLF
        case done
        case broken
    }

    private var state = State.size(digits: 0, value: 0, inExtension: false, sawCR: false)

    /// The decoded body so far.
    private(set) var body: [UInt8] = []

    /// Hands over what is decoded so far and forgets it (a streamed body).
    mutating func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    /// Feeds the next piece of the wire.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Progress {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .size(let digits, let value, let inExtension, let sawCR):
                if sawCR {
                    guard byte == 0x0A, digits > 0 else { return fail() }
                    state = value == 0 ? .trailerLineStart : .data(remaining: value)
                } else if byte == 0x0D {
                    state = .size(digits: digits, value: value, inExtension: inExtension, sawCR: true)
                } else if inExtension {
                    break
                } else if byte == UInt8(ascii: ";") {
                    state = .size(digits: digits, value: value, inExtension: true, sawCR: false)
                } else if let digit = Self.hexValue(byte), digits < 8 {
                    state = .size(digits: digits + 1, value: value * 16 + digit, inExtension: false, sawCR: false)
                } else {
                    return fail()
                }
            case .data(let remaining):
                let take = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                state = remaining == take ? .dataCR : .data(remaining: remaining - take)
                continue
            case .dataCR:
                guard byte == 0x0D else { return fail() }
                state = .dataLF
            case .dataLF:
                guard byte == 0x0A else { return fail() }
                state = .size(digits: 0, value: 0, inExtension: false, sawCR: false)
            case .trailerLineStart:
                state = byte == 0x0D ? .trailerEndLF : .trailerLine(sawCR: false)
            case .trailerLine(let sawCR):
                if sawCR {
                    guard byte == 0x0A else { return fail() }
                    state = .trailerLineStart
                } else if byte == 0x0D {
                    state = .trailerLine(sawCR: true)
                }
            case .trailerEndLF:
                guard byte == 0x0A else { return fail() }
                state = .done
                return .complete
            case .done:
                return .complete
            case .broken:
                return .malformed
            }
            index += 1
        }
        switch state {
        case .done: return .complete
        case .broken: return .malformed
        default: return .needMore
        }
    }

    private mutating func fail() -> Progress {
        state = .broken
        return .malformed
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}
