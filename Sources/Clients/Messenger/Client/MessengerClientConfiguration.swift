import CourierCore
import SignalProtocol

/// Where a device keeps its state, which server it talks to, and its timings.
public struct MessengerClientConfiguration: Sendable {
    /// The server, e.g. `https://chat.example` (no trailing slash).
    public var serverURL: String
    /// The device's directory: `messenger.sqlite` and `ratchet.lock`. App and notification
    /// extension share it (an app group container on Apple platforms).
    public var directory: String
    /// Seals the private keys and session records (`KeychainKeyProvider` on Apple platforms,
    /// `FileKeyProvider` kept outside `directory` on Linux).
    public var keyProvider: any KeyProvider
    /// Wall time for key rotation and timestamps.
    public var clock: any Clock
    /// The device's name on the server.
    public var deviceName: String
    /// How long a signed prekey is used before a new one replaces it.
    public var signedPreKeyLifetime: Duration = .seconds(7 * 24 * 3600)
    /// Refill one-time prekeys when fewer than this many are left on the server.
    public var preKeyRefillThreshold = 10
    /// Whether read receipts are sent (a user setting); delivery receipts always are.
    public var sendsReadReceipts = true
    /// The wait before a failed send is tried again (full jitter; a 429's `Retry-After` is
    /// waited at least).
    public var sendBackoff = Backoff(base: .seconds(2), cap: .seconds(300))
    /// Attempts after which a send that keeps failing is marked `failed` (`retry(clientId:)`
    /// puts it back).
    public var maximumSendAttempts = 8
    /// When a contact's changed identity key blocks sending until the user accepts it.
    public var identityChangePolicy = IdentityChangePolicy.blockUntilAccepted

    /// A configuration with the default timings.
    public init(
        serverURL: String, directory: String, keyProvider: any KeyProvider, clock: any Clock = SystemClock(),
        deviceName: String = "device"
    ) {
        self.serverURL = serverURL
        self.directory = directory
        self.keyProvider = keyProvider
        self.clock = clock
        self.deviceName = deviceName
    }
}
