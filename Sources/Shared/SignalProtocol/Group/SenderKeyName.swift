/// Identifies one sender's key in one group.
public struct SenderKeyName: Hashable, Sendable {
    /// The group id.
    public let groupId: String
    /// The sending device.
    public let sender: ProtocolAddress

    /// Creates a name.
    public init(groupId: String, sender: ProtocolAddress) {
        self.groupId = groupId
        self.sender = sender
    }
}
