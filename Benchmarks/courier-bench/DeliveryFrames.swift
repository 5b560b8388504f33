import CourierCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        var text = text
        return text.withUTF8 { bytes -> Int64? in
            guard var index = end(of: "\"\(key)\":", in: bytes) else { return nil }
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

    /// Whether `text` holds `needle`, compared as bytes (`String.contains` of a string goes
    /// through Foundation on Linux, several times the cost, on the cores the server uses).
    static func contains(_ needle: String, in text: String) -> Bool {
        var text = text
        return text.withUTF8 { end(of: needle, in: $0) != nil }
    }

    /// The offset just past the first `needle` in `bytes`.
    private static func end(of needle: String, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var needle = needle
        return needle.withUTF8 { wanted -> Int? in
            guard let first = wanted.first, wanted.count <= bytes.count else { return nil }
            var start = 0
            while start <= bytes.count - wanted.count {
                if bytes[start] == first,
                    memcmp(bytes.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0
                {
                    return start + wanted.count
                }
                start += 1
            }
            return nil
        }
    }
}
