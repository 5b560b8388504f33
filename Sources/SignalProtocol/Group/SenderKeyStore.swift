/// Where sender key records live.
public protocol SenderKeyStore: Sendable {
    /// The record for `name`, or nil.
    func loadSenderKey(for name: SenderKeyName) throws -> SenderKeyRecord?
    /// Replaces the record for `name`.
    func storeSenderKey(_ record: SenderKeyRecord, for name: SenderKeyName) throws
}
