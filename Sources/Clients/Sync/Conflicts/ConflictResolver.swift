import CourierCore

/// A record's content on one side of a conflict.
public struct RecordState: Sendable, Hashable {
    /// The fields; empty when deleted.
    public var fields: [String: JSONValue]
    /// Whether the record is deleted.
    public var deleted: Bool
    /// The hybrid logical time of the write that made it.
    public var hlc: String

    /// Creates a state.
    public init(fields: [String: JSONValue], deleted: Bool, hlc: String) {
        self.fields = fields
        self.deleted = deleted
        self.hlc = hlc
    }
}

/// What a policy decided.
public enum ConflictResolution: Sendable, Hashable {
    /// Take the server's record.
    case acceptServer
    /// Write this content over the server's current version.
    case overwrite(fields: [String: JSONValue], deleted: Bool)
    /// Take the server's record, and keep the local content as a new record.
    case keepBoth
}

/// The policies as pure functions: same inputs, same decision on every client, which is what
/// makes two clients converge.
public enum ConflictResolver {
    /// Decides a conflict.
    /// - Parameters:
    ///   - local: the local content (after every pending local edit).
    ///   - server: the server's current content.
    ///   - ancestor: the version both started from, if known.
    public static func resolve(
        _ policy: ConflictPolicy, local: RecordState, server: RecordState, ancestor: RecordState?
    ) -> ConflictResolution {
        if local.deleted == server.deleted && local.fields == server.fields { return .acceptServer }
        switch policy {
        case .serverWins:
            return .acceptServer
        case .lastWriterWins:
            return localIsLater(local, server)
                ? .overwrite(fields: local.fields, deleted: local.deleted) : .acceptServer
        case .fieldMerge:
            if local.deleted || server.deleted {
                return resolve(.lastWriterWins, local: local, server: server, ancestor: ancestor)
            }
            let base = ancestor.map { $0.deleted ? [:] : $0.fields } ?? [:]
            let localWins = localIsLater(local, server)
            var merged: [String: JSONValue] = [:]
            for name in Set(local.fields.keys).union(server.fields.keys) {
                let mine = local.fields[name]
                let theirs = server.fields[name]
                let original = base[name]
                let value: JSONValue?
                if mine == theirs || mine == original {
                    value = theirs
                } else if theirs == original {
                    value = mine
                } else {
                    value = localWins ? mine : theirs
                }
                if let value { merged[name] = value }
            }
            return merged == server.fields ? .acceptServer : .overwrite(fields: merged, deleted: false)
        case .keepBoth:
            if local.deleted { return .acceptServer }
            if server.deleted { return .overwrite(fields: local.fields, deleted: false) }
            return .keepBoth
        }
    }

    /// Whether the local write is later by hybrid logical clock (ties by node id inside it).
    static func localIsLater(_ local: RecordState, _ server: RecordState) -> Bool {
        switch (HLCTimestamp(local.hlc), HLCTimestamp(server.hlc)) {
        case (let mine?, let theirs?): mine > theirs
        case (.some, nil): true
        default: false
        }
    }
}
