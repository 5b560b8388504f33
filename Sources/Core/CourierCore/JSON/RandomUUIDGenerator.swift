#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Random version-4 UUID strings (the SDK's `messageId`s, `Identifier.uuid()`): 122 bits from
/// the system's CSPRNG (`/dev/urandom` on Linux, `arc4random_buf` on Apple platforms) for every
/// id, so no id says anything about the next one. The random bytes are fetched 4 KiB at a time (three system calls
/// per 256 ids instead of two per id) and each word is used once. Formatted by hand, which is far
/// cheaper than `UUID().uuidString.lowercased()`, which on Linux opens, reads and closes
/// `/dev/urandom` for every id. After a `fork()` the child refills instead of using the buffer it
/// inherited (`ForkGeneration`), so parent and child never hand out the same ids.
package struct RandomUUIDGenerator {
    private var words = [UInt64](repeating: 0, count: 512)
    private var nextWord = 512
    private var filledIn = ForkGeneration.current
    private var system = SystemRandomNumberGenerator()

    package init() {}

    private mutating func randomWord() -> UInt64 {
        let generation = ForkGeneration.current
        if nextWord == words.count || generation != filledIn {
            filledIn = generation
            let filled = words.withUnsafeMutableBytes { buffer -> Bool in
                guard let base = buffer.baseAddress else { return false }
                #if canImport(Darwin)
                    arc4random_buf(base, buffer.count)
                    return true
                #else
                    let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
                    guard fd >= 0 else { return false }
                    defer { close(fd) }
                    return read(fd, base, buffer.count) == buffer.count
                #endif
            }
            // A short read (it does not happen for 4 KiB from an initialised pool) falls back to
            // one word at a time from the same CSPRNG.
            if !filled { for i in words.indices { words[i] = system.next() } }
            nextWord = 0
        }
        defer { nextWord += 1 }
        return words[nextWord]
    }

    /// A lowercase UUID string such as `3f2c…-4…-8…`.
    package mutating func next() -> String {
        var high = randomWord()
        var low = randomWord()
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
