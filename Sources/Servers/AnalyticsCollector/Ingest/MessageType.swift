/// The Segment message types the collector accepts.
public enum MessageType: String, Sendable, CaseIterable {
    /// An action the user took (`event` required).
    case track
    /// Who the user is (`traits`).
    case identify
    /// A screen in a mobile app.
    case screen
    /// A page on a web site.
    case page
    /// A group (company, team) the user belongs to (`groupId` required).
    case group
    /// Merges two identities (`previousId` and `userId` required).
    case alias
}
