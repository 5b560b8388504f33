/// Random version-4 UUID strings for `messageId`s: 122 bits from the system's CSPRNG
/// (`SystemRandomNumberGenerator`: `getrandom` on Linux, `arc4random` on Apple platforms) for
/// every id, so no id says anything about the next one. Formatted by hand, which is far cheaper per
/// event than `UUID().uuidString.lowercased()`.
package struct MessageIdGenerator {
    private var system = SystemRandomNumberGenerator()

    package init() {}

    /// A lowercase UUID string such as `3f2c…-4…-8…`.
    package mutating func next() -> String {
        var high = system.next()
        var low = system.next()
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
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
