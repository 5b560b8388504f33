/// One message's fields, read in a single pass against the field numbers and wire types the
/// message declares. An undeclared field is skipped; a declared field of another wire type is
/// malformed on the wire and skipped in Courier's storage format (`skippingMismatches`). A field
/// given more than once keeps its last value, as protobuf specifies, and `secrets(_:)` reads a
/// repeated one.
///
/// Length-delimited values stay in zero-on-free storage until asked for, so a field that holds a
/// secret (a chain key) never passes through an ordinary array.
struct ProtobufFields {
    /// The field numbers a message reads, with the wire type each must have.
    typealias Schema = [UInt32: ProtobufReader.WireType]

    private var varints: [UInt32: UInt64] = [:]
    private var lengthDelimited: [UInt32: [SecretBytes]] = [:]

    /// Reads every field of `input`.
    /// - Throws: `.invalidProtobuf` for malformed input or, unless `skippingMismatches`, a declared
    ///   field of another wire type.
    init<Bytes: Collection>(_ input: Bytes, schema: Schema, skippingMismatches: Bool = false) throws
    where Bytes.Element == UInt8 {
        try self.init(secret: SecretBytes(input), schema: schema, skippingMismatches: skippingMismatches)
    }

    /// Reads every field of a serialised secret record in place.
    init(secret: SecretBytes, schema: Schema, skippingMismatches: Bool = false) throws {
        var reader = ProtobufReader(secret: secret)
        while let (field, wireType) = try reader.readTag() {
            guard let declared = schema[field], declared == wireType || !skippingMismatches else {
                try reader.skip(wireType)
                continue
            }
            try reader.expect(declared, got: wireType)
            switch wireType {
            case .varint: varints[field] = try reader.readVarint()
            case .lengthDelimited: lengthDelimited[field, default: []].append(try reader.readSecret())
            case .fixed32, .fixed64: try reader.skip(wireType)
            }
        }
    }

    /// A varint field as `uint32` (truncated, as protobuf does), if present.
    func uint32(_ field: UInt32) -> UInt32? {
        varints[field].map { UInt32(truncatingIfNeeded: $0) }
    }

    /// A varint field as `uint64`, if present.
    func uint64(_ field: UInt32) -> UInt64? {
        varints[field]
    }

    /// A length-delimited field's bytes, if present (for values that are not secret).
    func bytes(_ field: UInt32) -> [UInt8]? {
        secret(field)?.withUnsafeBytes { Array($0) }
    }

    /// A length-delimited field kept in zero-on-free storage, if present.
    func secret(_ field: UInt32) -> SecretBytes? {
        lengthDelimited[field]?.last
    }

    /// Every value of a repeated length-delimited field, in order.
    func secrets(_ field: UInt32) -> [SecretBytes] {
        lengthDelimited[field] ?? []
    }
}
