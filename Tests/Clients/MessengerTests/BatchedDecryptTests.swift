import CourierCore
import CourierHTTPClient
import CourierTesting
import Foundation
import Realtime
import SignalProtocol
import Synchronization
import Testing

@testable import Messenger

@Suite(.timeLimit(.minutes(3)))
struct BatchedDecryptTests {
    /// Twelve envelopes waiting on the socket are decrypted and stored together: fewer commits
    /// than envelopes, every ack sent only once its envelope's plaintext is stored, the events in
    /// delivery order.
    @Test(.timeLimit(.minutes(1))) func envelopesThatArriveTogetherShareACommitAndAreAcknowledgedAfterIt() async throws
    {
        let count = 12
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let bodies = (0..<count).map { "message \($0)" }
        for body in bodies { try await alice.send(text: body, to: bob.credentials.accountId) }
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)

        let sockets = try WebSocketClient()
        defer { inBackground { sockets.shutdown() } }
        // The first ack waits until the listener has read all twelve frames, so whatever its first
        // batch held, the rest is queued together for the next one.
        let transport = GatheringTransport(
            WebSocketTransport(client: sockets, url: bob.deliverySocketURL) { [bob] in [bob.authorizationHeader] },
            messages: count
        ) { [bob] in try await bob.messages(in: conversation).count }
        let commitsBefore = bob.storage.signal.transactionsCommitted
        let listener = try await bob.listen(transport: transport)

        var received: [String] = []
        for await event in listener.events {
            if case .message(let message) = event { received.append(message.body) }
            if received.count == count { break }
        }
        // Cancelled by the time limit (a listener that reads no frame while one is processed
        // never reads them all): the held ack goes, so the listener can stop and the test fail.
        transport.release()
        listener.stop()
        await listener.finished()

        #expect(received == bodies, "the events come in delivery order")
        let commits = bob.storage.signal.transactionsCommitted - commitsBefore
        #expect(commits < count, "\(commits) commits for \(count) envelopes")
        let acks = transport.acks
        #expect(acks.count == count)
        // Acks go out in delivery order, each after the commit that stored its plaintext.
        for (index, storedWhenSent) in acks.enumerated() {
            #expect(storedWhenSent > index, "ack \(index) went out with \(storedWhenSent) messages stored")
        }
        #expect(
            try await poll { try await bob.api.pending(after: 0, limit: 100, as: bob.credentials).envelopes.isEmpty },
            "the server deleted every acknowledged envelope")
    }

    /// An envelope in the middle of a batch that does not decrypt is recorded as undecryptable
    /// and acknowledged; the ones around it commit, in the same transaction.
    @Test func anUndecryptableEnvelopeInABatchDoesNotLoseTheOthers() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        for body in ["first", "second", "third"] { try await alice.send(text: body, to: bob.credentials.accountId) }
        var envelopes = try await bob.api.pending(after: 0, limit: 100, as: bob.credentials).envelopes.map(\.envelope)
        try #require(envelopes.count == 3)
        // The second carries the first's ciphertext again under its own id: a replay the
        // ratchet refuses after the first decrypted, earlier in the same transaction.
        envelopes[1] = try replacingContent(of: envelopes[1], with: envelopes[0])

        let commitsBefore = bob.storage.signal.transactionsCommitted
        let results = await bob.receive(socketEnvelopes: envelopes)

        #expect(bob.storage.signal.transactionsCommitted - commitsBefore == 1, "one commit for the batch")
        try #require(results.count == 3)
        #expect(results[0].event?.isMessage("first") == true)
        if case .undecryptable = results[1].event {
        } else {
            Issue.record("not undecryptable: \(String(describing: results[1].event))")
        }
        #expect(results[2].event?.isMessage("third") == true)
        #expect(results.map(\.acknowledge) == [true, true, true])
        let stored = try await bob.messages(
            in: MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId))
        #expect(stored.map(\.body) == ["first", "third"])
        // Recorded as processed: delivered again, it is a duplicate and not decrypted again.
        #expect(await bob.receive(socketEnvelopes: [envelopes[1]]).first?.event == .duplicate)
    }

    /// A storage failure on one envelope rolls the whole batch back: nothing is stored and none
    /// is acknowledged, so the server delivers all of them again; then they decrypt.
    @Test func aStorageFailureLeavesTheWholeBatchUnacknowledged() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        for body in ["first", "refused", "third"] { try await alice.send(text: body, to: bob.credentials.accountId) }
        let envelopes = try await bob.api.pending(after: 0, limit: 100, as: bob.credentials).envelopes.map(\.envelope)
        try #require(envelopes.count == 3)
        try bob.storage.transaction { _, _, db in
            try db.execute(
                """
                CREATE TRIGGER refuse_one BEFORE INSERT ON messenger_messages WHEN NEW.body = 'refused'
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        }

        let refused = await bob.receive(socketEnvelopes: envelopes)
        #expect(refused.map(\.acknowledge) == [false, false, false])
        #expect(refused.allSatisfy { $0.event == nil })
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        #expect(try await bob.messages(in: conversation).isEmpty, "nothing of the batch committed")

        try bob.storage.transaction { _, _, db in try db.execute("DROP TRIGGER refuse_one") }
        let again = await bob.receive(socketEnvelopes: envelopes)
        #expect(again.map(\.acknowledge) == [true, true, true])
        #expect(try await bob.messages(in: conversation).map(\.body) == ["first", "refused", "third"])
    }

    /// `json` carrying the ciphertext of `other`.
    private func replacingContent(of json: JSONValue, with other: JSONValue) throws -> JSONValue {
        var object = try #require(json.objectValue)
        object["content"] = .string(try #require(other["content"]?.stringValue))
        return .object(object)
    }
}

/// Wraps a transport's socket: holds the first ack of a delivered message until the listener
/// has read `messages` message frames and asked for the next one, and records, for each such
/// ack, how many messages were stored when it went out.
private final class GatheringTransport: RealtimeTransport {
    private let inner: any RealtimeTransport
    private let messages: Int
    private let storedCount: @Sendable () async throws -> Int
    private let state = Mutex(GatherState())

    init(_ inner: any RealtimeTransport, messages: Int, storedCount: @escaping @Sendable () async throws -> Int) {
        self.inner = inner
        self.messages = messages
        self.storedCount = storedCount
    }

    func connect() async throws -> any RealtimeSocket { GatheringSocket(inner: try await inner.connect(), owner: self) }

    /// The stored-message count seen as each message's ack went out, in order.
    var acks: [Int] { state.withLock { $0.acks } }

    /// Lets a held ack go whether or not every frame was read.
    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.allRead = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The reader asks for another frame: once it had all of them, a held ack goes.
    fileprivate func reading() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.messageIds.count >= messages else { return nil }
            state.allRead = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    fileprivate func noteMessage(id: Int64) { state.withLock { _ = $0.messageIds.insert(id) } }

    /// Before an ack of a message goes out: the first waits until every frame was read.
    fileprivate func acknowledging(_ text: String) async throws {
        guard let frame = try? JSONParser.parse(text), let id = frame["id"]?.intValue,
            state.withLock({ $0.messageIds.contains(id) })
        else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let go = state.withLock { state -> Bool in
                if state.allRead || !state.acks.isEmpty { return true }
                state.waiter = continuation
                return false
            }
            if go { continuation.resume() }
        }
        let stored = try await storedCount()
        state.withLock { $0.acks.append(stored) }
    }

    private struct GatherState {
        var messageIds: Set<Int64> = []
        var allRead = false
        var waiter: CheckedContinuation<Void, Never>?
        var acks: [Int] = []
    }
}

private final class GatheringSocket: RealtimeSocket {
    private let inner: any RealtimeSocket
    private let owner: GatheringTransport

    init(inner: any RealtimeSocket, owner: GatheringTransport) {
        self.inner = inner
        self.owner = owner
    }

    func send(_ message: WebSocketMessage) async throws {
        if case .text(let text) = message, text.contains(#""type":"response""#) {
            try await owner.acknowledging(text)
        }
        try await inner.send(message)
    }

    func receive() async -> WebSocketMessage? {
        owner.reading()
        let message = await inner.receive()
        if let id = DeliveryFrames.envelopeRequestId(message) { owner.noteMessage(id: id) }
        return message
    }

    func close() { inner.close() }
}
