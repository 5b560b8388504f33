/// One message's fields, read in a single pass against the field numbers and wire types the
/// message declares: a declared field of another wire type is malformed, an undeclared field is
/// skipped, and a field given twice keeps its last value, as protobuf specifies.
///
/// Length-delimited values stay in zero-on-free storage until asked for, so a field that holds a
/// secret (a distributed chain key) never passes through an ordinary array.
struct ProtobufFields {
    /// The field numbers a message reads, with the wire type each must have.
    typealias Schema = [UInt32: ProtobufReader.WireType]

    private var varints: [UInt32: UInt64] = [:]
    private var lengthDelimited: [UInt32: SecretBytes] = [:]

    /// Reads every field of `input`.
    /// - Throws: `.invalidProtobuf` for malformed input or a declared field of another wire type.
    init<Bytes: Collection>(_ input: Bytes, schema: Schema) throws where Bytes.Element == UInt8 {
        var reader = ProtobufReader(input)
        while let (field, wireType) = try reader.readTag() {
            guard let declared = schema[field] else {
                try reader.skip(wireType)
                continue
            }
            try reader.expect(declared, got: wireType)
            switch wireType {
            case .varint: varints[field] = try reader.readVarint()
            case .lengthDelimited: lengthDelimited[field] = try reader.readSecret()
            case .fixed32, .fixed64: try reader.skip(wireType)
            }
        }
    }

    /// A varint field as `uint32` (truncated, as protobuf does), if present.
    func uint32(_ field: UInt32) -> UInt32? {
        varints[field].map { UInt32(truncatingIfNeeded: $0) }
    }

    /// A length-delimited field's bytes, if present (for values that are not secret).
    func bytes(_ field: UInt32) -> [UInt8]? {
        lengthDelimited[field]?.withUnsafeBytes { Array($0) }
    }

    /// A length-delimited field kept in zero-on-free storage, if present.
    func secret(_ field: UInt32) -> SecretBytes? {
        lengthDelimited[field]
    }
}
