import CourierCore
import CourierTesting
import Foundation
import Testing

@testable import Messenger

/// An app and its notification extension are two processes on one store: `messenger-peer`
/// processes stand in for them.
@Suite(.timeLimit(.minutes(10)))
struct TwoProcessTests {
    static let messageCount = Int(ProcessInfo.processInfo.environment["MESSENGER_TWO_PROCESS_COUNT"] ?? "") ?? 1_000

    func peerArguments(_ server: MessengerTestServer, _ bob: MessengerClient, conversation: String, expected: Int)
        -> [String]
    {
        let configuration = server.configuration("bob")
        return [server.baseURL, configuration.directory, server.root + "/keys-bob", conversation, String(expected)]
    }

    func counts(_ output: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for pair in output.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { result[String(parts[0])] = value }
        }
        return result
    }

    @Test func twoProcessesDecryptingFromOneStoreNeverFailAMacNorLoseAMessage() async throws {
        let peer = try #require(builtExecutable(named: "messenger-peer"), "build messenger-peer first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        let texts = (1...Self.messageCount).map { "two-process message \($0)" }
        for text in texts { try await alice.send(text: text, to: bob.credentials.accountId) }

        let arguments = peerArguments(server, bob, conversation: conversation, expected: texts.count)
        async let app = runOffPool { try? ChildProcess.run(peer, arguments) }
        async let extensionProcess = runOffPool { try? ChildProcess.run(peer, arguments) }
        let outcomes = [await app, await extensionProcess].compactMap { $0 }
        try #require(outcomes.count == 2)
        var stored = 0
        for outcome in outcomes {
            #expect(outcome.status == 0, "\(outcome.errorOutput)")
            let seen = counts(outcome.output)
            #expect(seen["undecryptable"] == 0, "\(outcome.output)")
            #expect(seen["total"] == texts.count, "\(outcome.output)")
            stored += seen["stored"] ?? 0
            print("messenger-peer:", outcome.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(stored == texts.count, "each message was stored by exactly one of the two")
        let messages = try await bob.messages(in: conversation)
        #expect(messages.map(\.body) == texts)
        #expect(try await bob.api.pending(after: 0, limit: 10, as: bob.credentials).envelopes.isEmpty)
    }

    @Test func aProcessKilledMidDecryptLosesNothingAndDecryptsNothingTwice() async throws {
        let peer = try #require(builtExecutable(named: "messenger-peer"), "build messenger-peer first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let alice = try await server.register("alice")
        let bob = try await server.register("bob")
        let conversation = MessengerClient.conversationId(alice.credentials.accountId, bob.credentials.accountId)
        let texts = (1...300).map { "killed-process message \($0)" }
        for text in texts { try await alice.send(text: text, to: bob.credentials.accountId) }
        let arguments = peerArguments(server, bob, conversation: conversation, expected: texts.count)

        // Killed three times with SIGKILL once it has made progress, then run to the end.
        for round in 1...3 {
            let child = try ChildProcess(peer, arguments, output: .discard, errorOutput: .discard)
            _ = try await poll(every: .milliseconds(2), timeout: .seconds(60)) {
                try await bob.messages(in: conversation).count >= round * 40
            }
            child.signal(SIGKILL)
            #expect(await runOffPool { child.wait() } == 128 + SIGKILL)
        }
        let outcome = try #require(await runOffPool { try? ChildProcess.run(peer, arguments) })
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(counts(outcome.output)["undecryptable"] == 0, "\(outcome.output)")
        let messages = try await bob.messages(in: conversation)
        #expect(messages.map(\.body) == texts, "every message once, in order")
        #expect(Set(messages.map(\.clientId)).count == texts.count)
    }
}
