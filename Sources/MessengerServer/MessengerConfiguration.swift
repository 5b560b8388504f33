import CourierHTTP

/// Limits and policies of the messenger server.
public struct MessengerConfiguration: Sendable {
    /// How costly stored password hashes are.
    public enum PasswordHashing: Sendable {
        /// Argon2id with 19 MiB and 2 passes (OWASP's minimum).
        case standard
        /// libsodium's minimum: for tests that create many devices, never for real accounts.
        case minimal
    }

    /// Devices per account, the first included (Signal: 6).
    public var maximumDevicesPerAccount = 6
    /// How long a linking token can be used, in milliseconds (10 minutes).
    public var linkingTokenLifetimeMilliseconds: Int64 = 600_000
    /// How long an undelivered envelope waits, in milliseconds (30 days).
    public var envelopeLifetimeMilliseconds: Int64 = 30 * 86_400_000
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
    /// Accounts created per client address.
    public var registrationRate: RateLimit? = RateLimit(perSecond: 1, burst: 100)
    /// Wrong credentials per client address.
    public var failedAuthenticationRate: RateLimit? = RateLimit(perSecond: 1, burst: 10)
    /// How long a verified credential is remembered, in milliseconds, so Argon2id runs once per
    /// device and not once per request.
    public var credentialCacheMilliseconds: Int64 = 300_000
    /// Password hashing cost.
    public var passwordHashing = PasswordHashing.standard
    /// Envelopes sent on a socket and not yet acknowledged, at most.
    public var deliveryWindow = 256
    /// A live device that has not acknowledged an envelope this many milliseconds after it was
    /// sent gets a push too (`nil`: never).
    public var unackedPushDelayMilliseconds: Int64? = 10_000
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

    var hasher: PasswordHasher { passwordHashing == .standard ? .standard : .fastest }
}
