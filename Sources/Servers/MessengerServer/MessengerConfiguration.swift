import CourierHTTP

/// Limits and policies of the messenger server.
public struct MessengerConfiguration: Sendable {
    /// Devices per account, the first included (Signal: 6).
    public var maximumDevicesPerAccount = 6
    /// How long a linking token can be used, in milliseconds (10 minutes).
    public var linkingTokenLifetimeMilliseconds: Int64 = 600_000
    /// Provisioning sockets (`GET /v1/websocket/provisioning/`) open at once on this instance:
    /// they are unauthenticated, so past it a new one is closed at once (4503) instead of
    /// holding memory a stranger asked for.
    public var maximumProvisioningSockets = 1_000
    /// How long a provisioning socket waits for its provision before the server closes it (4408).
    public var provisioningSocketLifetime: Duration = .seconds(600)
    /// The largest provision a primary device may relay (`PUT /v1/provisioning/{address}`), request
    /// body included; a provision is a few hundred bytes.
    public var maximumProvisionBytes = 8 * 1024
    /// How long an undelivered envelope waits, in milliseconds (30 days).
    public var envelopeLifetimeMilliseconds: Int64 = 30 * 86_400_000
    /// How often the expiry job (`MessengerServer.backgroundJobs`) deletes what has expired.
    public var expiryInterval: Duration = .seconds(3_600)
    /// How often every live socket reads its mailbox again (`MessengerServer.backgroundJobs`),
    /// for wake-ups the bus lost: it delivers at most once.
    public var catchUpInterval: Duration = .seconds(30)
    /// The most ciphertext bytes in one send, all envelopes together (256 KiB).
    public var maximumMessageBytes = 256 * 1024
    /// The most one-time prekeys in one upload (Signal: 100).
    public var maximumOneTimePreKeysPerUpload = 100
    /// Below this many one-time prekeys a device is told on its socket to upload more.
    public var preKeyRefillThreshold = 10
    /// Sends per account.
    public var sendRate: RateLimit? = RateLimit(perSecond: 50, burst: 200)
    /// Prekey bundle fetches per requesting account: draining prekeys is an attack.
    public var preKeyFetchRate: RateLimit? = RateLimit(perSecond: 1, burst: 50)
    /// Bundle fetches per *target* account that hand out one-time prekeys (30 at once, then one
    /// every 2 minutes): beyond it a bundle carries the signed prekey only, so sessions still
    /// start but fresh accounts cannot drain a victim's one-time prekeys (`nil`: no budget).
    public var oneTimePreKeyBudgetPerTarget: RateLimit? = RateLimit(perSecond: 1.0 / 120, burst: 30)
    /// Target accounts whose budget is remembered at most. Only existing accounts are keyed
    /// (server-made ids of 36 bytes), so the table stays under about 15 MB.
    public var maximumPreKeyBudgetAccounts = 100_000
    /// Accounts created per client address (10 at once, then one a minute).
    public var registrationRate: RateLimit? = RateLimit(perSecond: 1.0 / 60, burst: 10)
    /// Accounts created by this server from all addresses together (500 at once, then 50 a
    /// second): each is a durable write on the store's one writer, and a client with many
    /// addresses (an IPv6 prefix) is not held by `registrationRate` alone (`nil`: no cap).
    public var registrationRateOverall: RateLimit? = RateLimit(perSecond: 50, burst: 500)
    /// Device links per client address.
    public var linkingRate: RateLimit? = RateLimit(perSecond: 1, burst: 20)
    /// Wrong credentials per client address.
    public var failedAuthenticationRate: RateLimit? = RateLimit(perSecond: 1, burst: 10)
    /// Legacy Argon2id credentials verified at once by this server, all requests together
    /// (courier-server runs one per process; each verification takes the memory its hash names,
    /// 19 MiB for the old default): beyond it a sign-in gets 503 with `Retry-After`.
    /// New credentials are salted token hashes, which cost microseconds and no memory.
    public var maximumConcurrentPasswordHashes = 2
    /// Envelopes sent on a socket and not yet acknowledged, at most.
    public var deliveryWindow = 256
    /// How long an acknowledgement waits to be deleted, so that every ack arriving meanwhile,
    /// from any socket of this instance, is deleted in the same transaction (zero: as soon as the
    /// ack queue gets to it). An ack not yet deleted when the process stops, or when the device
    /// reconnects through another instance, only redelivers its envelope, which the device drops
    /// by `clientMessageId`; a device that reconnects to this instance has its pending acks
    /// deleted before its mailbox is read, and a socket that ends has them deleted before its
    /// device's mailbox is looked at for a push.
    public var ackBatchInterval: Duration = .milliseconds(5)
    /// A live device that has not acknowledged an envelope this many milliseconds after it was
    /// sent gets a push too (`nil`: never).
    public var unackedPushDelayMilliseconds: Int64? = 10_000
    /// How long after a device's socket ends with envelopes unread the server waits before it
    /// pushes the device (`MessengerServer.announceUnread`): a device that connects again
    /// meanwhile (a network that flaps, a load balancer's blip) is not pushed. Zero: at once.
    public var unreadPushGraceMilliseconds: Int64 = 2_000
    /// A device without a live socket gets at most one push per this many milliseconds (until it
    /// connects again).
    public var pushCoalescingMilliseconds: Int64 = 60_000
    /// Which addresses webhook pushes may reach: public ones by default, so a device cannot make
    /// the server POST to loopback, private, link-local or multicast addresses. A literal address
    /// it refuses is refused at `PUT /v1/devices/push` (400); give the same policy to
    /// `WebhookPushSender`, which applies it to the addresses it connects to.
    public var webhookAddresses = WebhookAddressPolicy()
    /// The largest attachment, in bytes (100 MiB).
    public var maximumAttachmentBytes: Int64 = 100 << 20
    /// How long an attachment is kept, in milliseconds (30 days).
    public var attachmentLifetimeMilliseconds: Int64 = 30 * 86_400_000
    /// Where attachment files are kept; `nil` refuses uploads.
    public var attachmentDirectory: String?
    /// The bearer token of the operators' read route (`GET /v1/messenger/devices`); `nil` disables it.
    public var adminToken: String?

    /// The defaults above.
    public init() {}
}
