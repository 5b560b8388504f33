/// Everything stored for one remote device: the current session state and archived ones that
/// may still decrypt late messages (for example after both sides started a session at once).
public struct SessionRecord: Sendable {
    /// The state used for sending.
    public internal(set) var currentState: SessionState?
    /// Older states, newest first.
    public internal(set) var previousStates: [SessionState] = []

    /// An empty record.
    public init() {}

    /// Whether no session was ever established.
    public var isFresh: Bool { currentState == nil }

    /// Moves the current state to the archive, dropping the oldest beyond `limit`.
    mutating func archiveCurrentState(limit: Int) {
        guard let current = currentState else { return }
        previousStates.insert(current, at: 0)
        currentState = nil
        if previousStates.count > max(limit, 0) { previousStates.removeLast(previousStates.count - max(limit, 0)) }
    }

    /// Makes `state` current, archiving the old current state.
    mutating func promote(_ state: SessionState, limit: Int) {
        archiveCurrentState(limit: limit)
        currentState = state
    }

    /// Whether any state was created from this initiator base key (a repeated PreKeySignalMessage).
    func hasState(version: UInt8, aliceBaseKey: PublicKey) -> Bool {
        ([currentState].compactMap { $0 } + previousStates).contains {
            $0.sessionVersion == version && $0.aliceBaseKey == aliceBaseKey
        }
    }
}
