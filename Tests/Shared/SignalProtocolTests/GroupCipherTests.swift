import SignalInteropPeer
import Testing

@testable import SignalProtocol

struct GroupCipherTests {
    let group = "family-chat"

    @Test func membersDecryptOutOfOrderAndRefuseReplays() throws {
        let alice = try TestDevice(name: "alice")
        let bob = try TestDevice(name: "bob")
        let name = SenderKeyName(groupId: group, sender: alice.address)
        let aliceGroup = GroupCipher(store: alice.store)
        let bobGroup = GroupCipher(store: bob.store)
        let distribution = try aliceGroup.distributionMessage(for: name)
        try bobGroup.process(SenderKeyDistributionMessage(serialized: distribution.serialized), from: name)
        let messages = try (0..<10).map { try aliceGroup.encrypt([UInt8($0)], for: name) }
        for index in [3, 0, 9, 1, 2, 8, 4, 5, 7, 6] {
            let wire = try SenderKeyMessage(serialized: messages[index].serialized)
            #expect(try bobGroup.decrypt(wire, from: name) == [UInt8(index)])
        }
        let replay = #expect(throws: SignalProtocolError.self) { try bobGroup.decrypt(messages[4], from: name) }
        #expect(replay?.code == .duplicateMessage)
    }

    @Test func tamperedGroupMessagesFail() throws {
        let alice = try TestDevice(name: "alice")
        let bob = try TestDevice(name: "bob")
        let name = SenderKeyName(groupId: group, sender: alice.address)
        let aliceGroup = GroupCipher(store: alice.store)
        let bobGroup = GroupCipher(store: bob.store)
        try bobGroup.process(aliceGroup.distributionMessage(for: name), from: name)
        let bytes = try aliceGroup.encrypt(Array("hello group".utf8), for: name).serialized
        for bit in stride(from: 0, to: bytes.count * 8, by: 3) {
            var flipped = bytes
            flipped[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(throws: SignalProtocolError.self) {
                try bobGroup.decrypt(SenderKeyMessage(serialized: flipped), from: name)
            }
        }
        for length in 0..<bytes.count {
            #expect(throws: SignalProtocolError.self) {
                try bobGroup.decrypt(SenderKeyMessage(serialized: Array(bytes.prefix(length))), from: name)
            }
        }
        #expect(try bobGroup.decrypt(SenderKeyMessage(serialized: bytes), from: name) == Array("hello group".utf8))
    }

    @Test func libsignalSenderToUs() throws {
        let peer = try LibSignalPeer(name: "c")
        let ours = try TestDevice(name: "swift")
        let name = SenderKeyName(groupId: group, sender: peer.address)
        let ourGroup = GroupCipher(store: ours.store)
        try ourGroup.process(SenderKeyDistributionMessage(serialized: peer.groupCreate(group: group)), from: name)
        for index in 0..<200 {
            let plaintext = Array("group message \(index)".utf8)
            let ciphertext = try peer.groupEncrypt(group: group, plaintext)
            if index % 7 == 3 { continue }  // lost
            #expect(try ourGroup.decrypt(SenderKeyMessage(serialized: ciphertext), from: name) == plaintext)
        }
    }

    @Test func weSendToLibsignal() throws {
        let peer = try LibSignalPeer(name: "c")
        let ours = try TestDevice(name: "swift")
        let name = SenderKeyName(groupId: group, sender: ours.address)
        let ourGroup = GroupCipher(store: ours.store)
        try peer.groupProcess(
            group: group, sender: ours.address, distribution: ourGroup.distributionMessage(for: name).serialized)
        var pending: [([UInt8], [UInt8])] = []
        for index in 0..<200 {
            let plaintext = Array("to libsignal \(index)".utf8)
            pending.append((try ourGroup.encrypt(plaintext, for: name).serialized, plaintext))
            if index % 5 == 4 {
                for (ciphertext, expected) in pending.reversed() {
                    #expect(try peer.groupDecrypt(group: group, sender: ours.address, ciphertext) == expected)
                }
                pending.removeAll()
            }
        }
    }

    @Test func rotationLocksOutMembersWithoutTheNewKey() throws {
        let alice = try TestDevice(name: "alice")
        let name = SenderKeyName(groupId: group, sender: alice.address)
        let aliceGroup = GroupCipher(store: alice.store)
        let stays = GroupCipher(store: try TestDevice(name: "bob").store)
        let leaves = GroupCipher(store: try TestDevice(name: "eve").store)
        let first = try aliceGroup.distributionMessage(for: name)
        try stays.process(first, from: name)
        try leaves.process(first, from: name)
        let before = try aliceGroup.encrypt([1], for: name)
        #expect(try leaves.decrypt(before, from: name) == [1])
        try stays.process(aliceGroup.rotate(for: name), from: name)
        let after = try aliceGroup.encrypt([2], for: name)
        #expect(try stays.decrypt(after, from: name) == [2])
        let error = #expect(throws: SignalProtocolError.self) { try leaves.decrypt(after, from: name) }
        #expect(error?.code == .noSenderKeyState)
        #expect(try stays.decrypt(before, from: name) == [1])
    }
}
