import CourierCore
import Foundation
import Testing

@testable import Messenger

/// Attachments inside messages: uploaded encrypted, the pointer inside the end-to-end encrypted
/// text, downloaded and checked on the other side.
@Suite(.timeLimit(.minutes(3)))
struct ClientAttachmentTests {
    static func photo(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    @Test func aPhotoRoundTripsBetweenTwoAccountsAndATamperedDigestIsRefused() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let photo = Self.photo(200_000)
        let sent = try await alice.send(
            attachment: photo, contentType: "image/jpeg", fileName: "cat.jpg", caption: "look at this",
            to: bob.credentials.accountId)
        #expect(sent.state == .sent)
        #expect(sent.attachment?.size == photo.count)

        #expect(try await bob.sync().bodies == ["look at this"])
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        let received = try #require(try await bob.messages(in: conversation).first)
        let pointer = try #require(received.attachment)
        #expect(pointer == sent.attachment, "the receiver's message holds the pointer")
        #expect(pointer.contentType == "image/jpeg" && pointer.fileName == "cat.jpg")
        #expect(try await bob.download(pointer) == photo)
        #expect(try await alice.messages(in: conversation).first?.attachment == pointer, "kept on the sender too")

        // A pointer whose digest was altered is refused before anything is decrypted.
        var digest = pointer.digest
        digest[0] ^= 0x01
        let altered = try AttachmentPointer(
            id: pointer.id, key: pointer.key, digest: digest, size: pointer.size, contentType: pointer.contentType)
        await #expect { try await bob.download(altered) } throws: { ($0 as? AttachmentError)?.code == .digestMismatch }

        // A byte flipped in the server's copy: the same refusal.
        let path = server.root + "/server/attachments/" + pointer.id
        var blob = try Data(contentsOf: URL(fileURLWithPath: path))
        blob[blob.count / 2] ^= 0x01
        try blob.write(to: URL(fileURLWithPath: path))
        await #expect { try await bob.download(pointer) } throws: { ($0 as? AttachmentError)?.code == .digestMismatch }
        try server.expectNoPlaintext(["look at this", "cat.jpg"])
    }

    @Test func aMalformedPointerInsideAMessageIsUndecryptableAndRecordedOnce() async throws {
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        let content = MessageContent.text(body: "broken", attachment: Array("{\"id\":1}".utf8), sentAt: 1, group: nil)
        _ = try await alice.sendMessage(content, text: "broken", attachment: nil, conversation: conversation) {
            [bob.credentials.accountId]
        }
        let events = try await bob.sync()
        guard case .undecryptable = try #require(events.first) else {
            Issue.record("a malformed pointer was accepted: \(events)")
            return
        }
        #expect(try await bob.messages(in: conversation).isEmpty)
        #expect(try await bob.api.pending(after: 0, limit: 10, as: bob.credentials).envelopes.isEmpty, "acknowledged")
    }
}
