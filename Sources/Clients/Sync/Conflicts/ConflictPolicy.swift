/// How the client resolves a conflict (its edit was based on a version the server has moved
/// past), chosen per record type.
public enum ConflictPolicy: Sendable, Hashable {
    /// The server's record stays; the local edit is dropped.
    case serverWins
    /// The write with the later hybrid logical clock stays; the other is dropped silently.
    case lastWriterWins
    /// Three-way merge against the common ancestor: each field takes the side that changed it;
    /// a field both sides changed goes to the later hybrid logical clock. Deletes fall back to
    /// last-writer-wins.
    case fieldMerge
    /// The server's record stays and the local version becomes a new record (a new id), which
    /// the app is told about so it can ask the user.
    case keepBoth
}
