import CourierCore
import CourierHTTP
import Foundation
import Messenger

/// The interactive loop of `courier chat`: commands from standard input, and what the delivery
/// socket brings printed as it arrives. Incoming messages are answered with delivered and read
/// receipts (the terminal shows them at once), and attachments are saved under `downloads`.
actor ChatSession {
    static let help = """
        commands (<who> is a contact's name or a 36-character account id):
          /to <who> <text>              send a message
          /send-file <who> <path>       send a file (encrypted before upload)
          /typing <who>                 tell <who> you are typing
          /list                         the conversations, newest first, with unread counts
          /history <who>                the conversation with <who>, with your messages' states
          /safety <who>                 show the safety number (digits and QR code bytes)
          /verify <who> <base64>        compare the QR code bytes read from <who>'s screen
          /accept <who>                 accept <who>'s changed identity key (after comparing
                                        safety numbers); sending to them resumes
          /contacts                     the names you gave to accounts
          /contacts add <name> <account>  name an account (kept in this device's directory)
          /offline  /online             close the delivery socket / catch up and keep it open
          /status                       connected, connecting again in n s, or offline
          /whoami  /help  /quit
        messages are numbered per conversation (#1, #2, …); receipts do not use up numbers
        """

    private let device: ChatDevice
    private let downloads: String
    private var contacts: ChatContacts
    private var connection: DeliveryConnection?
    private var printer: Task<Void, Never>?
    /// The highest sequence each reader's receipt of each kind was shown for, so that one
    /// change prints one line, however many of this account's devices the receipt reached.
    private var shownReceipts: [String: Int64] = [:]

    init(device: ChatDevice, downloads: String, contacts: ChatContacts) {
        self.device = device
        self.downloads = downloads
        self.contacts = contacts
    }

    /// Runs until `/quit` or the end of `lines`.
    func run(lines: AsyncStream<String>) async throws {
        say("\(device.name): account \(device.accountId), device \(device.deviceId)")
        try await goOnline()
        say("type /help for the commands")
        for await line in lines {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
            guard let command = words.first else { continue }
            if command == "/quit" { break }
            do {
                try await perform(command, Array(words.dropFirst()))
            } catch {
                say("error: \(error)")
            }
        }
        await goOffline()
        say("bye")
    }

    private func perform(_ command: String, _ arguments: [String]) async throws {
        switch (command, arguments.count) {
        case ("/to", 2):
            let account = try await recipient(arguments[0])
            let message = try await device.client.send(text: arguments[1], to: account)
            say("sent \(try await number(of: message)) to \(contacts.name(of: account))")
        case ("/send-file", 2):
            let account = try await recipient(arguments[0])
            guard let data = FileManager.default.contents(atPath: arguments[1]) else {
                throw CommandError("cannot read \(arguments[1])")
            }
            let fileName = URL(fileURLWithPath: arguments[1]).lastPathComponent
            let message = try await device.send(
                file: Array(data), named: fileName, caption: "sent you \(fileName)", to: account)
            say("sent \(fileName) (\(data.count) bytes, encrypted) as \(try await number(of: message))")
        case ("/typing", 1):
            try await device.client.sendTyping(started: true, to: try contacts.account(for: arguments[0]))
        case ("/safety", 1):
            let account = try contacts.account(for: arguments[0])
            let number = try await device.safetyNumber(with: account)
            say("safety number with \(contacts.name(of: account)):")
            for line in number.lines { say("    \(line)") }
            say("QR code bytes (base64): \(Base64.encode(number.qrCodeBytes))")
        case ("/verify", 2):
            let account = try contacts.account(for: arguments[0])
            guard let scanned = Base64.decode(arguments[1]) else { throw CommandError("not base64") }
            let result = try await device.client.verifySafetyNumber(of: account, scanned: scanned)
            say(
                "scan of \(contacts.name(of: account))'s code: \(result)\(result == .match ? " (marked verified)" : "")"
            )
        case ("/accept", 1):
            let account = try contacts.account(for: arguments[0])
            try await device.client.acceptIdentityChange(of: account)
            say("accepted the new identity key of \(contacts.name(of: account)); catching up on what it held back")
            for event in try await device.client.sync() { await show(event) }
        case ("/list", 0):
            for summary in try await device.client.conversations() {
                say(
                    "\(partner(in: summary.conversationId)): \(summary.unreadCount) unread; last: \(summary.lastMessage.body)"
                )
            }
        case ("/history", 1):
            let account = try contacts.account(for: arguments[0])
            let conversation = MessengerClient.conversationId(device.accountId, account)
            for (index, message) in try await device.client.messages(in: conversation).enumerated() {
                let mine = message.sender.account == device.accountId
                let who = mine ? "me (device \(message.sender.device))" : contacts.name(of: message.sender.account)
                let seq = message.serverSeq == nil ? "#?" : "#\(index + 1)"
                say("\(seq) \(who): \(message.body)\(mine ? " [\(message.state.rawValue)]" : "")")
            }
        case ("/contacts", 0):
            if contacts.accounts.isEmpty { say("no contacts yet: /contacts add NAME ACCOUNT") }
            for (name, account) in contacts.accounts.sorted(by: { $0.key < $1.key }) { say("\(name)  \(account)") }
        case ("/contacts", 2) where arguments[0] == "add":
            let words = arguments[1].split(separator: " ").map(String.init)
            guard words.count == 2 else { throw CommandError("usage: /contacts add NAME ACCOUNT") }
            try contacts.add(name: words[0], account: words[1])
            say("contact \(words[0]) is account \(words[1].lowercased())")
        case ("/offline", 0):
            await goOffline()
            say("offline: the server keeps what arrives until /online")
        case ("/online", 0):
            try await goOnline()
        case ("/status", 0):
            say("status: \(ChatStatus.line(await connection?.state, openedCount: await connection?.openedCount ?? 0))")
        case ("/whoami", 0):
            say("account \(device.accountId), device \(device.deviceId)")
        case ("/help", _):
            say(Self.help)
        default:
            say("unknown command or wrong arguments: \(command); /help lists them")
        }
    }

    /// The account `who` names, once the key directory says it can be written to: a message to an
    /// account that does not exist, or has no device with keys, is refused before anything is
    /// stored for it, so no conversation appears.
    private func recipient(_ who: String) async throws -> String {
        let account = try contacts.account(for: who)
        switch try await device.client.checkRecipient(account) {
        case .ready:
            return account
        case .unknownAccount:
            throw CommandError("no account \(account) on this server")
        case .noDeviceWithKeys:
            throw CommandError("\(contacts.name(of: account)) has no device with keys yet")
        }
    }

    /// Keeps the delivery socket open: each time it is live the connection catches up over HTTP
    /// (in order) and sends what is queued; after a drop it reconnects with backoff.
    private func goOnline() async throws {
        guard connection == nil else { return }
        let connection = await device.connect()
        self.connection = connection
        printer = Task { [weak self] in
            for await event in connection.events { await self?.show(event) }
        }
        say("online: catching up, then the delivery socket (reconnects by itself)")
    }

    private func goOffline() async {
        guard let connection else { return }
        self.connection = nil
        await connection.stop()
        await printer?.value
    }

    private func show(_ event: IncomingEvent) async {
        if case .duplicate = event { return }
        do {
            if let line = try await line(for: event) { say(line) }
        } catch {
            say("error: \(error)")
        }
        guard let message = event.message, message.sender.account != device.accountId, let seq = message.serverSeq
        else { return }
        do {
            // Shown on the terminal at once: delivered and read together.
            try await device.client.markRead(message.conversationId, upToSeq: seq)
            if let pointer = message.attachment {
                let bytes = try await device.download(pointer)
                try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)
                let path = downloads + "/" + URL(fileURLWithPath: pointer.fileName ?? pointer.id).lastPathComponent
                try PrivateFile.save(bytes, to: path)
                say("saved the attachment to \(path) (0600, digest checked)")
            }
        } catch {
            say("error: \(error)")
        }
    }

    /// The line for `event` with contacts' names and this device's message numbers; `nil` for a
    /// receipt that changes nothing already shown (the same receipt reaching another device of
    /// this account, or "delivered" after "read").
    private func line(for event: IncomingEvent) async throws -> String? {
        switch event {
        case .message:
            return try await MessageNumbers.line(for: event, names: contacts.names, on: device.client)
        case .receipt(let kind, let conversation, let upToSeq, let reader):
            let key = "\(conversation) \(reader) "
            guard upToSeq > shownReceipts[key + kind.rawValue, default: 0] else { return nil }
            // Read implies delivered.
            for implied in kind == .read ? [ReceiptKind.read, .delivered] : [kind] {
                shownReceipts[key + implied.rawValue] = max(shownReceipts[key + implied.rawValue, default: 0], upToSeq)
            }
            let number = try await number(upTo: upToSeq, in: conversation)
            return "receipt: \(kind) up to \(number) by \(contacts.name(of: reader))"
        default:
            return event.line(names: contacts.names)
        }
    }

    /// A message's number in its conversation as this device shows it (`MessageNumbers`).
    private func number(of message: Message) async throws -> String {
        try await MessageNumbers.number(of: message, on: device.client)
    }

    private func number(upTo seq: Int64?, in conversation: String) async throws -> String {
        try await MessageNumbers.number(upTo: seq, in: conversation, on: device.client)
    }

    /// The other account of a direct conversation (`dm:<a>:<b>`), by name when it has one.
    private func partner(in conversation: String) -> String {
        let parts = conversation.split(separator: ":").map(String.init)
        guard parts.count == 3, parts[0] == "dm" else { return conversation }
        return contacts.name(of: parts[1] == device.accountId ? parts[2] : parts[1])
    }
}
