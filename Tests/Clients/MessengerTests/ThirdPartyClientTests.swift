import CourierCore
import CourierTesting
import Foundation
import Testing

@testable import Messenger

/// A client Courier did not write: `Tests/peers/axolotl_peer.py`, on python-axolotl 0.2.3 (the
/// libsignal-protocol-java lineage), built only from the documented API (`/openapi.json`,
/// docs/messenger-server.md). It registers, uploads its keys, fetches a Courier client's bundle
/// and exchanges messages with that client through the real server, both ways.
@Suite(.timeLimit(.minutes(3)))
struct ThirdPartyClientTests {
    /// A server, a Courier client and a registered peer.
    struct Scene {
        let server: MessengerTestServer
        let courier: MessengerClient
        let peer: AxolotlPeer
        let peerAccount: String
        var courierAccount: String { courier.credentials.accountId }
        var conversation: String { MessengerClient.conversationId(courierAccount, peerAccount) }

        /// Whether the peer's mailbox empties. Acks travel on the socket and the server deletes
        /// them in batches, off the socket's path, while the next request goes over HTTP: a test
        /// waits for the mailbox itself.
        func peerMailboxEmpties() async -> Bool {
            await poll {
                (try? server.store.mailbox(accountId: peerAccount, deviceId: 1, afterId: 0, limit: 1))?.isEmpty == true
            }
        }

        static func make() async throws -> Scene {
            let python = ProjectPaths.python
            try #require(
                FileManager.default.isExecutableFile(atPath: python),
                "no Python venv at \(python): run `make test` (or scripts/bootstrap test) first")
            let server = try MessengerTestServer()
            do {
                let courier = try await server.register("courier")
                let peer = try AxolotlPeer(serverURL: server.baseURL)
                let registered = try await peer.run("register axolotl")
                let account = try #require(registered.last?["account"]?.stringValue)
                #expect(registered.last?["device"]?.intValue == 1)
                return Scene(server: server, courier: courier, peer: peer, peerAccount: account)
            } catch {
                server.finish()
                throw error
            }
        }

        /// Ends the peer; the test's `defer` stops the server.
        func finish() async throws {
            #expect(try await peer.quit() == 0)
        }

        /// What the peer's `send` reported: the envelope types and the server's seq.
        func peerSends(_ text: String) async throws -> (types: [Int64], serverSeq: Int64?) {
            let sent = try #require(try await peer.run("send \(courierAccount) \(text)").last)
            return ((sent["types"]?.arrayValue ?? []).compactMap(\.intValue), sent["serverSeq"]?.intValue)
        }
    }

    @Test func messagesFlowBothWaysInCourierNumberingAndContentFormat() async throws {
        let scene = try await Scene.make()
        defer { scene.server.finish() }
        let courier = scene.courier

        // Peer → Courier: prekey messages (3) until the peer hears back.
        #expect(try await scene.peerSends("hello from axolotl").types == [3])
        #expect(try await scene.peerSends("second before any answer").types == [3])
        let received = try await courier.sync()
        #expect(received.bodies == ["hello from axolotl", "second before any answer"])
        let stored = try await courier.messages(in: scene.conversation)
        #expect(stored.map(\.body) == ["hello from axolotl", "second before any answer"])
        #expect(stored.map(\.sender.account) == [scene.peerAccount, scene.peerAccount])
        #expect(stored.map(\.serverSeq) == [1, 2])
        #expect(stored.allSatisfy { $0.sentAt > 1_700_000_000_000 }, "sentAt in milliseconds")

        // Courier → peer, three replies decrypted newest first: skipped message keys in python-axolotl.
        let replies = ["reply one", "reply two", "reply three"]
        for reply in replies { _ = try await courier.send(text: reply, to: scene.peerAccount) }
        let fetched = try await scene.peer.run("fetch-reversed")
        let messages = fetched.filter { $0["event"]?.stringValue == "message" }
        #expect(messages.compactMap { $0["body"]?.stringValue } == replies.reversed())
        #expect(messages.compactMap { $0["serverSeq"]?.intValue } == [5, 4, 3])
        #expect(messages.allSatisfy { $0["type"]?.intValue == 2 }, "Courier answers in a whisper message")
        #expect(messages.allSatisfy { $0["conversationId"]?.stringValue == scene.conversation })
        #expect(messages.allSatisfy { $0["source"]?.stringValue == scene.courierAccount })
        #expect(!fetched.contains { $0["event"]?.stringValue == "undecryptable" }, "\(fetched)")

        // Having heard back, the peer sends whisper messages (2).
        #expect(try await scene.peerSends("after your replies").types == [2])
        #expect(try await courier.sync().bodies == ["after your replies"])

        // Courier → peer live over the delivery socket, acknowledged with 200s.
        try scene.peer.start("socket 2")
        let open = try #require(try await scene.peer.waitFor("socket-open").last)
        #expect(open["keepalive"]?.intValue == 200)
        _ = try await courier.send(text: "live one", to: scene.peerAccount)
        _ = try await courier.send(text: "live two", to: scene.peerAccount)
        let live = try await scene.peer.waitFor("socket-done")
        #expect(
            live.filter { $0["event"]?.stringValue == "message" }.compactMap { $0["body"]?.stringValue }
                == ["live one", "live two"])
        #expect(await scene.peerMailboxEmpties(), "the socket's acks deleted every envelope")
        let afterSocket = try await scene.peer.run("fetch-reversed")
        #expect(afterSocket.last?["count"]?.intValue == 0, "nothing acknowledged is handed out again")

        #expect(
            try await courier.messages(in: scene.conversation).map(\.body) == [
                "hello from axolotl", "second before any answer", "reply one", "reply two", "reply three",
                "after your replies", "live one", "live two",
            ])
        try scene.server.expectNoPlaintext(["hello from axolotl", "reply three", "live two"])
        try await scene.finish()
    }

    @Test func aTamperedCiphertextIsRefusedAndAReplayIsNotShownTwice() async throws {
        let scene = try await Scene.make()
        defer { scene.server.finish() }
        let courier = scene.courier
        _ = try await scene.peerSends("first")
        #expect(try await courier.sync().bodies == ["first"])
        _ = try await courier.send(text: "answer", to: scene.peerAccount)
        #expect(
            try await scene.peer.run("fetch-reversed").compactMap { $0["body"]?.stringValue } == ["answer"])

        // One flipped ciphertext byte: the MAC fails, nothing is stored, the envelope is acked.
        let tampered = try #require(try await scene.peer.run("tamper \(scene.courierAccount) forged").last)
        #expect(tampered["types"]?.arrayValue?.compactMap(\.intValue) == [2])
        let afterTamper = try await courier.sync()
        #expect(afterTamper.bodies.isEmpty)
        #expect(afterTamper.contains { if case .undecryptable = $0 { true } else { false } }, "\(afterTamper)")
        #expect(try await courier.api.pending(after: 0, limit: 10, as: courier.credentials).envelopes.isEmpty)

        // The session survives the forgery: the next genuine message decrypts.
        _ = try await scene.peerSends("genuine")
        #expect(try await courier.sync().bodies == ["genuine"])

        // The same request again: the server recognises the clientMessageId and stores nothing.
        let same = try #require(try await scene.peer.run("replay-same").last)
        #expect(same["duplicate"]?.boolValue == true)
        #expect(try await courier.sync().isEmpty)
        // The same ciphertext under a new clientMessageId reaches the client, whose ratchet refuses it.
        let fresh = try #require(try await scene.peer.run("replay-fresh").last)
        #expect(fresh["duplicate"]?.boolValue == false)
        let afterReplay = try await courier.sync()
        #expect(afterReplay.bodies.isEmpty, "\(afterReplay)")
        #expect(afterReplay.count == 1)

        // Signal-Server's numbering (1 for a ratchet message) is not Courier's: acknowledged, dropped.
        let signalTyped = try #require(
            try await scene.peer.run("signal-numbering \(scene.courierAccount) typed 1").last)
        #expect(signalTyped["types"]?.arrayValue?.compactMap(\.intValue) == [1])
        let afterSignalTyped = try await courier.sync()
        #expect(afterSignalTyped.bodies.isEmpty)
        #expect(afterSignalTyped.count == 1)
        #expect(try await courier.api.pending(after: 0, limit: 10, as: courier.credentials).envelopes.isEmpty)

        #expect(try await courier.messages(in: scene.conversation).map(\.body) == ["first", "answer", "genuine"])
        try await scene.finish()
    }

    @Test func unackedEnvelopesComeBackAndAreDroppedByIdAndTheSocketCarriesSends() async throws {
        let scene = try await Scene.make()
        defer { scene.server.finish() }
        let courier = scene.courier
        _ = try await scene.peerSends("hi")
        #expect(try await courier.sync().bodies == ["hi"])

        // Read but never acknowledged, as by a client that died before its acks.
        for text in ["unacked one", "unacked two"] { _ = try await courier.send(text: text, to: scene.peerAccount) }
        let unacked = try await scene.peer.run("socket 2 noack")
        #expect(
            unacked.filter { $0["event"]?.stringValue == "message" }.compactMap { $0["body"]?.stringValue }
                == ["unacked one", "unacked two"])

        // The next connection gets them again first; the peer drops them by clientMessageId.
        try scene.peer.start("socket 1")
        let beforeOpen = try await scene.peer.waitFor("socket-open")
        #expect(beforeOpen.filter { $0["event"]?.stringValue == "repeat" }.count == 2, "\(beforeOpen)")
        #expect(!beforeOpen.contains { $0["event"]?.stringValue == "message" })
        _ = try await courier.send(text: "after the repeats", to: scene.peerAccount)
        let live = try await scene.peer.waitFor("socket-done")
        #expect(
            live.filter { $0["event"]?.stringValue == "message" }.compactMap { $0["body"]?.stringValue }
                == ["after the repeats"])
        #expect(await scene.peerMailboxEmpties(), "the socket's acks deleted every envelope")
        #expect(try await scene.peer.run("fetch-reversed").last?["count"]?.intValue == 0)

        // A send as a request on the socket (PUT /v1/messages/{account}) instead of over HTTP.
        let overSocket = try #require(
            try await scene.peer.run("socket-send \(scene.courierAccount) over the socket").last)
        #expect(overSocket["status"]?.intValue == 200)
        #expect(overSocket["types"]?.arrayValue?.compactMap(\.intValue) == [2])
        #expect(overSocket["serverSeq"]?.intValue == 5)
        #expect(try await courier.sync().bodies == ["over the socket"])
        try await scene.finish()
    }
}
