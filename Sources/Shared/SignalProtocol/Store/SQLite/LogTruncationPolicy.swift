/// When a `SQLiteSignalStore` checkpoints its write-ahead log and truncates it to nothing.
///
/// A commit that replaces a session record or deletes a used one-time prekey leaves the old
/// (sealed) version in the log until the log is truncated; whoever later holds both the file and
/// the storage key could open it, which undoes forward secrecy for that window. A checkpoint
/// costs a write and an `fsync` of the database file, so truncating after every commit roughly
/// halves a busy device's commit rate. The policy bounds the window instead: the log is truncated
/// at the latest `maximumCommits` commits or `window` after a commit, whichever comes first
/// (a reader in the middle of a read postpones it to the next try; `journal_size_limit = 0`
/// cuts the log back whenever it is reset).
public struct LogTruncationPolicy: Sendable, Hashable {
    /// Commits after which the log is truncated at once, on the committing thread (at least 1).
    public var maximumCommits: Int
    /// How long after a commit the log is truncated at the latest, from a background queue.
    public var window: Duration

    /// Creates a policy; `maximumCommits` below 1 counts as 1, a negative window as zero.
    public init(maximumCommits: Int, window: Duration) {
        self.maximumCommits = max(1, maximumCommits)
        self.window = max(.zero, window)
    }

    /// Truncate after every commit: no window at all, at the cost of a checkpoint per commit.
    public static let everyCommit = LogTruncationPolicy(maximumCommits: 1, window: .zero)

    /// The default: at most 32 commits or 500 ms.
    public static let standard = LogTruncationPolicy(maximumCommits: 32, window: .milliseconds(500))
}
