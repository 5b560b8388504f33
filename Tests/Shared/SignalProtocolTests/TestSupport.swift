import Foundation

@testable import SignalProtocol

/// Deterministic generator so failures reproduce (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var iterator = hex.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
        }
        self = bytes
    }
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

/// One device with its in-memory stores and published keys.
struct TestDevice {
    let name: String
    let deviceId: UInt32
    let store: InMemorySignalStore
    let identity: IdentityKeyPair
    let registrationId: UInt32
    var address: ProtocolAddress { ProtocolAddress(name: name, deviceId: deviceId) }

    init(name: String, deviceId: UInt32 = 1, policy: InMemorySignalStore.TrustPolicy = .trustOnFirstUse) throws {
        self.name = name
        self.deviceId = deviceId
        identity = try IdentityKeyPair.generate()
        registrationId = try KeyHelper.generateRegistrationId()
        store = InMemorySignalStore(identity: identity, registrationId: registrationId, policy: policy)
    }

    /// Publishes a fresh signed prekey (and one-time prekey unless `oneTime` is false) and returns the bundle.
    func bundle(preKeyId: UInt32 = 31, signedPreKeyId: UInt32 = 7, oneTime: Bool = true) throws -> PreKeyBundle {
        let signed = try SignedPreKeyRecord.generate(
            identity: identity, id: signedPreKeyId, timestamp: 1_700_000_000_000)
        store.storeSignedPreKey(signed)
        var preKey: PreKeyRecord?
        if oneTime {
            let record = PreKeyRecord(id: preKeyId, keyPair: try .generate())
            store.storePreKey(record)
            preKey = record
        }
        return PreKeyBundle(
            registrationId: registrationId, deviceId: deviceId, preKeyId: preKey?.id, preKey: preKey?.keyPair.publicKey,
            signedPreKeyId: signed.id, signedPreKey: signed.keyPair.publicKey, signedPreKeySignature: signed.signature,
            identityKey: identity.identityKey)
    }

    func cipher(to other: TestDevice, configuration: SessionConfiguration = .default) -> SessionCipher {
        SessionCipher(stores: store.stores, remoteAddress: other.address, configuration: configuration)
    }
}

/// Alice with a session to Bob, started from Bob's bundle.
func makePair(oneTime: Bool = true, configuration: SessionConfiguration = .default) throws -> (
    alice: TestDevice, bob: TestDevice
) {
    let alice = try TestDevice(name: "alice")
    let bob = try TestDevice(name: "bob")
    try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address, configuration: configuration)
        .process(bundle: bob.bundle(oneTime: oneTime))
    return (alice, bob)
}
