import CourierCore

/// Why the conversation store refused a call or could not complete it. Its `message` never holds
/// message bodies; `underlying` is the database error, if any.
public typealias ConversationStoreError = CodedError<ConversationStoreErrorCode>

/// What kind of conversation-store failure (new codes may be added).
public struct ConversationStoreErrorCode: ErrorCode {
    private enum Kind: String { case invalidArgument, invalidCursor, expiredCursor, diskFull, notFound, storage }
    private let kind: Kind

    /// A message or argument that cannot be stored (empty id, negative sequence number…).
    public static let invalidArgument = Self(kind: .invalidArgument)
    /// A cursor that does not decode: not one this store issued.
    public static let invalidCursor = Self(kind: .invalidCursor)
    /// A cursor from before the conversation's history was deleted: start from the latest rows.
    public static let expiredCursor = Self(kind: .expiredCursor)
    /// The disk (or the file's size cap) is full: nothing of the call was written.
    public static let diskFull = Self(kind: .diskFull)
    /// No such message.
    public static let notFound = Self(kind: .notFound)
    /// Any other database failure: nothing of the call was written.
    public static let storage = Self(kind: .storage)

    /// The code's name.
    public var name: String { kind.rawValue }
}

extension CodedError where Code == ConversationStoreErrorCode {
    /// Runs `body`, turning a database failure into a `ConversationStoreError`.
    static func translating<T>(_ what: String, _ body: () throws -> T) throws(ConversationStoreError) -> T {
        do {
            return try body()
        } catch let error as ConversationStoreError {
            throw error
        } catch let error as DatabaseError where error.isDiskFull {
            throw ConversationStoreError(.diskFull, "the disk is full; \(what) was not stored", underlying: error)
        } catch {
            throw ConversationStoreError(.storage, "\(what) failed: \(error)", underlying: error)
        }
    }
}
