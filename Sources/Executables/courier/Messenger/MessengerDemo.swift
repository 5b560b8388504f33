import CourierCore
import CourierHTTP
import Foundation
import Messenger

/// `courier demo messenger`: Alice with a phone and a tablet, Bob with a laptop, against a
/// server started here (or the one at `--server`), every step printed.
struct MessengerDemo {
    /// An already running server; nil starts one on 127.0.0.1 in a temporary directory.
    var server: String?

    func run() async throws {
        let root = NSTemporaryDirectory() + "courier-messenger-demo-" + Identifier.uuid()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let local = try server == nil ? DemoMessengerServer(dataDirectory: root + "/server") : nil
        defer { local?.stop() }
        let serverURL = server ?? local?.baseURL ?? ""
        let http = HTTPClient(timeout: .seconds(30))
        let sockets = try WebSocketClient()
        defer { sockets.shutdown() }
        if let local {
            say("The messenger server listens on \(serverURL), its data in \(local.dataDirectory)")
        } else {
            say("Using the messenger server at \(serverURL)")
        }

        step(1, "Register Alice's phone, link Alice's tablet, register Bob's laptop")
        func configuration(_ name: String) -> MessengerClientConfiguration {
            ChatDevice.configuration(
                server: serverURL, directory: root + "/devices/" + name, keyFile: root + "/devices/" + name + ".key",
                name: name)
        }
        func device(_ name: String, _ client: MessengerClient) -> ChatDevice {
            ChatDevice(name: name, client: client, sockets: sockets)
        }
        let phone = device("alice-phone", try await MessengerClient.register(configuration("alice-phone"), http: http))
        let linking = try await MessengerClient.startLinking(
            configuration("alice-tablet"), sockets: sockets, http: http)
        say("alice-tablet shows its provisioning code: \(linking.code.uri)")
        try await phone.client.provision(linking.code)
        let tablet = device("alice-tablet", try await linking.finish())
        let bob = device("bob-laptop", try await MessengerClient.register(configuration("bob-laptop"), http: http))
        let alice = phone.accountId
        let names = [alice: "Alice", bob.accountId: "Bob"]
        // Numbered per conversation as `courier chat` numbers them, not by the server's sequence.
        func line(_ event: IncomingEvent, on device: ChatDevice) async throws -> String {
            try await MessageNumbers.line(for: event, names: names, on: device.client)
        }
        for device in [phone, tablet, bob] {
            say("\(device.name): account \(device.accountId), device \(device.deviceId)")
        }
        say("(the phone sealed Alice's identity key pair to the tablet's one-time key; the server relayed only")
        say(" ciphertext, as `courier chat link` and `courier chat provision CODE` do between two machines)")

        let (phoneInbox, tabletInbox, bobInbox) = (DeviceInbox(), DeviceInbox(), DeviceInbox())
        await phoneInbox.follow(try await phone.listen())
        await tabletInbox.follow(try await tablet.listen())
        var bobListener = try await bob.listen()
        await bobInbox.follow(bobListener)
        say("All three devices hold a delivery socket open")

        step(2, "Alice writes to Bob from her phone; Bob's receipts come back")
        var plaintexts: [String] = []
        let first = "Hi Bob, it's Alice. Lunch at noon?"
        plaintexts.append(first)
        let sent = try await phone.client.send(text: first, to: bob.accountId)
        say("alice-phone sent \(try await MessageNumbers.number(of: sent, on: phone.client)): \(first)")
        let atBob = try await bobInbox.next("Bob's copy") { $0.message?.body == first }
        say("bob-laptop received  \(try await line(atBob, on: bob))")
        let atTablet = try await tabletInbox.next("the tablet's copy") { $0.message?.body == first }
        say("alice-tablet synced  \(try await line(atTablet, on: tablet))  (Sesame: one envelope per device)")
        let conversation = MessengerClient.conversationId(alice, bob.accountId)
        let seq = atBob.message?.serverSeq ?? 0
        try await bob.client.sendPendingReceipts()
        try await bob.client.sendTyping(started: true, to: alice)
        try await bob.client.markRead(conversation, upToSeq: seq)
        for what in ["delivered", "typing", "read"] {
            let event = try await phoneInbox.next("the \(what) signal") {
                switch $0 {
                case .receipt(let kind, _, _, _): kind.rawValue == what
                case .typing: what == "typing"
                default: false
                }
            }
            say("alice-phone got      \(try await line(event, on: phone))")
        }

        step(3, "Bob answers; both of Alice's devices receive it")
        let reply = "Noon works. See you at the usual place!"
        plaintexts.append(reply)
        try await bob.client.send(text: reply, to: alice)
        var replySeq: Int64 = 0
        for (device, inbox) in [(phone, phoneInbox), (tablet, tabletInbox)] {
            let event = try await inbox.next("Bob's reply on \(device.name)") { $0.message?.body == reply }
            say("\(device.name) received \(try await line(event, on: device))")
            replySeq = event.message?.serverSeq ?? replySeq
        }
        try await phone.client.markRead(conversation, upToSeq: replySeq)
        let readByAlice = try await bobInbox.next("Alice's read receipt") {
            if case .receipt(.read, _, _, _) = $0 { return true }
            return false
        }
        say("bob-laptop got       \(try await line(readByAlice, on: bob))")

        step(4, "Bob goes offline; Alice sends three messages; Bob catches up in order")
        bobListener.stop()
        await bobListener.finished()
        say("bob-laptop closed its socket")
        let offline = (1...3).map { "While you were away \($0)/3: the table is booked for \($0 + 1)" }
        plaintexts += offline
        for text in offline {
            try await tablet.client.send(text: text, to: bob.accountId)
            say("alice-tablet sent    \(text)")
        }
        let caughtUp = try await bob.client.sync()
        await bobInbox.append(contentsOf: caughtUp)
        let caughtUpTexts = caughtUp.compactMap(\.message).map(\.body)
        for event in caughtUp where event.message != nil {
            say("bob-laptop caught up \(try await line(event, on: bob))")
        }
        guard caughtUpTexts == offline else {
            throw CommandError("the catch-up gave \(caughtUpTexts), not the three messages in order")
        }
        bobListener = try await bob.listen()
        await bobInbox.follow(bobListener)
        say("bob-laptop is back online: the three messages arrived once each, in the order sent")

        step(5, "Alice sends an attachment: encrypted on the phone, only ciphertext uploaded")
        let fileText = "Recipe card: three eggs, a cup of flour, a secret pinch of cardamom."
        plaintexts.append(fileText)
        let caption = "The recipe I promised (attached)"
        plaintexts.append(caption)
        try await phone.send(file: Array(fileText.utf8), named: "recipe.txt", caption: caption, to: bob.accountId)
        let withFile = try await bobInbox.next("the attachment message") { $0.message?.body == caption }
        say("bob-laptop received  \(try await line(withFile, on: bob))")
        guard let message = withFile.message, let pointer = message.attachment else {
            throw CommandError("the message carries no attachment pointer")
        }
        let downloaded = try await bob.download(pointer)
        guard downloaded == Array(fileText.utf8) else { throw CommandError("the downloaded file differs") }
        say("bob-laptop downloaded \(pointer.encryptedLength) encrypted bytes, checked the digest, decrypted:")
        say("    \(String(decoding: downloaded, as: UTF8.self))")

        step(6, "Alice and Bob compare safety numbers")
        let aliceView = try await phone.safetyNumber(with: bob.accountId)
        let bobView = try await bob.safetyNumber(with: alice)
        say("on Alice's phone:")
        for line in aliceView.lines { say("    \(line)") }
        say("on Bob's laptop:")
        for line in bobView.lines { say("    \(line)") }
        guard aliceView.digits == bobView.digits else { throw CommandError("the two safety numbers differ") }
        say("the 60 digits are the same on both screens")
        var forged = aliceView.qrCodeBytes
        forged[forged.count - 1] ^= 0x01
        let forgedScan = try await bob.client.verifySafetyNumber(of: alice, scanned: forged)
        say("a QR code with one flipped bit reads as: \(forgedScan)")
        let scan = try await bob.client.verifySafetyNumber(of: alice, scanned: aliceView.qrCodeBytes)
        say(
            "Bob scans the QR code on Alice's screen (\(aliceView.qrCodeBytes.count) bytes): \(scan); Alice is verified"
        )
        guard scan == .match else { throw CommandError("the scan did not match") }

        step(7, "What the server stored")
        guard let local else {
            say("the server is not ours (--server): its files cannot be scanned from here")
            return
        }
        let result = try local.scan(for: plaintexts)
        say("scanned \(result.files) files, \(result.bytes) bytes, for the \(plaintexts.count) plaintexts sent")
        for (file, text) in result.found { say("FOUND in \(file): \(text)") }
        guard result.found.isEmpty else { throw CommandError("the server's files hold plaintext") }
        say("none of the plaintexts was found: the server holds only ciphertext and routing metadata")
    }

    private func step(_ number: Int, _ title: String) {
        say("\n== \(number). \(title)")
    }
}
