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
        states.insert(state, at: 0)
        if states.count > Self.maxStates { states.removeLast(states.count - Self.maxStates) }
    }
}
