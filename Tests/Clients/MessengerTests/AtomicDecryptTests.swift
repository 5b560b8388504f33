import CourierCore
import CourierHTTP
import CourierTesting
import Foundation
import SignalProtocol
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(3)))
struct AtomicDecryptTests {
    /// Bob's pending envelopes as the server hands them out, without processing them.
    func pending(_ device: MessengerClient) async throws -> [JSONValue] {
        try await device.api.pending(after: 0, limit: 100, as: device.credentials).envelopes.map(\.envelope)
    }

    @Test func aDuplicatedEnvelopeYieldsOneMessageAndLeavesTheRatchetAlone() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        try await alice.send(text: "only once", to: bob.credentials.accountId)
        try await alice.send(text: "and the next", to: bob.credentials.accountId)
        let envelopes = try await pending(bob)
        try #require(envelopes.count == 2)
        let first = try IncomingEnvelope(json: envelopes[0])

        guard case .message(let message) = try bob.processor.process(first) else {
            Issue.record("the first delivery is not stored")
            return
        }
        #expect(message.body == "only once")
        #expect(try bob.processor.process(first) == .duplicate)
        // The same ids with other bytes: recognised before any decrypt, so not even a MAC check runs.
        var tampered = first
        tampered.content[tampered.content.count - 1] ^= 0x01
        #expect(try bob.processor.process(tampered) == .duplicate)
        // The ratchet did not move: the next message still decrypts.
        #expect(try bob.processor.process(IncomingEnvelope(json: envelopes[1])).isMessage("and the next"))
        let stored = try await bob.messages(
            in: MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId))
        #expect(stored.map(\.body) == ["only once", "and the next"])
    }

    @Test func aFailedStoreRollsBackTheSessionAndKeepsTheOneTimePreKey() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        try await alice.send(text: "opening message", to: bob.credentials.accountId)
        let envelope = try IncomingEnvelope(json: try #require(try await pending(bob).first))
        let opening = try PreKeySignalMessage(serialized: envelope.content)
        let preKeyId = try #require(opening.preKeyId)
        let aliceAddress = ProtocolAddress(name: alice.credentials.accountId, deviceId: 1)

        // The message store refuses the insert (as a full disk or a crash before commit would).
        try bob.storage.transaction { _, _, db in
            try db.execute(
                """
                CREATE TRIGGER refuse_messages BEFORE INSERT ON messenger_messages
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }
        #expect(throws: ConversationStoreError.self) { try bob.processor.process(envelope) }
        #expect(try bob.storage.signal.loadPreKey(id: preKeyId) != nil, "the one-time prekey is still there")
        #expect(try SessionCipher(stores: bob.storage.signal.stores, remoteAddress: aliceAddress).hasSession() == false)

        try bob.storage.transaction { _, _, db in try db.execute("DROP TRIGGER refuse_messages") }
        #expect(try bob.processor.process(envelope).isMessage("opening message"))
        #expect(try bob.storage.signal.loadPreKey(id: preKeyId) == nil, "consumed with the commit")
        #expect(try SessionCipher(stores: bob.storage.signal.stores, remoteAddress: aliceAddress).hasSession())
    }

    @Test(arguments: [
        #"{"type":1}"#,
        #"{"type":1,"sourceAccount":"a","sourceDevice":1,"clientMessageId":"c","conversationId":"x","serverSeq":1,"content":"%%%"}"#,
    ])
    func malformedEnvelopesAreRefused(_ text: String) throws {
        let json = try JSONParser.parse(Array(text.utf8))
        #expect(throws: MessengerClientError.self) { try IncomingEnvelope(json: json) }
    }

    @Test func garbageCiphertextIsRecordedAsUndecryptableOnce() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let bob = try await server.register("bob")
        let json: JSONValue = [
            "type": 2, "sourceAccount": "mallory", "sourceDevice": 1, "clientMessageId": "m-1",
            "conversationId": "dm:bob:mallory", "serverSeq": 1, "content": .string(Base64.encode([0x33, 1, 2, 3])),
        ]
        let envelope = try IncomingEnvelope(json: json)
        guard case .undecryptable = try bob.processor.process(envelope) else {
            Issue.record("garbage was not reported as undecryptable")
            return
        }
        #expect(try bob.processor.process(envelope) == .duplicate)
    }

    @Test func aCorruptSessionRecordIsAStorageFailureAndTheEnvelopeStaysOnTheServer() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        try await alice.send(text: "one", to: bob.credentials.accountId)
        #expect(try await bob.sync().bodies == ["one"])
        try await alice.send(text: "two", to: bob.credentials.accountId)
        // Flip a byte of Bob's sealed session with Alice, as a disk fault would.
        let raw = try Database(path: server.configuration("bob").directory + "/messenger.sqlite")
        try raw.execute("UPDATE signal_sessions SET record = CAST(zeroblob(length(record)) AS BLOB)")
        await #expect(throws: MessengerClientError.self) { try await bob.sync() }
        let pending = try await bob.api.pending(after: 0, limit: 10, as: bob.credentials).envelopes
        #expect(pending.count == 1, "not acknowledged as undecryptable")
    }

    @Test func aChangedIdentityKeyBlocksSendingUntilAccepted() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let bobAccount = bob.credentials.accountId
        try await alice.send(text: "hello old bob", to: bobAccount)
        #expect(try await bob.sync().bodies == ["hello old bob"])

        // Bob reinstalls: same account and password, a new identity key and new prekeys.
        let reinstalled = try await Self.reinstall(bob, server: server)
        try await reinstalled.send(text: "new phone, who dis", to: alice.credentials.accountId)

        let events = try await alice.sync()
        #expect(events == [.identityChanged(account: bobAccount)])
        #expect(try await alice.pendingIdentityChange(of: bobAccount) != nil)
        await #expect(throws: MessengerClientError.self) { try await alice.send(text: "blocked", to: bobAccount) }

        try await alice.acceptIdentityChange(of: bobAccount)
        #expect(try await alice.sync().bodies == ["new phone, who dis"], "the held envelope was kept on the server")
        try await alice.send(text: "welcome back", to: bobAccount)
        #expect(try await reinstalled.sync().bodies == ["welcome back"])
        try server.expectNoPlaintext(["hello old bob", "new phone, who dis", "welcome back"])
    }

    /// A new install of `device`'s account: a fresh directory and identity, the old credentials.
    static func reinstall(_ device: MessengerClient, server: MessengerTestServer) async throws -> MessengerClient {
        var configuration = server.configuration("reinstalled-" + device.credentials.accountId)
        configuration.deviceName = "reinstalled"
        let (storage, credentials) = try await DeviceRegistration.create(
            configuration: configuration, identity: try IdentityKeyPair.generate(), api: device.api,
            password: device.credentials.password
        ) { _, _ in (device.credentials.accountId, device.credentials.deviceId) }
        return MessengerClient(
            configuration: configuration, storage: storage, credentials: credentials, api: device.api)
    }
}

extension IncomingEvent {
    func isMessage(_ body: String) -> Bool {
        if case .message(let message) = self { return message.body == body }
        return false
    }
}
