import CourierCore
import CourierHTTPClient

/// Where attachments go and how uploads are cut and retried.
public struct AttachmentTransferConfiguration: Sendable {
    /// The messenger server, for example `http://127.0.0.1:8080` (no trailing slash).
    public var baseURL: String
    /// The uploading device's account id.
    public var accountId: String
    /// The uploading device's id within the account.
    public var deviceId: Int
    /// The device's password.
    public var password: String
    /// The largest piece sent in one `PUT`; keep it at or under the server's body limit
    /// (1 MiB by default). Memory holds about two copies of one piece at a time.
    public var pieceBytes: Int = 512 * 1024
    /// How many times a failed connection is retried (each retry first asks the server how
    /// much it has) before the upload fails.
    public var maximumRetries: Int = 5
    /// The wait between retries (full jitter).
    public var backoff = Backoff(base: .milliseconds(200), cap: .seconds(10))

    /// Creates a configuration.
    public init(baseURL: String, accountId: String, deviceId: Int, password: String) {
        self.baseURL = baseURL
        self.accountId = accountId
        self.deviceId = deviceId
        self.password = password
    }

    /// The HTTP Basic credentials `account.device:password`.
    var authorization: String {
        "Basic " + Base64.encode(Array("\(accountId).\(deviceId):\(password)".utf8))
    }
}
