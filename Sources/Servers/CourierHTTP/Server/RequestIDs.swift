import Synchronization

/// New request ids, cheaply: a request id need only be unique, not secret, so instead of a
/// random UUID per request (a `getrandom` call and Foundation's formatting) each id is a counter
/// run through a bijective mix under a random per-process key, written in a UUID's shape
/// (36 lowercase hex digits and dashes, version 4 and variant bits set).
enum RequestIDs {
    private static let key: (high: UInt64, low: UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A new id, unique within the process for 2⁶⁴ requests.
    static func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).newValue
        // splitmix64's finaliser is a bijection, so distinct counts give distinct low halves.
        var low = count &+ key.low
        low = (low ^ (low >> 30)) &* 0xBF58_476D_1CE4_E5B9
        low = (low ^ (low >> 27)) &* 0x94D0_49BB_1331_11EB
        low ^= low >> 31
        var high = key.high ^ (count &* 0x9E37_79B9_7F4A_7C15)
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789abcdef"
            var index = 0
            func put(_ value: UInt64, nibbles: Int, from shift: Int) {
                for n in 0..<nibbles {
                    let nibble = Int((value >> UInt64(shift - 4 * n)) & 0xF)
                    buffer[index] = digits.utf8Start[nibble]
                    index += 1
                }
            }
            func dash() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            put(high, nibbles: 8, from: 60)
            dash()
            put(high, nibbles: 4, from: 28)
            dash()
            put(high, nibbles: 4, from: 12)
            dash()
            put(low, nibbles: 4, from: 60)
            dash()
            put(low, nibbles: 12, from: 44)
            return index
        }
    }
}
