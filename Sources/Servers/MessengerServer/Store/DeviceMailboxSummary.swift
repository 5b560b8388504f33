/// One device as the operators' overview shows it: never any message content, only how much
/// waits for it and since when.
public struct DeviceMailboxSummary: Sendable, Equatable {
    /// The account's id.
    public let accountId: String
    /// The device's id within the account.
    public let deviceId: Int
    /// The device's name as it registered.
    public let name: String
    /// `apns`, `webhook`, or `nil` without a push endpoint.
    public let pushKind: String?
    /// Envelopes waiting in the device's mailbox.
    public let mailboxDepth: Int
    /// When the oldest waiting envelope expires (milliseconds since 1970), `nil` for an empty mailbox.
    public let oldestExpiresAt: Int64?

    /// Creates a summary.
    public init(
        accountId: String, deviceId: Int, name: String, pushKind: String?, mailboxDepth: Int, oldestExpiresAt: Int64?
    ) {
        self.accountId = accountId
        self.deviceId = deviceId
        self.name = name
        self.pushKind = pushKind
        self.mailboxDepth = mailboxDepth
        self.oldestExpiresAt = oldestExpiresAt
    }
}
