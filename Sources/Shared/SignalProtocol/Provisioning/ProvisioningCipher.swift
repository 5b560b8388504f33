/// Seals a `ProvisionMessage` to the ephemeral key a device being linked shows in its
/// provisioning code, and opens it there: libsodium's sealed box (X25519 with a fresh key of the
/// sender's, XSalsa20-Poly1305). The relay between the two sees only the box.
///
/// ```swift
/// // the new device
/// let ephemeral = try KeyPair.generate()               // its public key goes into the code
/// // a device of the account
/// let box = try ProvisioningCipher.seal(provision, to: ephemeral.publicKey)
/// // the new device again
/// let provision = try ProvisioningCipher.open(box, with: ephemeral)
/// ```
public enum ProvisioningCipher {
    /// Bytes a box adds to the serialised provision.
    public static let overhead = Sodium.sealedBoxOverhead

    /// Seals `message` so that only the holder of `publicKey`'s private half can read it.
    /// - Throws: `SignalProtocolError` `.cryptoFailure`.
    public static func seal(_ message: ProvisionMessage, to publicKey: PublicKey) throws -> [UInt8] {
        try Sodium.sealedBox(message.serialized(), to: publicKey.rawBytes)
    }

    /// Opens a box sealed to `keyPair`'s public key.
    /// - Throws: `SignalProtocolError` `.invalidMAC` (another key, or altered on the way),
    ///   `.invalidProtobuf`, `.unknownVersion`, `.invalidKey`.
    public static func open(_ box: [UInt8], with keyPair: KeyPair) throws -> ProvisionMessage {
        let plaintext = try Sodium.openSealedBox(
            box, publicKey: keyPair.publicKey.rawBytes, privateKey: keyPair.privateKey.secret)
        return try ProvisionMessage(serialized: plaintext)
    }
}
