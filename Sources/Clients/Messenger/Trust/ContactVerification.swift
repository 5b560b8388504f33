import SignalProtocol

/// Safety numbers, verification and key-change warnings for every contact.
///
/// The session layer calls `observe(_:for:)` with each identity key it meets (a fetched prekey
/// bundle, a `PreKeySignalMessage`, or when `IdentityKeyStore.saveIdentity` reports a change);
/// a different key publishes an `IdentityChangeWarning` on `warnings`, voids a verification,
/// and, per `IdentityChangePolicy`, makes `maySend(to:)` false until `acceptChange(for:)`.
///
/// ```swift
/// let trust = ContactVerification(presenter: presenter, store: InMemoryContactTrustStore())
/// Task { for await warning in trust.warnings { showBanner(warning) } }
/// _ = try await trust.observe(bundle.identityKey, for: bob)
/// let number = try await trust.safetyNumber(for: bob)             // show digits and QR code
/// let result = try await trust.verify(bob, scanned: cameraBytes)   // .match marks Bob verified
/// ```
public actor ContactVerification {
    /// Computes the numbers.
    public nonisolated let presenter: SafetyNumberPresenter
    /// When a change blocks sending.
    public nonisolated let policy: IdentityChangePolicy
    /// Key changes as they are observed (one consumer).
    public nonisolated let warnings: AsyncStream<IdentityChangeWarning>
    private let continuation: AsyncStream<IdentityChangeWarning>.Continuation
    private let store: any ContactTrustStore

    /// Creates the model.
    /// - Parameters:
    ///   - presenter: our identifier and key.
    ///   - store: where records are kept.
    ///   - policy: when a changed key blocks sending.
    public init(
        presenter: SafetyNumberPresenter, store: any ContactTrustStore,
        policy: IdentityChangePolicy = .blockUntilAccepted
    ) {
        self.presenter = presenter
        self.store = store
        self.policy = policy
        (warnings, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(100))
    }

    deinit { continuation.finish() }

    /// Records `key` for `contact`: trusted on first use; a different key voids any verification
    /// and raises a warning.
    /// - Throws: the store's error.
    public func observe(_ key: IdentityKey, for contact: String) throws -> IdentityObservation {
        guard var record = try store.record(for: contact) else {
            try store.save(ContactTrustRecord(contact: contact, identityKey: key))
            return .firstSeen
        }
        guard record.identityKey != key else { return .unchanged }
        let wasVerified = record.verification == .verified
        let blocks =
            switch policy {
            case .blockUntilAccepted: true
            case .blockIfVerified: wasVerified || record.pendingChange?.blocksSending == true
            case .warnOnly: false
            }
        let warning = IdentityChangeWarning(
            contact: contact, previousKey: record.identityKey, newKey: key, wasVerified: wasVerified,
            blocksSending: blocks)
        record.identityKey = key
        record.verification = .unverified
        record.pendingChange = warning
        try store.save(record)
        continuation.yield(warning)
        return .changed(warning)
    }

    /// What is recorded for `contact`, or nil for a contact never observed.
    /// - Throws: the store's error.
    public func record(for contact: String) throws -> ContactTrustRecord? { try store.record(for: contact) }

    /// The safety number for `contact`'s recorded key, or nil for a contact never observed.
    /// - Throws: the store's error; `SignalProtocolError` for bad iterations.
    public func safetyNumber(for contact: String) throws -> SafetyNumberPresentation? {
        guard let record = try store.record(for: contact) else { return nil }
        return try presenter.present(contact: contact, key: record.identityKey)
    }

    /// Compares a scanned QR code with `contact`'s number; a match marks the recorded key verified
    /// (and accepts a pending change, since the user has just checked the new key).
    /// - Returns: the scan result; `.identityMismatch` for a contact never observed.
    /// - Throws: the store's error.
    public func verify(_ contact: String, scanned: [UInt8]) throws -> SafetyNumberScanResult {
        guard let number = try safetyNumber(for: contact) else { return .identityMismatch }
        let result = number.compare(scanned: scanned)
        if result == .match { _ = try markVerified(contact, key: number.contactKey) }
        return result
    }

    /// Marks `contact` verified after the user compared the digits for `key` by eye.
    /// - Parameter key: the key the user saw the number for; if the contact's key changed
    ///   meanwhile, nothing is marked.
    /// - Returns: whether the contact is now verified.
    /// - Throws: the store's error.
    public func markVerified(_ contact: String, key: IdentityKey) throws -> Bool {
        guard var record = try store.record(for: contact), record.identityKey == key else { return false }
        record.verification = .verified
        record.pendingChange = nil
        try store.save(record)
        return true
    }

    /// Clears `contact`'s verification.
    /// - Throws: the store's error.
    public func markUnverified(_ contact: String) throws {
        guard var record = try store.record(for: contact) else { return }
        record.verification = .unverified
        try store.save(record)
    }

    /// The user accepted `contact`'s new key: sending resumes; the key stays unverified.
    /// - Throws: the store's error.
    public func acceptChange(for contact: String) throws {
        guard var record = try store.record(for: contact), record.pendingChange != nil else { return }
        record.pendingChange = nil
        try store.save(record)
    }

    /// Whether messages may be sent to `contact` now (false while a blocking change is pending).
    /// - Throws: the store's error.
    public func maySend(to contact: String) throws -> Bool {
        try store.record(for: contact)?.pendingChange?.blocksSending != true
    }
}
