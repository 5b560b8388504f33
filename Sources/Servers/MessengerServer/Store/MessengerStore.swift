/// Everything the messenger server keeps: accounts and devices, linking tokens, keys, mailboxes,
/// sends already seen, attachment records. SQLite (`SQLiteMessengerStore`) is the default; a
/// PostgreSQL store can implement the same protocol without touching the routes.
///
/// Every method is one atomic step: a send stores all of its mailbox rows or none, a prekey is
/// handed out to exactly one caller.
public protocol MessengerStore: Sendable {
    /// Creates an account with its first device (id 1).
    /// - Throws: `MessengerStoreError`; `.conflict` when the account exists.
    func createAccount(_ accountId: String, device: DeviceRecord) throws(MessengerStoreError)

    /// Keeps a linking token's hash for `accountId` until `expiresAt`.
    func storeLinkingToken(accountId: String, tokenHash: [UInt8], expiresAt: Int64) throws(MessengerStoreError)

    /// Whether a linking token is known and unexpired at `now`, without consuming it: checked
    /// before a new device's secret is validated or hashed.
    func linkingTokenIsValid(tokenHash: [UInt8], now: Int64) throws(MessengerStoreError) -> Bool

    /// Consumes a linking token and adds a device with the next free id, in one transaction.
    /// - Returns: the account and the new device's id.
    /// - Throws: `.notFound` for an unknown, used or expired token; `.limitReached` when the
    ///   account has `maximumDevices` devices.
    func linkDevice(tokenHash: [UInt8], device: DeviceRecord, maximumDevices: Int, now: Int64)
        throws(MessengerStoreError) -> (accountId: String, deviceId: Int)

    /// One device, or `nil`.
    func device(accountId: String, deviceId: Int) throws(MessengerStoreError) -> DeviceRecord?

    /// Replaces a device's stored credential hash, only if it still is `expected` (a legacy
    /// hash migrated at sign-in).
    /// - Returns: whether it was replaced.
    func replacePasswordHash(accountId: String, deviceId: Int, expected: String, with replacement: String)
        throws(MessengerStoreError) -> Bool

    /// The account's devices by id; empty for an unknown account.
    func devices(accountId: String) throws(MessengerStoreError) -> [DeviceRecord]

    /// Removes a device with its keys and its mailbox.
    /// - Returns: whether it existed.
    func removeDevice(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Bool

    /// Sets or clears where a device's pushes go.
    func setPushEndpoint(_ endpoint: PushEndpoint?, accountId: String, deviceId: Int) throws(MessengerStoreError)

    /// Takes the right to push to a device now: sets its last push time to `now` only when no
    /// push went out in the `intervalMilliseconds` before, in one conditional update, so of the
    /// server instances that try at once exactly one gets it.
    /// - Returns: whether this caller may push.
    func claimPush(accountId: String, deviceId: Int, now: Int64, intervalMilliseconds: Int64)
        throws(MessengerStoreError) -> Bool

    /// Forgets a device's last push time (it connected), so its next offline envelope pushes at once.
    func clearPushClaim(accountId: String, deviceId: Int) throws(MessengerStoreError)

    /// The account's identity key (33 bytes), if set.
    func identityKey(accountId: String) throws(MessengerStoreError) -> [UInt8]?

    /// Stores a device's keys: the account's identity key (set once; the first device may
    /// replace it), a signed prekey (replacing the last) and one-time prekeys (added; an id
    /// already present is replaced).
    func storeKeys(
        accountId: String, deviceId: Int, identityKey: [UInt8], signedPreKey: SignedPreKeyUpload?,
        oneTimePreKeys: [OneTimePreKeyUpload]
    ) throws(MessengerStoreError)

    /// How many one-time prekeys a device has left.
    func oneTimePreKeyCount(accountId: String, deviceId: Int) throws(MessengerStoreError) -> Int

    /// The prekeys of one device (or of every device when `deviceId` is `nil`), each with one
    /// one-time prekey removed from the store in the same transaction when `oneTimePreKeys` is
    /// set (without it: signed prekeys only, nothing removed).
    func takePreKeys(accountId: String, deviceId: Int?, oneTimePreKeys: Bool) throws(MessengerStoreError)
        -> [DevicePreKeys]

    /// Checks the envelopes against the destination's devices and, when they match, assigns the
    /// conversation's next sequence number and stores one mailbox row per device.
    /// - Parameter expiresAt: when the rows expire undelivered.
    func send(_ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64) throws(MessengerStoreError)
        -> SendOutcome

    /// Queues a send to be stored after every send queued before it, and returns without waiting
    /// (see `send`): a caller that reads requests in order queues each as it reads it, and the
    /// sends queued meanwhile share one group commit. The store commits it whether or not anyone
    /// waits; `QueuedSend` blocks (`outcome()`), suspends (`committed()`) or calls back on the
    /// committer (`whenCommitted`) once it has.
    func queueSend(_ message: OutgoingMessage, receivedAt: Int64, expiresAt: Int64) -> QueuedSend

    /// A device's mailbox after `afterId`, in order, at most `limit` entries.
    func mailbox(accountId: String, deviceId: Int, afterId: Int64, limit: Int) throws(MessengerStoreError)
        -> [MailboxEntry]

    /// Deletes acknowledged entries of one device's mailbox.
    /// - Returns: how many were deleted.
    func acknowledge(accountId: String, deviceId: Int, ids: [Int64]) throws(MessengerStoreError) -> Int

    /// Deletes acknowledged entries of several devices' mailboxes, each as
    /// `acknowledge(accountId:deviceId:ids:)` does, in one transaction where the store can.
    /// - Returns: how many were deleted.
    func acknowledge(_ acks: [(accountId: String, deviceId: Int, ids: [Int64])]) throws(MessengerStoreError) -> Int

    /// Deletes every mailbox row, remembered send and attachment record whose time is before
    /// `now` (an index range, not a scan).
    /// - Returns: the expired attachments' ids, whose files the caller removes.
    func expire(now: Int64) throws(MessengerStoreError) -> (envelopes: Int, attachments: [String])

    /// Records a new attachment upload.
    func createAttachment(id: String, accountId: String, length: Int64, expiresAt: Int64) throws(MessengerStoreError)

    /// An attachment's creator, its declared length and how many bytes have arrived, or `nil`.
    func attachment(id: String) throws(MessengerStoreError) -> (accountId: String, length: Int64, received: Int64)?

    /// Records that an attachment now has `received` bytes.
    func setAttachmentReceived(id: String, received: Int64) throws(MessengerStoreError)

    /// Devices with their mailbox depth and oldest envelope's expiry, at most `limit`, for the
    /// operators' overview (`GET /v1/messenger/devices`).
    func deviceOverview(limit: Int) throws(MessengerStoreError) -> [DeviceMailboxSummary]
}

extension MessengerStore {
    /// One device after another, each in its own transaction: for stores without a batch.
    public func acknowledge(_ acks: [(accountId: String, deviceId: Int, ids: [Int64])]) throws(MessengerStoreError)
        -> Int
    {
        var deleted = 0
        for ack in acks { deleted += try acknowledge(accountId: ack.accountId, deviceId: ack.deviceId, ids: ack.ids) }
        return deleted
    }
}

/// A store operation failed.
public struct MessengerStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Equatable {
        /// What was asked for does not exist (or has expired).
        case notFound
        /// It exists already.
        case conflict
        /// A limit was reached (devices per account).
        case limitReached
        /// The disk is full: nothing was stored.
        case diskFull
        /// The database failed.
        case storage
    }

    /// The kind.
    public let kind: Kind
    /// Details for the log.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}
