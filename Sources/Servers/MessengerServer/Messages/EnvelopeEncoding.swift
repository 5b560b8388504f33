import CourierCore
import CourierHTTP

/// The envelope a device receives, as JSON: routing metadata and the opaque ciphertext.
///
/// `{"type":1,"sourceAccount":"…","sourceDevice":1,"destinationDevice":2,"timestamp":…,
/// "serverTimestamp":…,"serverSeq":7,"conversationId":"…","clientMessageId":"…","content":"<base64>"}`
enum EnvelopeEncoding {
    static func encode(
        _ envelope: OutgoingEnvelope, of message: OutgoingMessage, serverSeq: Int64, receivedAt: Int64
    ) -> [UInt8] {
        JSONWriter.encode(
            .object([
                "type": .int(Int64(envelope.type)),
                "sourceAccount": .string(message.sourceAccount),
                "sourceDevice": .int(Int64(message.sourceDevice)),
                "destinationDevice": .int(Int64(envelope.destinationDeviceId)),
                "timestamp": .int(message.timestamp),
                "serverTimestamp": .int(receivedAt),
                "serverSeq": .int(serverSeq),
                "conversationId": .string(message.conversationId),
                "clientMessageId": .string(message.clientMessageId),
                "content": .string(Base64.encode(envelope.content)),
            ]))
    }
}
