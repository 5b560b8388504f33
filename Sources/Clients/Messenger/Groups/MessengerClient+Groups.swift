import CourierCore
import SignalProtocol

extension MessengerClient {
    /// The conversation id of a group.
    public static func groupConversationId(_ group: String) -> String { GroupTable.conversationPrefix + group }

    /// Creates (or updates) a group and tells every member: membership changes are messages too.
    /// - Parameters:
    ///   - members: member accounts, this one included or not.
    ///   - mode: `.pairwise` for small groups, `.senderKeys` for large ones.
    /// - Throws: `MessengerClientError`.
    public func createGroup(_ group: String, members: [String], mode: GroupMode) async throws {
        let all = Array(Set(members + [credentials.accountId])).sorted()
        try storage.transaction { _, _, db in try GroupTable.save(group: group, mode: mode, members: all, db: db) }
        try await announce(group: group, mode: mode, members: all, to: all)
    }

    /// Removes `account` from a group, tells the remaining members and the removed one, and, for
    /// sender keys, starts a new generation of this device's key so that the removed member cannot
    /// read what follows (the others rotate theirs when the update reaches them).
    /// - Throws: `.invalidArgument` for an unknown group; `MessengerClientError`.
    public func removeMember(_ account: String, from group: String) async throws {
        guard let (mode, members) = try storage.read({ try GroupTable.load(group: group, db: $0) }) else {
            throw MessengerClientError(.invalidArgument, "unknown group \(group)")
        }
        let remaining = members.filter { $0 != account }
        try storage.transaction { _, senderKeys, db in
            try GroupTable.save(group: group, mode: mode, members: remaining, db: db)
            if mode == .senderKeys {
                _ = try GroupCipher(store: senderKeys).rotate(for: ownSenderKeyName(group))
                try GroupTable.clearShares(group: group, db: db)
            }
        }
        try await announce(group: group, mode: mode, members: remaining, to: members)
    }

    /// The members of a group as this device knows them.
    public func groupMembers(_ group: String) throws -> [String] {
        try storage.read { try GroupTable.load(group: group, db: $0)?.members } ?? []
    }

    /// Sends a text to a group: pairwise, one envelope per member device; or with sender keys,
    /// encrypted once and the same ciphertext to every member device, the key distributed first
    /// over the pairwise sessions to devices that lack it.
    /// - Throws: `.invalidArgument` for an unknown group; `MessengerClientError`.
    @discardableResult
    public func send(text: String, toGroup group: String) async throws -> Message {
        guard try storage.read({ try GroupTable.load(group: group, db: $0) }) != nil else {
            throw MessengerClientError(.invalidArgument, "unknown group \(group)")
        }
        let conversation = Self.groupConversationId(group)
        let now = clock.nowMilliseconds
        let content = MessageContent.text(body: text, attachment: nil, sentAt: now, group: group)
        try? await learnOwnDevicesIfNone()
        let message = try storage.transaction(deferringSync: true) { _, _, db in
            try storeOutgoing(text: text, attachment: nil, conversation: conversation, sentAt: now, in: db)
        }
        return try await deliverToGroup(content, message: message, group: group)
    }

    /// One attempt to deliver a stored group message: pairwise to every member's devices, or
    /// encrypted once with this device's sender key.
    func deliverToGroup(_ content: MessageContent, message: Message, group: String) async throws -> Message {
        guard let (mode, members) = try storage.read({ try GroupTable.load(group: group, db: $0) }) else {
            throw MessengerClientError(.invalidArgument, "unknown group \(group)")
        }
        let others = members.filter { $0 != credentials.accountId }
        return try await attempt(message) { client in
            switch mode {
            case .pairwise: try await client.fanOut(content, of: message, to: others)
            case .senderKeys: try await client.fanOutBySenderKey(content, of: message, group: group, to: others)
            }
        }
    }

    private func fanOutBySenderKey(_ content: MessageContent, of message: Message, group: String, to accounts: [String])
        async throws -> Int64?
    {
        let name = ownSenderKeyName(group)
        // The distribution is taken before the encryption, so it opens this message too for a
        // device that the server reveals only during the send (a 409).
        let (distribution, ciphertext) = try storage.transaction { _, senderKeys, _ in
            let cipher = GroupCipher(store: senderKeys)
            return (try cipher.distributionMessage(for: name), try cipher.encrypt(content.encoded, for: name))
        }
        let bytes = ciphertext.serialized
        let distribute: SesameSender.Preparer = { [self] account, devices in
            try await self.distribute(distribution, group: group, to: account, devices: devices)
        }
        return try await sesame.send(
            toAll: accounts + [credentials.accountId], conversation: message.conversationId,
            clientMessageId: message.clientId, timestamp: message.sentAt,
            seal: { _, _ in (IncomingEnvelope.senderKeyType, bytes) }, prepare: distribute)
    }

    /// Sends this device's sender key to the devices of `account` that do not hold it yet.
    func distribute(_ distribution: SenderKeyDistributionMessage, group: String, to account: String, devices: [UInt32])
        async throws
    {
        let shared = try storage.read { try GroupTable.shares(group: group, db: $0) }
        guard devices.contains(where: { !shared.contains("\(account).\($0)") }) else { return }
        let content = MessageContent.senderKey(group: group, distribution: distribution.serialized)
        let conversation = Self.conversationId(credentials.accountId, account)
        let seq = try await sesame.send(
            to: account, conversation: conversation, clientMessageId: Identifier.uuid(),
            timestamp: clock.nowMilliseconds, seal: SesameSender.pairwise(content.encoded))
        try recordControlSequence(seq, in: conversation)
        let reached = try storage.read { try DeviceRoster.active(account: account, db: $0) }
        try storage.transaction { _, _, db in
            for device in reached { try GroupTable.addShare(group: group, account: account, device: device, db: db) }
        }
    }

    private func announce(group: String, mode: GroupMode, members: [String], to recipients: [String]) async throws {
        let content = MessageContent.groupUpdate(group: group, mode: mode, members: members)
        for account in recipients where account != credentials.accountId {
            try await sendControl(content, to: account, includeOwnDevices: false)
        }
        let seq = try await sesame.send(
            to: credentials.accountId, conversation: Self.groupConversationId(group),
            clientMessageId: Identifier.uuid(),
            timestamp: clock.nowMilliseconds, seal: SesameSender.pairwise(content.encoded))
        try recordControlSequence(seq, in: Self.groupConversationId(group))
    }

    nonisolated func ownSenderKeyName(_ group: String) -> SenderKeyName {
        SenderKeyName(
            groupId: group, sender: ProtocolAddress(name: credentials.accountId, deviceId: credentials.deviceId))
    }
}
