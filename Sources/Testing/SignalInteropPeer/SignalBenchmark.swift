import SignalProtocol

/// Throughput of this implementation beside libsignal-protocol-c measured in the same process,
/// on the same 100-byte messages and in-memory stores.
package enum SignalBenchmark {
    /// One measured figure for both implementations.
    package struct Row: Sendable {
        /// What was measured.
        package let name: String
        /// Operations per second, this implementation.
        package let ours: Double
        /// Operations per second, libsignal-protocol-c.
        package let libsignal: Double
    }

    /// All rows.
    package struct Report: Sendable {
        /// The figures.
        package let rows: [Row]

        /// A fixed-width table.
        package var table: String {
            func pad(_ text: String, _ width: Int) -> String {
                text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
            }
            var lines = ["benchmark                               courier/s   libsignal-c/s   ratio"]
            for row in rows {
                let ratio = row.libsignal > 0 ? row.ours / row.libsignal : 0
                lines.append(
                    row.name + String(repeating: " ", count: max(38 - row.name.count, 0)) + pad(format(row.ours), 11)
                        + pad(format(row.libsignal), 16) + pad(format(ratio, decimals: 2), 8))
            }
            return lines.joined(separator: "\n")
        }

        private func format(_ value: Double, decimals: Int = 0) -> String {
            guard decimals > 0 else { return String(Int(value.rounded())) }
            let scaled = (value * 100).rounded() / 100
            return String(scaled)
        }
    }

    /// Runs every scenario.
    /// - Parameter messages: messages per message scenario; sessions use a tenth of it.
    package static func run(messages: Int = 2000) throws -> Report {
        let payload = [UInt8](repeating: 0x61, count: 100)
        let sessions = max(messages / 10, 10)
        return Report(rows: [
            Row(
                name: "session setup (bundle+X3DH+1st msg)",
                ours: try rate(sessions) { try oursSessions(sessions, payload) },
                libsignal: try rate(sessions) { try peerSessions(sessions, payload) }),
            Row(
                name: "alternating encrypt+decrypt, 100 B",
                ours: try rate(messages) { try oursMessages(messages, payload, alternating: true) },
                libsignal: try rate(messages) { try peerMessages(messages, payload, alternating: true) }),
            Row(
                name: "one-way encrypt+decrypt, 100 B",
                ours: try rate(messages) { try oursMessages(messages, payload, alternating: false) },
                libsignal: try rate(messages) { try peerMessages(messages, payload, alternating: false) }),
        ])
    }

    /// Runs only Courier's one-way message loop (for profiling).
    package static func runOneWayOnly(messages: Int) throws {
        try oursMessages(messages, [UInt8](repeating: 0x61, count: 100), alternating: false)
    }

    private static func rate(_ operations: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        var failure: (any Error)?
        let elapsed = clock.measure {
            do { try body() } catch { failure = error }
        }
        if let failure { throw failure }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(operations) / seconds : 0
    }

    private struct Device {
        let store: InMemorySignalStore
        let identity: IdentityKeyPair
        let address: ProtocolAddress
        init(_ name: String) throws {
            identity = try IdentityKeyPair.generate()
            store = InMemorySignalStore(identity: identity, registrationId: try KeyHelper.generateRegistrationId())
            address = ProtocolAddress(name: name, deviceId: 1)
        }
        func bundle(preKeyId: UInt32) throws -> PreKeyBundle {
            let signed = try SignedPreKeyRecord.generate(identity: identity, id: preKeyId, timestamp: 0)
            let preKey = PreKeyRecord(id: preKeyId, keyPair: try .generate())
            store.storeSignedPreKey(signed)
            store.storePreKey(preKey)
            return PreKeyBundle(
                registrationId: store.localRegistrationId(), deviceId: 1, preKeyId: preKeyId,
                preKey: preKey.keyPair.publicKey, signedPreKeyId: signed.id, signedPreKey: signed.keyPair.publicKey,
                signedPreKeySignature: signed.signature, identityKey: identity.identityKey)
        }
    }

    private static func oursSessions(_ count: Int, _ payload: [UInt8]) throws {
        let alice = try Device("alice")
        let bob = try Device("bob")
        for index in 0..<count {
            let bobAddress = ProtocolAddress(name: "bob", deviceId: UInt32(index + 1))
            let aliceAddress = ProtocolAddress(name: "alice", deviceId: UInt32(index + 1))
            try SessionBuilder(stores: alice.store.stores, remoteAddress: bobAddress)
                .process(bundle: bob.bundle(preKeyId: UInt32(index + 1)))
            let message = try SessionCipher(stores: alice.store.stores, remoteAddress: bobAddress).encrypt(payload)
            _ = try SessionCipher(stores: bob.store.stores, remoteAddress: aliceAddress).decrypt(message)
        }
    }

    private static func peerSessions(_ count: Int, _ payload: [UInt8]) throws {
        let alice = try LibSignalPeer(name: "alice")
        let bob = try LibSignalPeer(name: "bob")
        for index in 0..<count {
            let bobAddress = ProtocolAddress(name: "bob", deviceId: UInt32(index + 1))
            let aliceAddress = ProtocolAddress(name: "alice", deviceId: UInt32(index + 1))
            try alice.process(
                bob.bundle(preKeyId: UInt32(index + 1), signedPreKeyId: UInt32(index + 1)), from: bobAddress)
            let message = try alice.encrypt(payload, to: bobAddress)
            _ = try bob.decrypt(message, from: aliceAddress)
        }
    }

    private static func oursMessages(_ count: Int, _ payload: [UInt8], alternating: Bool) throws {
        let alice = try Device("alice")
        let bob = try Device("bob")
        try SessionBuilder(stores: alice.store.stores, remoteAddress: bob.address).process(
            bundle: bob.bundle(preKeyId: 1))
        let toBob = SessionCipher(stores: alice.store.stores, remoteAddress: bob.address)
        let toAlice = SessionCipher(stores: bob.store.stores, remoteAddress: alice.address)
        _ = try toAlice.decrypt(toBob.encrypt(payload))
        _ = try toBob.decrypt(toAlice.encrypt(payload))
        for index in 0..<count {
            if alternating && index % 2 == 1 {
                _ = try toBob.decrypt(toAlice.encrypt(payload))
            } else {
                _ = try toAlice.decrypt(toBob.encrypt(payload))
            }
        }
    }

    private static func peerMessages(_ count: Int, _ payload: [UInt8], alternating: Bool) throws {
        let alice = try LibSignalPeer(name: "alice")
        let bob = try LibSignalPeer(name: "bob")
        try alice.process(bob.bundle(preKeyId: 1, signedPreKeyId: 1), from: bob.address)
        _ = try bob.decrypt(alice.encrypt(payload, to: bob.address), from: alice.address)
        _ = try alice.decrypt(bob.encrypt(payload, to: alice.address), from: bob.address)
        for index in 0..<count {
            if alternating && index % 2 == 1 {
                _ = try alice.decrypt(bob.encrypt(payload, to: alice.address), from: bob.address)
            } else {
                _ = try bob.decrypt(alice.encrypt(payload, to: bob.address), from: alice.address)
            }
        }
    }
}
