/// A minimal protobuf encoder, emitting fields in the order the caller writes them.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func writeTag(_ field: UInt32, _ wireType: ProtobufReader.WireType) {
        writeVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    mutating func writeUInt32(_ field: UInt32, _ value: UInt32) {
        writeTag(field, .varint)
        writeVarint(UInt64(value))
    }

    mutating func writeUInt64(_ field: UInt32, _ value: UInt64) {
        writeTag(field, .varint)
        writeVarint(value)
    }

    mutating func writeBytes<Bytes: Collection>(_ field: UInt32, _ value: Bytes) where Bytes.Element == UInt8 {
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func writeSecret(_ field: UInt32, _ value: SecretBytes) {
        value.withUnsafeBytes { writeBytes(field, $0) }
    }

    mutating func writeMessage(_ field: UInt32, _ build: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        build(&nested)
        writeBytes(field, nested.bytes)
        nested.bytes.withUnsafeMutableBytes { Sodium.zero($0) }
    }

    /// Moves the output into zero-on-free storage and wipes the working buffer.
    mutating func takeSecret() -> SecretBytes {
        let secret = SecretBytes(bytes)
        bytes.withUnsafeMutableBytes { Sodium.zero($0) }
        bytes = []
        return secret
    }
}
