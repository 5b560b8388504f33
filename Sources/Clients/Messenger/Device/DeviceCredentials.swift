import CourierCore
import CourierHTTPClient

/// What a device signs in with: its account, its device number and its own password.
public struct DeviceCredentials: Sendable, Hashable {
    /// The account id the server assigned.
    public let accountId: String
    /// The device number within the account (1 for the first device).
    public let deviceId: UInt32
    /// The device's secret: base64 of 32 random bytes that the device drew itself (the server
    /// refuses anything that is not base64 of 16–64 random-looking bytes).
    public let password: String

    /// `Basic base64(account.device:password)`.
    var authorization: String {
        "Basic " + Base64.encode(Array("\(accountId).\(deviceId):\(password)".utf8))
    }
}
