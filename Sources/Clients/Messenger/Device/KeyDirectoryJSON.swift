import CourierCore
import CourierHTTPClient
import SignalProtocol

/// The key directory's JSON (`PUT /v2/keys`, `GET /v2/keys/{account}/{device}`): keys as base64
/// of libsignal's 33-byte form.
enum KeyDirectoryJSON {
    /// The upload body for an identity, a signed prekey and one-time prekeys.
    static func upload(identity: IdentityKey, signedPreKey: SignedPreKeyRecord?, preKeys: [PreKeyRecord]) -> JSONValue {
        var body: [String: JSONValue] = [
            "identityKey": .string(Base64.encode(identity.serialized)),
            "preKeys": .array(
                preKeys.map {
                    ["keyId": .int(Int64($0.id)), "publicKey": .string(Base64.encode($0.keyPair.publicKey.serialized))]
                }),
        ]
        if let signedPreKey {
            body["signedPreKey"] = [
                "keyId": .int(Int64(signedPreKey.id)),
                "publicKey": .string(Base64.encode(signedPreKey.keyPair.publicKey.serialized)),
                "signature": .string(Base64.encode(signedPreKey.signature)),
            ]
        }
        return .object(body)
    }

    /// The bundles in a directory answer; a device without a signed prekey is left out.
    /// - Throws: `MessengerClientError(.server)` when a key does not parse.
    static func bundles(_ json: JSONValue) throws -> [PreKeyBundle] {
        guard let identityText = json["identityKey"]?.stringValue, let identityBytes = Base64.decode(identityText),
            let identity = try? IdentityKey(serialized: identityBytes)
        else { throw MessengerClientError(.server, "the key directory's identity key is malformed") }
        return try (json["devices"]?.arrayValue ?? []).compactMap { device -> PreKeyBundle? in
            guard let deviceId = device["deviceId"]?.intValue.flatMap({ UInt32(exactly: $0) }),
                let registrationId = device["registrationId"]?.intValue.flatMap({ UInt32(exactly: $0) }),
                let signed = device["signedPreKey"], !signed.isNull
            else { return nil }
            guard let signedId = signed["keyId"]?.intValue.flatMap({ UInt32(exactly: $0) }),
                let signedKey = key(signed["publicKey"]),
                let signature = signed["signature"]?.stringValue.flatMap(Base64.decode)
            else { throw MessengerClientError(.server, "the key directory's signed prekey is malformed") }
            var preKeyId: UInt32?
            var preKey: PublicKey?
            if let oneTime = device["preKey"], !oneTime.isNull {
                preKeyId = oneTime["keyId"]?.intValue.flatMap { UInt32(exactly: $0) }
                preKey = key(oneTime["publicKey"])
                guard preKeyId != nil, preKey != nil else {
                    throw MessengerClientError(.server, "the key directory's one-time prekey is malformed")
                }
            }
            return PreKeyBundle(
                registrationId: registrationId, deviceId: deviceId, preKeyId: preKeyId, preKey: preKey,
                signedPreKeyId: signedId, signedPreKey: signedKey, signedPreKeySignature: signature,
                identityKey: identity)
        }
    }

    private static func key(_ value: JSONValue?) -> PublicKey? {
        value?.stringValue.flatMap(Base64.decode).flatMap { try? PublicKey(serialized: $0) }
    }
}
