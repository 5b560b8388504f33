/// A small seeded random generator (xorshift64*), so the state machine stays a value whose
/// delays a test can reproduce; by default each machine is seeded from the system generator.
public struct JitterSource: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator seeded with `seed` (0 is replaced by a fixed non-zero value).
    public init(seed: UInt64) { state = seed == 0 ? 0x2545_F491_4F6C_DD1D : seed }

    /// A generator seeded from the system's random source.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: system.next())
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
