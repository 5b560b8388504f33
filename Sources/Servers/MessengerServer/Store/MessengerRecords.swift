/// A device of an account as the store keeps it.
public struct DeviceRecord: Sendable, Equatable {
    /// 1 for the device that created the account, then 2, 3, … in linking order.
    public var id: Int
    /// The device's Signal registration id (1…16380), which senders must name.
    public var registrationId: Int
    /// A label the device chose ("Phone", "Laptop"); opaque to the server.
    public var name: String
    /// Argon2id hash of the device's password (libsodium's encoded string).
    public var passwordHash: String
    /// When the device was added, in milliseconds since 1970.
    public var createdAt: Int64
    /// Where content-free pushes for this device go, if anywhere.
    public var push: PushEndpoint?

    /// Creates a record.
    public init(
        id: Int, registrationId: Int, name: String, passwordHash: String, createdAt: Int64, push: PushEndpoint? = nil
    ) {
        self.id = id
        self.registrationId = registrationId
        self.name = name
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.push = push
    }
}

/// Where a device wants its wake-up pushes.
public struct PushEndpoint: Sendable, Equatable, Hashable {
    /// Which kind of push service.
    public enum Kind: String, Sendable {
        /// Apple's push service: `address` is the device token (hex).
        case apns
        /// An HTTP endpoint (UnifiedPush or a webhook): `address` is its URL.
        case webhook
    }

    /// The push service.
    public var kind: Kind
    /// The token or URL.
    public var address: String

    /// Creates an endpoint.
    public init(kind: Kind, address: String) {
        self.kind = kind
        self.address = address
    }
}

/// A signed prekey: public key, id and the identity key's XEdDSA signature over the key.
public struct SignedPreKeyUpload: Sendable, Equatable {
    /// The key's id.
    public var keyId: Int
    /// The 33-byte serialized public key.
    public var publicKey: [UInt8]
    /// The 64-byte signature.
    public var signature: [UInt8]

    /// Creates a signed prekey.
    public init(keyId: Int, publicKey: [UInt8], signature: [UInt8]) {
        self.keyId = keyId
        self.publicKey = publicKey
        self.signature = signature
    }
}

/// A one-time prekey: id and 33-byte serialized public key.
public struct OneTimePreKeyUpload: Sendable, Equatable {
    /// The key's id.
    public var keyId: Int
    /// The 33-byte serialized public key.
    public var publicKey: [UInt8]

    /// Creates a one-time prekey.
    public init(keyId: Int, publicKey: [UInt8]) {
        self.keyId = keyId
        self.publicKey = publicKey
    }
}

/// One device's part of a prekey bundle.
public struct DevicePreKeys: Sendable, Equatable {
    /// The device.
    public var deviceId: Int
    /// Its registration id.
    public var registrationId: Int
    /// Its signed prekey, if it uploaded one.
    public var signedPreKey: SignedPreKeyUpload?
    /// One one-time prekey, handed out to this caller only; `nil` when none was left.
    public var oneTimePreKey: OneTimePreKeyUpload?

    /// Creates a device's part of a bundle.
    public init(
        deviceId: Int, registrationId: Int, signedPreKey: SignedPreKeyUpload? = nil,
        oneTimePreKey: OneTimePreKeyUpload? = nil
    ) {
        self.deviceId = deviceId
        self.registrationId = registrationId
        self.signedPreKey = signedPreKey
        self.oneTimePreKey = oneTimePreKey
    }
}

/// What a sender addresses to one device.
public struct OutgoingEnvelope: Sendable, Equatable {
    /// The destination device.
    public var destinationDeviceId: Int
    /// The registration id the sender believes that device has.
    public var destinationRegistrationId: Int
    /// The ciphertext's type (Signal's envelope types: 1 ciphertext, 3 prekey message, …).
    public var type: Int
    /// The ciphertext; opaque to the server.
    public var content: [UInt8]

    /// Creates an envelope.
    public init(destinationDeviceId: Int, destinationRegistrationId: Int, type: Int, content: [UInt8]) {
        self.destinationDeviceId = destinationDeviceId
        self.destinationRegistrationId = destinationRegistrationId
        self.type = type
        self.content = content
    }
}

/// One send: envelopes for every device of one account.
public struct OutgoingMessage: Sendable {
    /// The sending account and device.
    public var sourceAccount: String
    /// The sending device.
    public var sourceDevice: Int
    /// The account the envelopes are for (the sender's own, for its other devices).
    public var destinationAccount: String
    /// The conversation whose sequence numbers order this message; opaque.
    public var conversationId: String
    /// The client's id for the message (a UUID): a retry with the same id stores nothing new.
    public var clientMessageId: String
    /// The sender's timestamp, in milliseconds.
    public var timestamp: Int64
    /// One per destination device.
    public var envelopes: [OutgoingEnvelope]

    /// Creates a send.
    public init(
        sourceAccount: String, sourceDevice: Int, destinationAccount: String, conversationId: String,
        clientMessageId: String, timestamp: Int64, envelopes: [OutgoingEnvelope]
    ) {
        self.sourceAccount = sourceAccount
        self.sourceDevice = sourceDevice
        self.destinationAccount = destinationAccount
        self.conversationId = conversationId
        self.clientMessageId = clientMessageId
        self.timestamp = timestamp
        self.envelopes = envelopes
    }
}

/// What the store did with a send.
public enum SendOutcome: Sendable, Equatable {
    /// Stored: one mailbox row per device, in one transaction.
    case stored(serverSeq: Int64, mailboxIds: [Int: Int64])
    /// A retry of a send already stored: nothing new was stored.
    case duplicate(serverSeq: Int64)
    /// The envelopes do not match the account's devices (409): nothing was stored.
    case mismatchedDevices(missing: [Int], extra: [Int])
    /// Some envelopes name an old registration id (410): nothing was stored.
    case staleDevices([Int])
    /// No such account (404).
    case unknownAccount
}

/// An envelope waiting in a device's mailbox.
public struct MailboxEntry: Sendable, Equatable {
    /// The row's id: the device's delivery order and the catch-up cursor.
    public var id: Int64
    /// The envelope as delivered: JSON (see docs/messenger-server.md).
    public var envelope: [UInt8]
}
