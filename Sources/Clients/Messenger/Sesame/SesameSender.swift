import CourierCore
import CourierHTTPClient
import SignalProtocol

/// Sesame's send: one envelope per device of an account, each sealed in that device's session.
///
/// The device list is the roster; the server corrects it. A 409 names missing devices (their
/// bundles are fetched and sessions started) and extra ones (marked removed, their sessions kept
/// for late messages); a 410 names devices whose registration changed (a fresh session from a
/// new bundle replaces the stale one). Every retry carries the same client message id, so the
/// server stores the message once. A contact whose identity key changed is not sent to while
/// `ContactVerification.maySend(to:)` says no (until the app accepts the key, per the policy).
/// A 429 is thrown (`MessengerClientError.retryAfter`); the send queue waits it out.
struct SesameSender: Sendable {
    let storage: MessengerStorage
    let api: MessengerAPI
    let credentials: DeviceCredentials
    let clock: any Clock
    /// The contacts' keys: every fetched bundle's key is observed, and it decides whether a
    /// changed key blocks.
    let trust: ContactVerification
    /// The open delivery socket's requests, when there is one: sends go on it, else over HTTP.
    var socket: SocketRequests?
    /// Rounds of 409/410 corrections before giving up.
    var maximumAttempts = 4

    /// How one device's envelope is made: its type and bytes, inside the ratchet transaction.
    typealias Sealer = @Sendable (SignalStores, ProtocolAddress) throws -> (type: Int, bytes: [UInt8])
    /// Runs before each attempt with the devices about to be sent to (sender keys distribute here).
    typealias Preparer = @Sendable (_ account: String, _ devices: [UInt32]) async throws -> Void

    /// Pairwise: `plaintext` encrypted in each device's session.
    static func pairwise(_ plaintext: [UInt8]) -> Sealer {
        { stores, address in
            let message = try SessionCipher(stores: stores, remoteAddress: address).encrypt(plaintext)
            return (Int(message.type), message.serialized)
        }
    }

    /// Sends to every device of `account` but this one.
    /// - Returns: the server's `serverSeq`, or nil when `account` is this device's own and it has
    ///   no other device.
    /// - Throws: `.identityChanged` when the contact's key changed and was not accepted yet;
    ///   `.server` when the device list does not settle after `maximumAttempts` rounds.
    @discardableResult
    func send(
        to account: String, conversation: String, clientMessageId: String, timestamp: Int64, seal: Sealer,
        prepare: Preparer? = nil, presealed: Presealed? = nil
    ) async throws -> Int64? {
        let own = account == credentials.accountId
        try await refuseChangedIdentity(account)
        var devices = try active(account)
        if devices.isEmpty && !own {
            try await startSessions(account, device: nil)
            devices = try active(account)
        }
        for attempt in 0..<maximumAttempts {
            if devices.isEmpty {
                if own { return nil }
                throw MessengerClientError(.server, "\(account) has no device with keys")
            }
            if let prepare { try await prepare(account, devices) }
            let messages: [JSONValue]
            if attempt == 0, let presealed, presealed.devices == devices {
                messages = presealed.messages
            } else {
                messages = try await sealAll(devices: devices, of: account, with: seal)
            }
            let body: JSONValue = [
                "messages": .array(messages), "conversationId": .string(conversation),
                "clientMessageId": .string(clientMessageId), "timestamp": .int(timestamp),
            ]
            switch try await sendOnce(to: account, body: body) {
            case .accepted(let serverSeq):
                return serverSeq
            case .mismatched(let missing, let extra):
                try storage.transaction { _, _, db in
                    for device in extra {
                        try DeviceRoster.remove(account: account, device: device, now: clock.nowMilliseconds, db: db)
                    }
                }
                for device in missing { try await startSessions(account, device: device) }
            case .stale(let stale):
                for device in stale { try await startSessions(account, device: device) }
            }
            devices = try active(account)
        }
        throw MessengerClientError(.server, "the device list of \(account) did not settle")
    }

    /// One `PUT /v1/messages/{account}`: on the open delivery socket when there is one, else (or
    /// when the socket closed before answering, or answered with an error) over HTTP, which the
    /// server answers the same way and which turns an error into a `MessengerClientError`.
    private func sendOnce(to account: String, body: JSONValue) async throws -> MessengerAPI.SendOutcome {
        if let socket, let answer = await socket.send("PUT", "/v1/messages/\(account)", body: body),
            let outcome = try api.sendOutcome(status: answer.status, json: answer.body)
        {
            return outcome
        }
        // A cancelled send stops here, still queued (the error is retryable): the queue sends it
        // again under the same client id.
        if Task.isCancelled {
            throw MessengerClientError(.transport, "the send was cancelled before the server answered")
        }
        return try await api.send(to: account, body: body, as: credentials)
    }

    /// Sends one message to several accounts, up to `parallelism` at once (the server gives every
    /// copy of one client message id the same `serverSeq`).
    /// - Returns: the `serverSeq`, or nil when no account had a device to send to.
    func send(
        toAll accounts: [String], conversation: String, clientMessageId: String, timestamp: Int64,
        seal: @escaping Sealer, prepare: Preparer? = nil, parallelism: Int = 8
    ) async throws -> Int64? {
        let presealed = prepare == nil ? try await sealFirstAttempts(accounts, with: seal) : [:]
        return try await withThrowingTaskGroup(of: Int64?.self) { group in
            func start(_ account: String) {
                group.addTask {
                    try await send(
                        to: account, conversation: conversation, clientMessageId: clientMessageId,
                        timestamp: timestamp, seal: seal, prepare: prepare, presealed: presealed[account])
                }
            }
            var pending = accounts[...]
            var serverSeq: Int64?
            for _ in 0..<min(parallelism, pending.count) { start(pending.removeFirst()) }
            while let seq = try await group.next() {
                serverSeq = serverSeq ?? seq
                if let account = pending.popFirst() { start(account) }
            }
            return serverSeq
        }
    }

    /// The envelopes of one account's first attempt, sealed ahead (`sealFirstAttempts`), and the
    /// devices they are for: used only while the account's devices are still these.
    struct Presealed: Sendable {
        let devices: [UInt32]
        let messages: [JSONValue]
    }

    /// Seals the first attempt of every account that may be sent to and whose devices all have a
    /// session, in one transaction: one ratchet lock and one commit for a send to a contact and
    /// this account's other devices, not one per account. An account left out (no session yet,
    /// no device known, a changed key) is sealed by its own send, as before.
    private func sealFirstAttempts(_ accounts: [String], with seal: Sealer) async throws -> [String: Presealed] {
        var ready: [(account: String, devices: [UInt32])] = []
        for account in accounts {
            guard try await trust.maySend(to: account) else { continue }
            let devices = try active(account)
            guard !devices.isEmpty,
                try devices.allSatisfy({ try hasSession(ProtocolAddress(name: account, deviceId: $0)) })
            else { continue }
            ready.append((account, devices))
        }
        // One account gains nothing: its own send seals it the same way.
        guard ready.count > 1 else { return [:] }
        return try storage.transaction { stores, _, _ in
            var sealed: [String: Presealed] = [:]
            for (account, devices) in ready {
                sealed[account] = Presealed(
                    devices: devices,
                    messages: try devices.map { try Self.envelope(to: account, device: $0, stores: stores, seal: seal) }
                )
            }
            return sealed
        }
    }

    /// Seals one envelope per device, in one transaction, after starting a session with each
    /// device that has none.
    private func sealAll(devices: [UInt32], of account: String, with seal: Sealer) async throws -> [JSONValue] {
        for device in devices where try !hasSession(ProtocolAddress(name: account, deviceId: device)) {
            try await startSessions(account, device: device)
        }
        return try storage.transaction { stores, _, _ -> [JSONValue] in
            try devices.map { try Self.envelope(to: account, device: $0, stores: stores, seal: seal) }
        }
    }

    /// One device's envelope, sealed in its session inside the caller's transaction.
    private static func envelope(
        to account: String, device: UInt32, stores: SignalStores, seal: Sealer
    ) throws -> JSONValue {
        let address = ProtocolAddress(name: account, deviceId: device)
        let registrationId = try SessionCipher(stores: stores, remoteAddress: address).remoteRegistrationId()
        let (type, bytes) = try seal(stores, address)
        return [
            "destinationDeviceId": .int(Int64(device)),
            "destinationRegistrationId": .int(Int64(registrationId)), "type": .int(Int64(type)),
            "content": .string(Base64.encode(bytes)),
        ]
    }

    /// Fetches bundles (one device, or all) and starts a session with each; adds them to the roster.
    /// Each bundle's identity key is observed by `trust` first; a key it lets through (the same,
    /// a first one, or a change the policy does not block) is saved for the device, so the
    /// Signal store follows `trust`.
    /// - Throws: `.identityChanged` when a bundle carries a changed key that blocks sending
    ///   (recorded in `trust` as a warning for the app to show and accept).
    func startSessions(_ account: String, device: UInt32?) async throws {
        try await startSessions(account, with: try await api.bundles(of: account, device: device, as: credentials))
    }

    /// Starts a session with each device of `account` whose bundle is in `fetched` (as above).
    func startSessions(_ account: String, with fetched: [PreKeyBundle]) async throws {
        let own = account == credentials.accountId
        let bundles = fetched.filter { !(own && $0.deviceId == credentials.deviceId) }
        if !own {
            for key in Set(bundles.map(\.identityKey.serialized)) {
                let observation = try await trust.observe(try IdentityKey(serialized: key), for: account)
                if case .changed(let warning) = observation, warning.blocksSending {
                    throw MessengerClientError(.identityChanged, "the identity key of \(account) changed")
                }
            }
            try await refuseChangedIdentity(account)
        }
        try storage.transaction { stores, _, db in
            for bundle in bundles {
                let address = ProtocolAddress(name: account, deviceId: bundle.deviceId)
                if !own { _ = try stores.identities.saveIdentity(bundle.identityKey, for: address) }
                do {
                    try SessionBuilder(stores: stores, remoteAddress: address).process(bundle: bundle)
                } catch let error as SignalProtocolError {
                    throw MessengerClientError(
                        .protocolFailure, "the bundle of \(address) was refused: \(error.code)", underlying: error)
                }
                try DeviceRoster.add(account: account, device: bundle.deviceId, db: db)
            }
        }
    }

    func active(_ account: String) throws -> [UInt32] {
        try storage.read { db in try DeviceRoster.active(account: account, db: db) }.filter {
            !(account == credentials.accountId && $0 == credentials.deviceId)
        }
    }

    private func hasSession(_ address: ProtocolAddress) throws -> Bool {
        try SessionCipher(stores: storage.signal.stores, remoteAddress: address).hasSession()
    }

    private func refuseChangedIdentity(_ account: String) async throws {
        if try await !trust.maySend(to: account) {
            throw MessengerClientError(
                .identityChanged, "the identity key of \(account) changed; accept it before sending")
        }
    }
}
