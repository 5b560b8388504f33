/// A remote device: a user name (or id) and a device number.
public struct ProtocolAddress: Hashable, Sendable, CustomStringConvertible {
    /// The user's name or id.
    public let name: String
    /// The device number.
    public let deviceId: UInt32

    /// Creates an address.
    public init(name: String, deviceId: UInt32) {
        self.name = name
        self.deviceId = deviceId
    }

    /// `name.deviceId`.
    public var description: String { "\(name).\(deviceId)" }
}
