import CourierCore
import CourierTesting
import Foundation
import Messenger
import SignalProtocol
import Testing

/// `courier demo messenger` and `courier chat`, run as the user runs them: separate processes.
@Suite(.timeLimit(.minutes(3)))
struct MessengerCLITests {
    let courier: String?

    init() { courier = builtExecutable(named: "courier") }

    @Test func theScriptedDemoRunsEveryStepAndFindsNoPlaintextOnTheServer() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let outcome = try await offPool { try ChildProcess.run(courier, ["demo", "messenger"]) }
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let output = outcome.output
        for expected in [
            "alice-tablet: account", "device 2", "bob-laptop received  #1 Alice (device 1): Hi Bob",
            "alice-tablet synced  #1 Alice (device 1): Hi Bob", "receipt: delivered up to #1 by Bob",
            "Bob is typing", "receipt: read up to #1 by Bob", "bob-laptop got       receipt: read up to",
            "bob-laptop caught up", "the three messages arrived once each, in the order sent",
            "[attachment recipe.txt, 68 bytes]", "secret pinch of cardamom", "the 60 digits are the same",
            "Bob scans the QR code on Alice's screen (74 bytes): match; Alice is verified",
            "one flipped bit reads as: identityMismatch",
            "none of the plaintexts was found",
            // Numbered as `courier chat` numbers them: receipts use up no numbers.
            "alice-phone sent #1: Hi Bob", "alice-phone received #2 Bob (device 1): Noon works",
            "alice-tablet received #2 Bob", "bob-laptop got       receipt: read up to #2 by Alice",
            "bob-laptop caught up #3 Alice (device 2): While you were away 1/3",
            "bob-laptop caught up #5 Alice (device 2): While you were away 3/3",
            "bob-laptop received  #6 Alice (device 1): The recipe I promised",
        ] {
            #expect(output.contains(expected), "missing \"\(expected)\" in:\n\(output)")
        }
        let caughtUp = output.split(separator: "\n").filter { $0.hasPrefix("bob-laptop caught up") }
        #expect(caughtUp.map { $0.suffix(1) } == ["2", "3", "4"], "the catch-up is in the order sent")
        #expect(!output.contains("FOUND in"))
    }

    @Test func theDemoRunsAgainstAGivenServerAndLeavesItsFilesAlone() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let outcome = try await offPool {
            try ChildProcess.run(courier, ["demo", "messenger", "--server", server.baseURL])
        }
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        #expect(outcome.output.contains("Using the messenger server at \(server.baseURL)"))
        #expect(outcome.output.contains("the server is not ours (--server): its files cannot be scanned from here"))
        try server.expectNoPlaintext(["Hi Bob, it's Alice", "secret pinch of cardamom", "While you were away"])
    }

    @Test func theDemoFailsWithAReasonWhenTheServerIsNotThere() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let outcome = try await offPool {
            try ChildProcess.run(courier, ["demo", "messenger", "--server", down.url])
        }
        #expect(outcome.status == 1)
        #expect(outcome.errorOutput.hasPrefix("courier: "), "\(outcome.errorOutput)")
    }

    @Test func twoChatProcessesExchangeMessagesReceiptsFilesAndSafetyNumbers() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (dir, aliceAccount, bobAccount) = try await registerAliceAndBob(on: server)
        let keyMode = try FileManager.default.attributesOfItem(atPath: dir + "/alice.key")[.posixPermissions] as? Int
        #expect(keyMode == 0o600)

        let bob = try ChatProcess(courier, ["chat", "--name", "bob", "--dir", dir + "/bob"])
        let alice = try ChatProcess(courier, ["chat", "run", "--name", "alice", "--dir", dir + "/alice"])
        #expect(await bob.waitFor("online"), "\(bob.output)")
        #expect(await alice.waitFor("online"), "\(alice.output)")

        try alice.send("/safety \(bobAccount)")
        #expect(await alice.waitFor("is known yet: exchange a message first"), "no session, no number: \(alice.output)")
        try alice.send("/to \(bobAccount) hello from the alice process")
        #expect(await bob.waitFor("hello from the alice process"), "\(bob.output)")
        #expect(await alice.waitFor("receipt: read up to #1 by \(bobAccount)"), "\(alice.output)")
        try alice.send("/history \(bobAccount)")
        #expect(await alice.waitFor("#1 me (device 1): hello from the alice process [read]"), "\(alice.output)")
        try bob.send("/list")
        #expect(await bob.waitFor(": 0 unread; last: hello from the alice process"), "\(bob.output)")
        try alice.send("/typing \(bobAccount)")
        #expect(await bob.waitFor("\(aliceAccount) is typing"), "\(bob.output)")

        try bob.send("/offline")
        #expect(await bob.waitFor("offline: the server keeps"), "\(bob.output)")
        try alice.send("/to \(bobAccount) away one")
        try alice.send("/to \(bobAccount) away two")
        #expect(await alice.waitFor("sent #3 to \(bobAccount)"), "receipts use up no numbers: \(alice.output)")
        let beforeOnline = bob.output.count
        try bob.send("/online")
        #expect(await bob.waitFor("away two"), "\(bob.output)")
        let bobText = String(bob.output.dropFirst(beforeOnline))
        let one = try #require(bobText.range(of: "away one"), "\(bob.output)\n--- alice:\n\(alice.output)")
        let two = try #require(bobText.range(of: "away two"))
        #expect(one.lowerBound < two.lowerBound, "caught up in the order sent")

        let file = server.root + "/note.txt"
        try Data("a file only the two devices can read".utf8).write(to: URL(fileURLWithPath: file))
        try alice.send("/send-file \(bobAccount) \(file)")
        #expect(await bob.waitFor("saved the attachment to"), "\(bob.output)")
        let saved = FileManager.default.contents(atPath: dir + "/bob/downloads/note.txt")
        #expect(saved.map { String(decoding: $0, as: UTF8.self) } == "a file only the two devices can read")
        let savedMode =
            try FileManager.default.attributesOfItem(atPath: dir + "/bob/downloads/note.txt")[
                .posixPermissions] as? Int
        #expect(savedMode == 0o600, "a decrypted download is readable by its owner only")

        try alice.send("/safety \(bobAccount)")
        try bob.send("/safety \(aliceAccount)")
        #expect(await alice.waitFor("QR code bytes (base64): "), "\(alice.output)")
        #expect(await bob.waitFor("QR code bytes (base64): "), "\(bob.output)")
        #expect(safetyDigits(alice.output) == safetyDigits(bob.output))
        #expect(safetyDigits(alice.output).count == 3)
        let aliceCode = try #require(
            alice.output.components(separatedBy: "QR code bytes (base64): ").last?.prefix { $0 != "\n" })
        try bob.send("/verify \(aliceAccount) \(aliceCode)")
        #expect(await bob.waitFor("scan of \(aliceAccount)'s code: match (marked verified)"), "\(bob.output)")
        try bob.send("/verify \(aliceAccount) AAAA")
        #expect(await bob.waitFor("code: unreadable"), "\(bob.output)")
        try bob.send("/accept \(aliceAccount)")
        #expect(await bob.waitFor("no identity change is pending for \(aliceAccount)"), "\(bob.output)")
        try bob.send("/nonsense")
        #expect(await bob.waitFor("unknown command or wrong arguments: /nonsense"), "\(bob.output)")

        #expect(try await alice.quit() == 0)
        #expect(try await bob.quit() == 0)
        try server.expectNoPlaintext([
            "hello from the alice process", "away one", "away two", "a file only the two devices can read",
        ])
    }

    @Test func aSecondDeviceLinkedThroughTheProvisioningSocketReceivesTheAccountsMessages() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let dir = server.root + "/chat"
        func run(_ arguments: [String]) async throws -> ChildProcess.Outcome {
            let outcome = try await offPool { try ChildProcess.run(courier, ["chat"] + arguments) }
            #expect(outcome.status == 0, "\(outcome.errorOutput)")
            return outcome
        }
        _ = try await run(["register", "--server", server.baseURL, "--name", "phone", "--dir", dir + "/phone"])
        let linking = try ChatProcess(
            courier, ["chat", "link", "--server", server.baseURL, "--name", "tablet", "--dir", dir + "/tablet"])
        #expect(await linking.waitFor("waiting for the provision"), "\(linking.output)")
        let code = try #require(Self.provisioningCode(in: linking.output), "\(linking.output)")
        let provisioned = try await run(["provision", code, "--name", "phone", "--dir", dir + "/phone"])
        #expect(provisioned.output.contains("provisioned"), "\(provisioned.output)")
        #expect(await linking.waitFor("linked tablet: account"), "\(linking.output)")
        #expect(await runOffPool { linking.child.wait() } == 0, "\(linking.output)")
        #expect(linking.output.contains("device 2"), "\(linking.output)")
        let everything = FileManager.default.subpaths(atPath: server.root) ?? []
        #expect(
            !everything.contains { $0.contains("handover") || $0.contains("identity") }, "no key file: \(everything)")

        let phone = try ChatProcess(courier, ["chat", "--name", "phone", "--dir", dir + "/phone"])
        let tablet = try ChatProcess(courier, ["chat", "--name", "tablet", "--dir", dir + "/tablet"])
        #expect(await phone.waitFor("online"), "\(phone.output)")
        #expect(await tablet.waitFor("online"), "\(tablet.output)")
        let bob = try await server.register("bob")
        let account = try #require(
            linking.output.split(separator: " ").drop { $0 != "account" }.dropFirst().first)
        try await bob.send(text: "to both of your devices", to: String(account.dropLast()))
        #expect(await phone.waitFor("to both of your devices"), "\(phone.output)")
        #expect(await tablet.waitFor("to both of your devices"), "\(tablet.output)")
        try tablet.send("/to \(bob.credentials.accountId) from the tablet")
        #expect(
            await phone.waitFor("(device 2): from the tablet"),
            "the phone gets the tablet's own copy: phone \(phone.output) tablet \(tablet.output)")

        _ = try await register("carol", on: server, in: dir)
        let carol = try ChatProcess(courier, ["chat", "--name", "carol", "--dir", dir + "/carol"])
        #expect(await carol.waitFor("online"), "\(carol.output)")
        try carol.send("/contacts add phone-owner \(account.dropLast())")
        try carol.send("/to phone-owner read on two devices")
        #expect(await phone.waitFor("read on two devices"), "\(phone.output)")
        #expect(await tablet.waitFor("read on two devices"), "\(tablet.output)")
        #expect(await carol.waitFor("receipt: read up to #1 by phone-owner"), "\(carol.output)")
        try carol.send("/to phone-owner a second one")
        #expect(await carol.waitFor("receipt: read up to #2 by phone-owner"), "\(carol.output)")
        let reads = carol.output.components(separatedBy: "receipt: read up to #1 by phone-owner").count - 1
        #expect(reads == 1, "both devices read it; one line says so: \(carol.output)")
        #expect(try await carol.quit() == 0)
        #expect(try await phone.quit() == 0)
        #expect(try await tablet.quit() == 0)
    }

    @Test func provisioningAMalformedOrUnknownCodeFailsWithAReasonAndLinksNothing() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let dir = server.root + "/chat"
        _ = try await register("phone", on: server, in: dir)
        let publicKey = Base64.encodeURL(try KeyPair.generate().publicKey.serialized)
        for (code, reason) in [
            ("not-a-code", "a provisioning code starts with courier-link://"),
            ("courier-link://?uuid=0123456789abcdef0123456789abcdef&pub_key=AAAA", "no valid public key"),
            (
                "courier-link://?uuid=0123456789abcdef0123456789abcdef&pub_key=\(publicKey)",
                "no device is waiting for this code"
            ),
        ] {
            let outcome = try await offPool {
                try ChildProcess.run(courier, ["chat", "provision", code, "--name", "phone", "--dir", dir + "/phone"])
            }
            #expect(outcome.status == 1)
            #expect(outcome.errorOutput.contains(reason), "\(outcome.errorOutput)")
        }
    }

    @Test func aLinkInterruptedBeforeItsProvisionLeavesNoHalfMadeDevice() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer { $0.provisioningSocketLifetime = .seconds(60) }
        defer { server.finish() }
        let dir = server.root + "/chat"
        let linking = try ChatProcess(
            courier, ["chat", "link", "--server", server.baseURL, "--name", "tablet", "--dir", dir + "/tablet"])
        #expect(await linking.waitFor("waiting for the provision"), "\(linking.output)")
        try await server.serverClock.waitForSleepers(1)
        server.serverClock.advance(by: .seconds(61))
        #expect(await runOffPool { linking.child.wait() } == 1, "\(linking.output)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/tablet"), "the half-made device is removed")
        #expect(!FileManager.default.fileExists(atPath: dir + "/tablet.key"))
    }

    /// The `courier-link://` code that `courier chat link` printed.
    static func provisioningCode(in output: String) -> String? {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
            $0.hasPrefix("courier-link://")
        }
    }

    @Test func aChatKeepsTryingWhileTheServerIsAwayAndQuitsCleanly() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer()
        let dir = server.root + "/chat"
        let registered = try await offPool {
            try ChildProcess.run(
                courier, ["chat", "register", "--server", server.baseURL, "--name", "carol", "--dir", dir + "/carol"])
        }
        #expect(registered.status == 0)
        let carol = try ChatProcess(courier, ["chat", "--name", "carol", "--dir", dir + "/carol"])
        #expect(await carol.waitFor("online"), "\(carol.output)")
        try carol.send("/status")
        #expect(await carol.waitFor("status: connect"), "connected or connecting, in words: \(carol.output)")
        await server.server.shutdown(deadline: .zero)
        var left = false
        for _ in 0..<200 where !left {
            try carol.send("/status")
            left = await carol.waitFor("status: not connected: connecting again in ", timeout: .milliseconds(100))
        }
        #expect(left, "the connection waits before its next attempt: \(carol.output)")
        try carol.send("/offline")
        #expect(await carol.waitFor("offline: the server keeps"), "\(carol.output)")
        try carol.send("/status")
        #expect(await carol.waitFor("status: offline (you said /offline"), "\(carol.output)")
        #expect(!carol.output.contains("waiting(n="), "no raw connection state: \(carol.output)")
        #expect(try await carol.quit() == 0)
        try? FileManager.default.removeItem(atPath: server.root)
    }

    @Test func contactNamesStandInForAccountsAndEachReceiptChangePrintsOneLine() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let (dir, aliceAccount, bobAccount) = try await registerAliceAndBob(on: server)
        let alice = try ChatProcess(courier, ["chat", "--name", "alice", "--dir", dir + "/alice"])
        var bob = try ChatProcess(courier, ["chat", "--name", "bob", "--dir", dir + "/bob"])
        #expect(await alice.waitFor("online"), "\(alice.output)")
        #expect(await bob.waitFor("online"), "\(bob.output)")

        try bob.send("/to alice too early")
        #expect(await bob.waitFor("alice is neither a contact nor an account id (36 characters)"), "\(bob.output)")
        try bob.send("/list")
        try bob.send("/whoami")
        #expect(await bob.waitFor("account \(bobAccount), device 1", count: 2), "\(bob.output)")
        #expect(!bob.output.contains("unread"), "a refused /to leaves no conversation: \(bob.output)")
        try bob.send("/contacts add alice not-an-account")
        #expect(await bob.waitFor("not-an-account is not an account id"), "\(bob.output)")

        try alice.send("/contacts add bob \(bobAccount)")
        try bob.send("/contacts add alice \(aliceAccount)")
        #expect(await bob.waitFor("contact alice is account \(aliceAccount)"), "\(bob.output)")
        #expect(await alice.waitFor("contact bob is account \(bobAccount)"), "\(alice.output)")
        for text in ["one", "two", "three"] { try bob.send("/to alice \(text)") }
        #expect(await bob.waitFor("sent #3 to alice"), "\(bob.output)")
        #expect(await alice.waitFor("#3 bob (device 1): three"), "\(alice.output)")
        #expect(alice.output.contains("#1 bob (device 1): one"), "\(alice.output)")
        #expect(await bob.waitFor("receipt: read up to #3 by alice"), "\(bob.output)")
        try bob.send("/history alice")
        #expect(await bob.waitFor("#3 me (device 1): three [read]"), "\(bob.output)")
        try bob.send("/list")
        #expect(await bob.waitFor("alice: 0 unread; last: three"), "\(bob.output)")
        for number in 1...3 {
            let line = "receipt: read up to #\(number) by alice"
            #expect(bob.output.components(separatedBy: line).count - 1 <= 1, "one line per change: \(bob.output)")
        }
        #expect(!bob.output.contains("#4") && !bob.output.contains("#7"), "\(bob.output)")

        #expect(try await bob.quit() == 0)
        bob = try ChatProcess(courier, ["chat", "--name", "bob", "--dir", dir + "/bob"])
        try bob.send("/contacts")
        #expect(await bob.waitFor("alice  \(aliceAccount)"), "contacts are kept: \(bob.output)")
        let mode =
            try FileManager.default.attributesOfItem(atPath: dir + "/bob/contacts.json")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try await bob.quit() == 0)
        #expect(try await alice.quit() == 0)
    }

    @Test func aMessageToAnUnknownOrKeylessAccountIsRefusedPlainlyAndStartsNoConversation() async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        let server = try MessengerTestServer()
        defer { server.finish() }
        let dir = server.root + "/chat"
        let bobAccount = try await register("bob", on: server, in: dir)
        // An account registered straight over HTTP whose device never uploaded keys.
        let created = try await server.http.sendJSON(
            "POST", server.baseURL + "/v1/accounts",
            [
                "password": .string(Base64.encode((0..<32).map { UInt8($0) })), "registrationId": .int(7),
                "name": "dave",
            ])
        let dave = try #require(created.json?["accountId"]?.stringValue, "\(created.status)")
        let nobody = UUID().uuidString.lowercased()
        let bob = try ChatProcess(courier, ["chat", "--name", "bob", "--dir", dir + "/bob"])
        #expect(await bob.waitFor("online"), "\(bob.output)")

        try bob.send("/to \(nobody) anyone there?")
        #expect(await bob.waitFor("error: no account \(nobody) on this server"), "\(bob.output)")
        try bob.send("/contacts add dave \(dave)")
        try bob.send("/to dave anyone there?")
        #expect(await bob.waitFor("error: dave has no device with keys yet"), "\(bob.output)")
        try bob.send("/send-file dave \(dir)/bob/contacts.json")
        #expect(await bob.waitFor("error: dave has no device with keys yet", count: 2), "\(bob.output)")
        try bob.send("/list")
        try bob.send("/whoami")
        #expect(await bob.waitFor("account \(bobAccount), device 1", count: 2), "\(bob.output)")
        #expect(!bob.output.contains("unread"), "a refused /to leaves no conversation: \(bob.output)")
        #expect(!bob.output.contains("sent "), "\(bob.output)")
        #expect(try await bob.quit() == 0)
    }

    /// Registers the devices alice and bob in `<root>/chat/<name>`; returns that folder and their accounts.
    func registerAliceAndBob(on server: MessengerTestServer) async throws -> (String, String, String) {
        let dir = server.root + "/chat"
        return (dir, try await register("alice", on: server, in: dir), try await register("bob", on: server, in: dir))
    }

    /// Registers a chat device `name` in `dir/name` and returns its account id.
    func register(_ name: String, on server: MessengerTestServer, in dir: String) async throws -> String {
        let courier = try #require(courier, "build courier first (swift build)")
        let outcome = try await offPool {
            try ChildProcess.run(
                courier, ["chat", "register", "--server", server.baseURL, "--name", name, "--dir", dir + "/" + name])
        }
        #expect(outcome.status == 0, "\(outcome.errorOutput)")
        let account = outcome.output.split(separator: " ").drop { $0 != "account" }.dropFirst().first
        return String(try #require(account).dropLast())
    }

    /// The safety number's three lines of digit groups in an output.
    func safetyDigits(_ output: String) -> [String] {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            $0.count == 23 && $0.allSatisfy { $0.isNumber || $0 == " " }
        }
    }

    /// Stands for the URL of a port held closed, which a test's arguments cannot make.
    static let closedPortURL = "http://closed-port.invalid"

    @Test(arguments: [
        (["chat", "register", "--name", "x"], "chat register needs --server"),
        (["chat", "run"], "chat run needs --name NAME"),
        (["chat", "link", "--name", "x"], "chat link needs --server URL"),
        (["chat", "link", "--name", "x", "--server", Self.closedPortURL], "the provisioning socket did not open"),
        (["chat", "provision", "--name", "x"], "chat provision needs CODE"),
        (["chat", "dance", "--name", "x"], "unknown chat command dance"),
        (
            ["chat", "provision", "courier-link://", "--name", "x", "--dir", "/nonexistent/x"],
            "no chat device in /nonexistent/x"
        ),
    ])
    func badChatArgumentsFailWithAMessage(arguments: [String], message: String) async throws {
        let courier = try #require(courier, "build courier first (swift build)")
        // A server that is down: a port held closed for the test's length.
        let down = try ClosedPort()
        defer { withExtendedLifetime(down) {} }
        let arguments = arguments.map { $0 == Self.closedPortURL ? down.url : $0 }
        let outcome = try await offPool { try ChildProcess.run(courier, arguments) }
        #expect(outcome.status == 1)
        #expect(outcome.errorOutput.contains(message), "\(outcome.errorOutput)")
    }
}
