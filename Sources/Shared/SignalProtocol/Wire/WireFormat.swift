/// The framing every Signal wire message shares: `version || protobuf || trailer`, where the
/// trailer is a truncated MAC (`SignalMessage`), a signature (`SenderKeyMessage`) or absent.
enum WireFormat {
    /// `version || body`, the version byte announcing `version` and our current version.
    static func serialize(version: UInt8, _ body: (inout ProtobufWriter) -> Void) -> [UInt8] {
        var writer = ProtobufWriter()
        body(&writer)
        return [version << 4 | CiphertextVersion.current] + writer.bytes
    }

    /// Reads the version byte and the protobuf body between it and the trailer.
    /// - Parameters:
    ///   - serialized: the received bytes.
    ///   - trailerLength: the length of the MAC or signature at the end.
    ///   - schema: the body's fields.
    ///   - name: the message's name, for errors.
    /// - Returns: the message version and the body's fields.
    /// - Throws: `.invalidMessage` when too short, version errors, `.invalidProtobuf`.
    static func parse(
        _ serialized: [UInt8], trailerLength: Int = 0, schema: ProtobufFields.Schema, name: String
    ) throws -> (version: UInt8, fields: ProtobufFields) {
        guard serialized.count > 1 + trailerLength else {
            throw SignalProtocolError(.invalidMessage, "\(name) too short")
        }
        let version = try CiphertextVersion.check(serialized[0])
        return (version, try ProtobufFields(serialized[1..<(serialized.count - trailerLength)], schema: schema))
    }

    /// The error for a message without one of its required fields.
    static func missingField(_ name: String) -> SignalProtocolError {
        SignalProtocolError(.invalidMessage, "\(name) lacks a required field")
    }

    /// The bytes the trailer covers, and the trailer.
    static func split(_ serialized: [UInt8], trailerLength: Int) -> (
        covered: ArraySlice<UInt8>, trailer: ArraySlice<UInt8>
    ) {
        let split = serialized.count - trailerLength
        return (serialized[..<split], serialized[split...])
    }
}
