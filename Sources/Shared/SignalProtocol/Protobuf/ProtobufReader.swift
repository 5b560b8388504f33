/// A minimal protobuf decoder for the few message types Signal uses.
///
/// Hardened for hostile input: every read is bounds-checked against the input, varints are
/// limited to 10 bytes, length prefixes never allocate more than the bytes actually present,
/// and groups (deprecated wire types 3 and 4) are refused rather than parsed.
///
/// The input lives in zero-on-free storage (records it parses hold chain and private keys), and
/// secret fields are sliced from it without any intermediate array.
struct ProtobufReader {
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    private let bytes: SecretBytes
    private var index: Int
    private let end: Int

    init<Bytes: Collection>(_ input: Bytes) where Bytes.Element == UInt8 {
        self.init(secret: SecretBytes(input))
    }

    /// Reads a serialised secret record in place: the reader shares its zero-on-free buffer.
    init(secret: SecretBytes) {
        bytes = secret
        index = 0
        end = secret.count
    }

    var isAtEnd: Bool { index >= end }

    private static func malformed(_ what: String) -> SignalProtocolError {
        SignalProtocolError(.invalidProtobuf, what)
    }

    mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < end else { throw Self.malformed("truncated varint") }
            let byte = bytes.withUnsafeBytes { $0[index] }
            index += 1
            if shift == 63 && byte > 1 { throw Self.malformed("varint overflows 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw Self.malformed("varint longer than 10 bytes") }
        }
    }

    /// The next field number and wire type, or nil at the end of input.
    mutating func readTag() throws -> (field: UInt32, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let key = try readVarint()
        let field = key >> 3
        guard field > 0, field <= 0x1FFF_FFFF else { throw Self.malformed("invalid field number") }
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else { throw Self.malformed("unsupported wire type") }
        return (UInt32(field), wireType)
    }

    mutating func readLengthDelimited() throws -> [UInt8] {
        let range = try readLengthDelimitedRange()
        return bytes.withUnsafeBytes { Array($0[range]) }
    }

    mutating func readSecret() throws -> SecretBytes {
        bytes.slice(try readLengthDelimitedRange())
    }

    /// A varint field decoded as `uint32`; protobuf truncates larger values, and so do we.
    mutating func readUInt32() throws -> UInt32 {
        UInt32(truncatingIfNeeded: try readVarint())
    }

    mutating func skip(_ wireType: WireType) throws {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .lengthDelimited: _ = try readLengthDelimitedRange()
        }
    }

    /// Reads a field of the expected type or throws; unknown-type mismatches are malformed.
    mutating func expect(_ wireType: WireType, got actual: WireType) throws {
        guard wireType == actual else { throw Self.malformed("unexpected wire type") }
    }

    private mutating func readLengthDelimitedRange() throws -> Range<Int> {
        let length = try readVarint()
        guard length <= UInt64(end - index) else { throw Self.malformed("length prefix past end of input") }
        let start = index
        index += Int(length)
        return start..<index
    }

    private mutating func advance(_ count: Int) throws {
        guard end - index >= count else { throw Self.malformed("truncated fixed-width field") }
        index += count
    }
}
