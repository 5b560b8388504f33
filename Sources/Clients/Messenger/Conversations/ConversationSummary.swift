/// One row of the conversation list.
public struct ConversationSummary: Sendable, Equatable {
    /// The conversation.
    public var conversationId: String
    /// Its last message in display order (a pending one when there is one).
    public var lastMessage: Message
    /// Incoming messages not read yet.
    public var unreadCount: Int
}
