internal import CSignalPeer
import SignalProtocol

/// A libsignal-protocol-c call failed.
package struct PeerError: Error, CustomStringConvertible {
    /// The libsignal error code (`SG_ERR_*`).
    package let code: Int32
    /// The operation.
    package let what: String
    /// `what failed with libsignal error code`.
    package var description: String { "\(what) failed with libsignal error \(code)" }
}

/// A libsignal-protocol-c device in this process, driven through our C harness. Test and
/// benchmark support only; not thread-safe, use from one task.
package final class LibSignalPeer {
    private let pointer: OpaquePointer
    /// The name others use for this device.
    package let name: String
    /// The device id.
    package let deviceId: UInt32
    /// `name.deviceId`.
    package var address: ProtocolAddress { ProtocolAddress(name: name, deviceId: deviceId) }

    /// Creates a device with a fresh identity and empty stores.
    package init(name: String, deviceId: UInt32 = 1) throws {
        guard let pointer = signal_peer_create() else { throw PeerError(code: -1, what: "signal_peer_create") }
        self.pointer = pointer
        self.name = name
        self.deviceId = deviceId
    }

    deinit { signal_peer_free(pointer) }

    private func check(_ rc: Int32, _ what: String) throws -> Int {
        guard rc >= 0 else { throw PeerError(code: rc, what: what) }
        return Int(rc)
    }

    /// The device's registration id.
    package var registrationId: UInt32 { signal_peer_registration_id(pointer) }

    /// The identity key.
    package func identity() throws -> IdentityKey {
        var bytes = [UInt8](repeating: 0, count: 33)
        _ = try check(signal_peer_identity(pointer, &bytes), "identity")
        return try PublicKey(serialized: bytes)
    }

    /// Publishes a signed prekey and, unless `preKeyId` is 0, a one-time prekey.
    package func bundle(preKeyId: UInt32 = 77, signedPreKeyId: UInt32 = 3) throws -> PreKeyBundle {
        var preKey = [UInt8](repeating: 0, count: 33)
        var signedPreKey = [UInt8](repeating: 0, count: 33)
        var signature = [UInt8](repeating: 0, count: 64)
        _ = try check(
            signal_peer_make_bundle(pointer, preKeyId, signedPreKeyId, &preKey, &signedPreKey, &signature), "bundle")
        return PreKeyBundle(
            registrationId: registrationId, deviceId: deviceId, preKeyId: preKeyId == 0 ? nil : preKeyId,
            preKey: preKeyId == 0 ? nil : try PublicKey(serialized: preKey), signedPreKeyId: signedPreKeyId,
            signedPreKey: try PublicKey(serialized: signedPreKey), signedPreKeySignature: signature,
            identityKey: try identity())
    }

    /// Starts a session from another device's bundle.
    package func process(_ bundle: PreKeyBundle, from address: ProtocolAddress) throws {
        let preKey = bundle.preKey?.serialized ?? [UInt8](repeating: 0, count: 33)
        _ = try check(
            signal_peer_process_bundle(
                pointer, address.name, Int32(address.deviceId), bundle.registrationId, bundle.preKeyId ?? 0, preKey,
                bundle.signedPreKeyId, bundle.signedPreKey.serialized, bundle.signedPreKeySignature,
                bundle.signedPreKeySignature.count, bundle.identityKey.serialized), "process bundle")
    }

    /// Encrypts to `address`.
    package func encrypt(_ plaintext: [UInt8], to address: ProtocolAddress) throws -> CiphertextMessage {
        var out = [UInt8](repeating: 0, count: plaintext.count + 512)
        var type: Int32 = 0
        let length = try check(
            signal_peer_encrypt(
                pointer, address.name, Int32(address.deviceId), plaintext, plaintext.count, &out, out.count, &type),
            "encrypt")
        return try CiphertextMessage(type: UInt8(type), serialized: Array(out.prefix(length)))
    }

    /// Decrypts from `address`.
    package func decrypt(_ message: CiphertextMessage, from address: ProtocolAddress) throws -> [UInt8] {
        let bytes = message.serialized
        var out = [UInt8](repeating: 0, count: bytes.count + 16)
        let length = try check(
            signal_peer_decrypt(
                pointer, address.name, Int32(address.deviceId), Int32(message.type), bytes, bytes.count, &out,
                out.count), "decrypt")
        return Array(out.prefix(length))
    }

    /// libsignal's 60-digit displayable fingerprint.
    package func safetyNumber(
        local: String, localKey: IdentityKey, remote: String, remoteKey: IdentityKey, iterations: Int
    )
        throws -> String
    {
        var out = [CChar](repeating: 0, count: 61)
        _ = try check(
            signal_peer_fingerprint(
                pointer, Int32(iterations), local, localKey.serialized, remote, remoteKey.serialized, &out),
            "fingerprint")
        return String(decoding: out.prefix(60).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// libsignal-protocol-c's serialized scannable fingerprint (`CombinedFingerprints`).
    package func scannableFingerprint(
        local: String, localKey: IdentityKey, remote: String, remoteKey: IdentityKey, iterations: Int, version: Int
    ) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 256)
        let length = try check(
            signal_peer_scannable_fingerprint(
                pointer, Int32(iterations), Int32(version), local, localKey.serialized, remote, remoteKey.serialized,
                &out, out.count), "scannable fingerprint")
        return Array(out.prefix(length))
    }

    /// libsignal-protocol-c's `scannable_fingerprint_compare` of two serialized fingerprints:
    /// true or false, or `PeerError` (code -1200 for a version mismatch).
    package func compareScannable(ours: [UInt8], scanned: [UInt8]) throws -> Bool {
        try check(signal_peer_scannable_compare(pointer, ours, ours.count, scanned, scanned.count), "compare") == 1
    }

    /// Creates our sender key for `group`; returns the distribution message.
    package func groupCreate(group: String) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1024)
        let length = try check(
            signal_peer_group_create(pointer, group, name, Int32(deviceId), &out, out.count), "group create")
        return Array(out.prefix(length))
    }

    /// Stores a member's distribution message.
    package func groupProcess(group: String, sender: ProtocolAddress, distribution: [UInt8]) throws {
        _ = try check(
            signal_peer_group_process(
                pointer, group, sender.name, Int32(sender.deviceId), distribution, distribution.count), "group process")
    }

    /// Encrypts a group message with our sender key.
    package func groupEncrypt(group: String, _ plaintext: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: plaintext.count + 256)
        let length = try check(
            signal_peer_group_encrypt(
                pointer, group, name, Int32(deviceId), plaintext, plaintext.count, &out, out.count),
            "group encrypt")
        return Array(out.prefix(length))
    }

    /// Decrypts a member's group message.
    package func groupDecrypt(group: String, sender: ProtocolAddress, _ ciphertext: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ciphertext.count + 16)
        let length = try check(
            signal_peer_group_decrypt(
                pointer, group, sender.name, Int32(sender.deviceId), ciphertext, ciphertext.count, &out, out.count),
            "group decrypt")
        return Array(out.prefix(length))
    }
}
