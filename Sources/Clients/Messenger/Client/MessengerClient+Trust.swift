import CourierCore
import SignalProtocol

extension MessengerClient {
    /// The safety number with `account`: 60 digits in twelve groups and the scannable bytes for
    /// a QR code, over both identity keys and both account ids (the same on both phones).
    /// - Throws: `.invalidArgument` when no identity key of `account` is known yet (no session).
    public func safetyNumber(with account: String) async throws -> SafetyNumberPresentation {
        guard let number = try await trust.safetyNumber(for: account) else {
            throw MessengerClientError(.invalidArgument, "no identity key of \(account) is known yet")
        }
        return number
    }

    /// Compares the code scanned from `account`'s phone; `.match` marks the contact verified.
    /// - Throws: the trust store's error.
    public func verifySafetyNumber(of account: String, scanned: [UInt8]) async throws -> SafetyNumberScanResult {
        try await trust.verify(account, scanned: scanned)
    }

    /// The new identity key of `account` waiting for the user's decision, if any.
    /// - Throws: the trust store's error.
    public func pendingIdentityChange(of account: String) async throws -> IdentityKey? {
        try await trust.record(for: account)?.pendingChange?.newKey
    }

    /// Accepts the changed identity key of `account` (the user compared safety numbers or chose
    /// to go on): it is saved for every known device of the account, the pending change is
    /// cleared in `trust`, and sending resumes. The key stays unverified.
    /// - Throws: `.invalidArgument` when no change is pending.
    public func acceptIdentityChange(of account: String) async throws {
        guard let change = try await trust.record(for: account)?.pendingChange else {
            throw MessengerClientError(.invalidArgument, "no identity change is pending for \(account)")
        }
        try adoptIdentityKey(change.newKey, of: account)
        try await trust.acceptChange(for: account)
    }

    /// Makes the Signal store hold `key` for every known device of `account` (and `device`), so
    /// the sessions follow what `trust` decided.
    nonisolated func adoptIdentityKey(_ key: IdentityKey, of account: String, device: UInt32 = 1) throws {
        try storage.transaction { stores, _, db in
            var devices = Set(try DeviceRoster.all(account: account, db: db))
            devices.formUnion([1, device])
            for device in devices {
                _ = try stores.identities.saveIdentity(key, for: ProtocolAddress(name: account, deviceId: device))
            }
        }
    }

    /// Processes one envelope and shows the identity key a session-opening message carries to
    /// `trust`: a first or unchanged key is recorded; a changed one raises a warning. When the
    /// Signal store refused the key and `trust` lets it through (a change the policy does not
    /// block, or one the user accepted before this device of the contact was known), the key is
    /// adopted for the sending device and the envelope processed again.
    nonisolated func processObservingIdentity(_ envelope: IncomingEnvelope) async throws -> IncomingEvent {
        try await observeIdentity(of: envelope, processedAs: processor.process(envelope))
    }

    /// The identity step of `processObservingIdentity` for an envelope already processed (as part
    /// of a committed batch): shows its key to `trust`, and processes it again when a refused key
    /// is adopted.
    nonisolated func observeIdentity(of envelope: IncomingEnvelope, processedAs event: IncomingEvent) async throws
        -> IncomingEvent
    {
        guard let key = envelope.sessionOpeningIdentityKey, envelope.sourceAccount != credentials.accountId else {
            return event
        }
        switch event {
        case .identityChanged:
            let observation = try await trust.observe(key, for: envelope.sourceAccount)
            if case .changed(let warning) = observation, warning.blocksSending { return event }
            guard try await trust.maySend(to: envelope.sourceAccount) else { return event }
            // A warning stays on the record as a notice; nothing waits for the user.
            try adoptIdentityKey(key, of: envelope.sourceAccount, device: envelope.sourceDevice)
            return try processor.process(envelope)
        case .undecryptable, .duplicate:
            return event
        default:
            _ = try await trust.observe(key, for: envelope.sourceAccount)
            return event
        }
    }
}
