/// What a device publishes so that others can start a session with it while it is offline.
public struct PreKeyBundle: Sendable {
    /// The device's registration id.
    public var registrationId: UInt32
    /// The device id.
    public var deviceId: UInt32
    /// The one-time prekey id, when one was handed out.
    public var preKeyId: UInt32?
    /// The one-time prekey, when one was handed out.
    public var preKey: PublicKey?
    /// The signed prekey id.
    public var signedPreKeyId: UInt32
    /// The signed prekey.
    public var signedPreKey: PublicKey
    /// XEdDSA signature of `signedPreKey.serialized` by `identityKey`.
    public var signedPreKeySignature: [UInt8]
    /// The device's identity key.
    public var identityKey: IdentityKey

    /// Creates a bundle.
    public init(
        registrationId: UInt32, deviceId: UInt32, preKeyId: UInt32?, preKey: PublicKey?, signedPreKeyId: UInt32,
        signedPreKey: PublicKey, signedPreKeySignature: [UInt8], identityKey: IdentityKey
    ) {
        self.registrationId = registrationId
        self.deviceId = deviceId
        self.preKeyId = preKeyId
        self.preKey = preKey
        self.signedPreKeyId = signedPreKeyId
        self.signedPreKey = signedPreKey
        self.signedPreKeySignature = signedPreKeySignature
        self.identityKey = identityKey
    }
}
