/// The sender key generations known for one sender in one group, newest first.
public struct SenderKeyRecord: Sendable {
    /// libsignal keeps five generations.
    static let maxStates = 5
    var states: [SenderKeyState] = []

    /// An empty record.
    public init() {}

    /// Whether no sender key is known.
    public var isEmpty: Bool { states.isEmpty }

    func state(keyId: UInt32) -> Int? { states.firstIndex { $0.keyId == keyId } }

    mutating func add(_ state: SenderKeyState) {
        states.removeAll { $0.keyId == state.keyId }
        insertFirst(state)
    }

    /// Adds a member's state from a distribution message. A state with the same key id and
    /// signing key is kept as it is (moved to the front), so a repeated or replayed distribution
    /// message cannot rewind its chain and let old messages decrypt again (libsignal's Rust rule);
    /// a state with the same id but another signing key is replaced.
    mutating func addReceived(_ state: SenderKeyState) {
        if let index = states.firstIndex(where: { $0.keyId == state.keyId && $0.signingKey == state.signingKey }) {
            insertFirst(states.remove(at: index))
        } else {
            add(state)
        }
    }

    private mutating func insertFirst(_ state: SenderKeyState) {
        states.insert(state, at: 0)
        if states.count > Self.maxStates { states.removeLast(states.count - Self.maxStates) }
    }
}
