import CourierCore

/// What the routing load generator sends and reads on the delivery socket, built and read without
/// JSON trees, so that the generator, which shares the two cores with the server, spends little
/// of them (as the echo peer's generator sends one fixed frame).
enum DeliveryFrames {
    /// The JSON of a message's envelopes for `deviceIds`, encoded once for a whole run.
    static func envelopes(deviceIds: [Int], content: String) -> String {
        JSONWriter.string(
            .array(
                deviceIds.map {
                    [
                        "destinationDeviceId": .int(Int64($0)), "destinationRegistrationId": 1, "type": 1,
                        "content": .string(content),
                    ]
                }))
    }

    /// A `PUT /v1/messages/{account}` request frame around the pre-encoded `envelopes`.
    static func send(id: Int64, account: String, envelopes: String, timestamp: UInt64) -> String {
        #"{"type":"request","id":\#(id),"verb":"PUT","path":"/v1/messages/\#(account)","body":{"messages":"#
            + envelopes + #","conversationId":"bench","clientMessageId":""# + Identifier.uuid()
            + #"","timestamp":\#(timestamp)}}"#
    }

    /// The integer after the first `"key":` in `text`, if any.
    static func integer(after key: String, in text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard let found = bytes.firstRange(of: Array("\"\(key)\":".utf8)) else { return nil }
        var index = found.upperBound
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: Int64 = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            value = value &* 10 &+ Int64(bytes[index] - 48)
            index += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }
}
