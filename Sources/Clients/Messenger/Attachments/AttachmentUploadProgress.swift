/// One step of an upload, reported to the caller's progress handler.
public struct AttachmentUploadProgress: Sendable, Equatable {
    /// What happened.
    public enum Event: Sendable, Equatable {
        /// The server accepted bytes up to `confirmed`.
        case confirmed
        /// A connection failed; the upload asked the server where to go on and resumes from
        /// `confirmed`, the offset the server reported.
        case resumed
    }

    /// The server's id for the blob.
    public let id: String
    /// What happened.
    public let event: Event
    /// Bytes the server holds.
    public let confirmed: Int
    /// The encrypted blob's length.
    public let total: Int
}
