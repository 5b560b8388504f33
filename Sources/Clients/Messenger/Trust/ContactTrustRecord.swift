import SignalProtocol

/// What this device knows and has decided about one contact's identity key.
public struct ContactTrustRecord: Sendable, Equatable {
    /// Whether the user confirmed the safety number for `identityKey`.
    public enum Verification: Sendable, Equatable {
        /// Not compared (or compared for a key the contact no longer has).
        case unverified
        /// The user compared the digits or scanned the QR code for exactly `identityKey`.
        case verified
    }

    /// The contact's stable identifier (account id).
    public let contact: String
    /// The identity key currently recorded for the contact.
    public var identityKey: IdentityKey
    /// The verification state of `identityKey`.
    public var verification: Verification
    /// A key change the user has not yet accepted; sending may be blocked while it is set.
    public var pendingChange: IdentityChangeWarning?

    /// Creates a record.
    public init(
        contact: String, identityKey: IdentityKey, verification: Verification = .unverified,
        pendingChange: IdentityChangeWarning? = nil
    ) {
        self.contact = contact
        self.identityKey = identityKey
        self.verification = verification
        self.pendingChange = pendingChange
    }
}

/// A contact's identity key changed: reinstalled app, new phone, or someone in the middle.
public struct IdentityChangeWarning: Sendable, Equatable {
    /// The contact.
    public let contact: String
    /// The key recorded before.
    public let previousKey: IdentityKey
    /// The key seen now.
    public let newKey: IdentityKey
    /// Whether the user had verified the previous key (the verification is now void).
    public let wasVerified: Bool
    /// Whether the app's policy blocks sending until the user accepts the new key.
    public let blocksSending: Bool
}

/// What `ContactVerification.observe` made of a key.
public enum IdentityObservation: Sendable, Equatable {
    /// The first key seen for the contact, trusted on first use.
    case firstSeen
    /// The recorded key.
    case unchanged
    /// A different key: the warning was also published on `warnings`.
    case changed(IdentityChangeWarning)
}

/// When a changed identity key stops sending.
public enum IdentityChangePolicy: Sendable, Equatable {
    /// Every change blocks sending until the user accepts it.
    case blockUntilAccepted
    /// Only a change of a verified contact's key blocks; others are a notice in the conversation.
    case blockIfVerified
    /// Changes never block; the warning is only shown.
    case warnOnly
}
