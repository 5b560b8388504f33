import Foundation
import SignalProtocol

/// The SignalProtocol-only cost of what one messenger send does, for `courier-bench messenger`:
/// the same encryptions and decryptions on the same kind of store (sealed `SQLiteSignalStore`
/// files), with no network and no messenger tables.
struct MessengerCryptoBaseline {
    let directory: String
    let sender: SQLiteSignalStore
    let receivers: [SQLiteSignalStore]
    let senderAddress = ProtocolAddress(name: "sender", deviceId: 1)

    /// A sender with a session to each of `receiverCount` receivers (bundles processed, first
    /// message decrypted, so what is measured is the steady state).
    init(receiverCount: Int) throws {
        directory = NSTemporaryDirectory() + "messenger-crypto-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        sender = try Self.store(directory + "/sender")
        var receivers: [SQLiteSignalStore] = []
        for index in 0..<receiverCount {
            let receiver = try Self.store(directory + "/receiver-\(index)")
            let signed = try SignedPreKeyRecord.generate(identity: receiver.identityKeyPair(), id: 1, timestamp: 0)
            try receiver.storeSignedPreKey(signed)
            let address = Self.address(index)
            try SessionBuilder(stores: sender.stores, remoteAddress: address).process(
                bundle: PreKeyBundle(
                    registrationId: receiver.localRegistrationId(), deviceId: 1, preKeyId: nil, preKey: nil,
                    signedPreKeyId: 1, signedPreKey: signed.keyPair.publicKey,
                    signedPreKeySignature: signed.signature, identityKey: receiver.identityKeyPair().identityKey))
            let opening = try SessionCipher(stores: sender.stores, remoteAddress: address).encrypt([0])
            _ = try SessionCipher(stores: receiver.stores, remoteAddress: senderAddress).decrypt(opening)
            let reply = try SessionCipher(stores: receiver.stores, remoteAddress: senderAddress).encrypt([0])
            _ = try SessionCipher(stores: sender.stores, remoteAddress: address).decrypt(reply)
            receivers.append(receiver)
        }
        self.receivers = receivers
    }

    static func address(_ index: Int) -> ProtocolAddress { ProtocolAddress(name: "receiver-\(index)", deviceId: 1) }

    static func store(_ path: String) throws -> SQLiteSignalStore {
        try SQLiteSignalStore(
            path: path + ".sqlite", keyProvider: FileKeyProvider(path: path + ".key"),
            identity: IdentityKeyPair.generate(), registrationId: KeyHelper.generateRegistrationId())
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// Messages per second when each message is encrypted once per receiver and decrypted by each.
    func pairwise(messages: Int, plaintext: [UInt8]) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<messages {
            for (index, receiver) in receivers.enumerated() {
                let message = try SessionCipher(stores: sender.stores, remoteAddress: Self.address(index)).encrypt(
                    plaintext)
                _ = try SessionCipher(stores: receiver.stores, remoteAddress: senderAddress).decrypt(message)
            }
        }
        return Double(messages) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Messages per second when each message is encrypted once with a sender key and decrypted by
    /// each receiver.
    func senderKeys(messages: Int, plaintext: [UInt8]) throws -> Double {
        let name = SenderKeyName(groupId: "bench", sender: senderAddress)
        let distribution = try GroupCipher(store: sender).distributionMessage(for: name)
        for receiver in receivers { try GroupCipher(store: receiver).process(distribution, from: name) }
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<messages {
            let message = try GroupCipher(store: sender).encrypt(plaintext, for: name)
            for receiver in receivers { _ = try GroupCipher(store: receiver).decrypt(message, from: name) }
        }
        return Double(messages) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
