/// How to reach Apple's push service with token-based authentication.
public struct APNsConfiguration: Sendable {
    /// The team id from the developer account (the token's `iss`).
    public var teamId: String
    /// The signing key's id (the token's `kid`).
    public var keyId: String
    /// The `.p8` private key, PEM.
    public var privateKeyPEM: String
    /// The app's bundle id (`apns-topic`).
    public var topic: String
    /// `https://api.push.apple.com` (or the sandbox's, or a test endpoint).
    public var baseURL = "https://api.push.apple.com"
    /// A PEM file of certificate authorities to trust instead of the system's (for tests).
    public var certificateAuthorityFile: String?
    /// The generic alert shown until the notification extension replaces it.
    public var alertTitle = "New message"
    /// Its body.
    public var alertBody = "You have a new message"
    /// How long a provider token is used, in seconds: Apple refuses tokens older than an hour and
    /// refreshes more often than every 20 minutes.
    public var tokenLifetimeSeconds: Int64 = 50 * 60
    /// Seconds before a request gives up.
    public var timeoutSeconds = 10

    /// Creates a configuration.
    public init(teamId: String, keyId: String, privateKeyPEM: String, topic: String) {
        self.teamId = teamId
        self.keyId = keyId
        self.privateKeyPEM = privateKeyPEM
        self.topic = topic
    }
}

/// Why APNs could not be used.
public enum APNsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The private key is unusable.
    case invalidKey(String)
    /// OpenSSL could not sign.
    case signing
    /// libcurl could not send.
    case transport(String)

    public var description: String {
        switch self {
        case .invalidKey(let why): "invalid APNs key: \(why)"
        case .signing: "cannot sign the APNs provider token"
        case .transport(let why): "APNs request failed: \(why)"
        }
    }
}
