/// Where session records live. Calls for one address must not interleave: the caller
/// serialises them (one actor per account in Courier's messenger).
public protocol SessionStore: Sendable {
    /// The record for `address`, or nil.
    func loadSession(for address: ProtocolAddress) throws -> SessionRecord?
    /// Replaces the record for `address`.
    func storeSession(_ record: SessionRecord, for address: ProtocolAddress) throws
}
