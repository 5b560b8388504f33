import CourierCore
import CourierHTTPClient

/// What a device signs in with: its account, its device number and its own password.
public struct DeviceCredentials: Sendable, Hashable {
    /// The account id the server assigned.
    public let accountId: String
    /// The device number within the account (1 for the first device).
    public let deviceId: UInt32
    /// The device's password (at least 16 random bytes, encoded).
    public let password: String

    /// Creates credentials.
    public init(accountId: String, deviceId: UInt32, password: String) {
        self.accountId = accountId
        self.deviceId = deviceId
        self.password = password
    }

    /// `Basic base64(account.device:password)`.
    var authorization: String {
        "Basic " + Base64.encode(Array("\(accountId).\(deviceId):\(password)".utf8))
    }
}
