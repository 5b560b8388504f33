import CourierCore

/// Why the conversation store refused a call or could not complete it.
public struct ConversationStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure (new codes may be added).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String { case invalidArgument, invalidCursor, expiredCursor, diskFull, notFound, storage }
        private let kind: Kind

        /// A message or argument that cannot be stored (empty id, negative sequence number…).
        public static let invalidArgument = Code(kind: .invalidArgument)
        /// A cursor that does not decode: not one this store issued.
        public static let invalidCursor = Code(kind: .invalidCursor)
        /// A cursor from before the conversation's history was deleted: start from the latest rows.
        public static let expiredCursor = Code(kind: .expiredCursor)
        /// The disk (or the file's size cap) is full: nothing of the call was written.
        public static let diskFull = Code(kind: .diskFull)
        /// No such message.
        public static let notFound = Code(kind: .notFound)
        /// Any other database failure: nothing of the call was written.
        public static let storage = Code(kind: .storage)

        /// The code's name.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure.
    public let code: Code
    /// A sentence for logs (never message bodies).
    public let message: String
    /// The database error underneath, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

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
