import CourierCore
import CourierHTTP
import SignalProtocol

extension MessengerServer {
    func mountKeys(on router: inout Router) {
        router.add("PUT", "/v2/keys") { [self] request, _ in try putKeys(request) }
        router.add("GET", "/v2/keys") { [self] request, _ in
            let device = try device(request)
            let count = try stored { () throws(MessengerStoreError) in
                try store.oneTimePreKeyCount(accountId: device.accountId, deviceId: device.deviceId)
            }
            return .json(["count": .int(Int64(count))])
        }
        router.add("GET", "/v2/keys/{accountId}/{deviceId}") { [self] request, _ in try getBundle(request) }
    }

    /// `PUT /v2/keys`: the identity key, a signed prekey whose XEdDSA signature must verify
    /// (422 otherwise) and up to 100 one-time prekeys.
    func putKeys(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let device = try device(request)
        let body = try RequestJSON(request)
        let identityBytes = try body.bytes("identityKey", count: PublicKey.serializedLength)
        guard let identityKey = try? PublicKey(serialized: identityBytes) else {
            throw HTTPError(.invalidKey, "identityKey is not a Curve25519 public key")
        }
        var signedPreKey: SignedPreKeyUpload?
        if let signed = body["signedPreKey"] {
            let key = SignedPreKeyUpload(
                keyId: Int(try signed.int("keyId", in: 0...0xFF_FFFF)),
                publicKey: try signed.bytes("publicKey", count: PublicKey.serializedLength),
                signature: try signed.bytes("signature", count: 64))
            guard (try? PublicKey(serialized: key.publicKey)) != nil else {
                throw HTTPError(.invalidKey, "signedPreKey.publicKey is not a Curve25519 public key")
            }
            guard identityKey.verifySignature(key.signature, for: key.publicKey) else {
                throw HTTPError(.invalidSignature, "signedPreKey's signature does not verify with identityKey")
            }
            signedPreKey = key
        }
        let uploads = body["preKeys"] == nil ? [] : try body.array("preKeys")
        guard uploads.count <= configuration.maximumOneTimePreKeysPerUpload else {
            throw HTTPError(
                .tooManyPrekeys, "at most \(configuration.maximumOneTimePreKeysPerUpload) one-time prekeys at once")
        }
        var preKeys: [OneTimePreKeyUpload] = []
        for upload in uploads {
            let key = OneTimePreKeyUpload(
                keyId: Int(try upload.int("keyId", in: 0...0xFF_FFFF)),
                publicKey: try upload.bytes("publicKey", count: PublicKey.serializedLength))
            guard (try? PublicKey(serialized: key.publicKey)) != nil else {
                throw HTTPError(.invalidKey, "preKey \(key.keyId) is not a Curve25519 public key")
            }
            preKeys.append(key)
        }
        try stored { () throws(MessengerStoreError) in
            try store.storeKeys(
                accountId: device.accountId, deviceId: device.deviceId, identityKey: identityBytes,
                signedPreKey: signedPreKey, oneTimePreKeys: preKeys)
        }
        return HTTPResponse(status: 204)
    }

    /// `GET /v2/keys/{account}/{device|*}`: each device's registration id, signed prekey and one
    /// one-time prekey, which no other caller will get. One-time prekeys are handed out within
    /// the target account's budget (`oneTimePreKeyBudgetPerTarget`); beyond it the bundle has
    /// the signed prekey only, which still starts a session (X3DH without the fourth DH).
    func getBundle(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let caller = try device(request)
        try Self.limit(preKeyLimiter, caller.accountId)
        guard let accountId = request.pathParameters["accountId"], let deviceText = request.pathParameters["deviceId"]
        else { throw HTTPError.badRequest("name an account and a device") }
        let deviceId: Int?
        if deviceText == "*" {
            deviceId = nil
        } else if let id = Int(deviceText), id > 0 {
            deviceId = id
        } else {
            throw HTTPError.badRequest("deviceId must be a positive integer or *")
        }
        let identityKey = try stored { () throws(MessengerStoreError) in try store.identityKey(accountId: accountId) }
        guard let identityKey else { throw missingKeys(accountId, deviceText) }
        // The target's budget is spent only for accounts that exist: its table is keyed by
        // server-made ids, never by text a client chose.
        let oneTimePreKeys = preKeyBudget.map { $0.take(accountId) == .allowed } ?? true
        let devices = try stored { () throws(MessengerStoreError) in
            try store.takePreKeys(accountId: accountId, deviceId: deviceId, oneTimePreKeys: oneTimePreKeys)
        }
        guard !devices.isEmpty else { throw missingKeys(accountId, deviceText) }
        for device in devices where device.oneTimePreKey != nil {
            notifyIfLow(AuthenticatedDevice(accountId: accountId, deviceId: device.deviceId))
        }
        return .json([
            "identityKey": .string(Base64.encode(identityKey)),
            "devices": .array(
                devices.map { device in
                    var entry: [String: JSONValue] = [
                        "deviceId": .int(Int64(device.deviceId)), "registrationId": .int(Int64(device.registrationId)),
                    ]
                    if let signed = device.signedPreKey {
                        entry["signedPreKey"] = [
                            "keyId": .int(Int64(signed.keyId)), "publicKey": .string(Base64.encode(signed.publicKey)),
                            "signature": .string(Base64.encode(signed.signature)),
                        ]
                    }
                    if let preKey = device.oneTimePreKey {
                        entry["preKey"] = [
                            "keyId": .int(Int64(preKey.keyId)), "publicKey": .string(Base64.encode(preKey.publicKey)),
                        ]
                    }
                    return .object(entry)
                }),
        ])
    }

    /// The 404 of a bundle request: `unknown_account` when no device is registered under the id
    /// (so a client can say there is no such account), `no_keys` when it has devices but none
    /// with keys to give.
    private func missingKeys(_ accountId: String, _ deviceText: String) -> HTTPError {
        // A store that cannot answer is not taken as proof that the account does not exist.
        let registered = (try? store.devices(accountId: accountId).isEmpty == false) ?? true
        guard registered else { return HTTPError(.unknownAccount, "no account \(accountId) on this server") }
        if deviceText == "*" { return HTTPError(.noKeys, "\(accountId) has no device with keys yet") }
        return HTTPError(.noKeys, "no keys for \(accountId).\(deviceText)")
    }

    /// Tells a device on its socket that its one-time prekeys run low.
    private func notifyIfLow(_ device: AuthenticatedDevice) {
        guard let session = hub.session(for: device),
            let count = try? store.oneTimePreKeyCount(accountId: device.accountId, deviceId: device.deviceId),
            count < configuration.preKeyRefillThreshold
        else { return }
        session.sendControl { DeliveryFrame.preKeysLow(id: $0, count: count) }
    }
}
