/// Random version-4 UUID strings for `messageId`s, from xoshiro256** seeded by the system's
/// generator: unique for dedupe, far cheaper per event than `UUID().uuidString`, and never used
/// for anything secret.
struct MessageIdGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init() {
        var system = SystemRandomNumberGenerator()
        state = (system.next(), system.next(), system.next(), system.next() | 1)
    }

    private mutating func next64() -> UInt64 {
        let result = ((state.1 &* 5) << 7 | (state.1 &* 5) >> 57) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = state.3 << 45 | state.3 >> 19
        return result
    }

    /// A lowercase UUID string such as `3f2c…-4…-8…`.
    mutating func next() -> String {
        var high = next64()
        var low = next64()
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000    // RFC 4122 variant
        let hex: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ value: UInt64, nibbles: Int) {
                for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                    buffer[index] = hex.utf8Start[Int((value >> UInt64(shift)) & 0xF)]
                    index += 1
                }
            }
            func dash() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            put(high >> 32, nibbles: 8); dash()
            put((high >> 16) & 0xFFFF, nibbles: 4); dash()
            put(high & 0xFFFF, nibbles: 4); dash()
            put(low >> 48, nibbles: 4); dash()
            put(low & 0xFFFF_FFFF_FFFF, nibbles: 12)
            return index
        }
    }
}
