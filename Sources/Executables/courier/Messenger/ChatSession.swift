import CourierCore
import CourierHTTP
import Foundation
import Messenger

/// The interactive loop of `courier chat`: commands from standard input, and what the delivery
/// socket brings printed as it arrives. Incoming messages are answered with delivered and read
/// receipts (the terminal shows them at once), and attachments are saved under `downloads`.
actor ChatSession {
    static let help = """
        commands:
          /to <account> <text>          send a message
          /send-file <account> <path>   send a file (encrypted before upload)
          /typing <account>             tell <account> you are typing
          /list                         the conversations, newest first, with unread counts
          /history <account>            the conversation with <account>, with your messages' states
          /safety <account>             show the safety number (digits and QR code bytes)
          /verify <account> <base64>    compare the QR code bytes read from <account>'s screen
          /accept <account>             accept <account>'s changed identity key (after comparing
                                        safety numbers); sending to them resumes
          /offline  /online             close the delivery socket / catch up and keep it open
          /status                       the socket's state (live, connecting, waiting…)
          /whoami  /help  /quit
        """

    private let device: ChatDevice
    private let downloads: String
    private var connection: DeliveryConnection?
    private var printer: Task<Void, Never>?

    init(device: ChatDevice, downloads: String) {
        self.device = device
        self.downloads = downloads
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
            let message = try await device.client.send(text: arguments[1], to: arguments[0])
            say("sent #\(message.serverSeq.map(String.init) ?? "?") to \(arguments[0])")
        case ("/send-file", 2):
            guard let data = FileManager.default.contents(atPath: arguments[1]) else {
                throw CommandError("cannot read \(arguments[1])")
            }
            let fileName = URL(fileURLWithPath: arguments[1]).lastPathComponent
            let message = try await device.send(
                file: Array(data), named: fileName, caption: "sent you \(fileName)", to: arguments[0])
            say("sent \(fileName) (\(data.count) bytes, encrypted) as #\(message.serverSeq.map(String.init) ?? "?")")
        case ("/typing", 1):
            try await device.client.sendTyping(started: true, to: arguments[0])
        case ("/safety", 1):
            let number = try await device.safetyNumber(with: arguments[0])
            say("safety number with \(arguments[0]):")
            for line in number.lines { say("    \(line)") }
            say("QR code bytes (base64): \(Base64.encode(number.qrCodeBytes))")
        case ("/verify", 2):
            guard let scanned = Base64.decode(arguments[1]) else { throw CommandError("not base64") }
            let result = try await device.client.verifySafetyNumber(of: arguments[0], scanned: scanned)
            say("scan of \(arguments[0])'s code: \(result)\(result == .match ? " (marked verified)" : "")")
        case ("/accept", 1):
            try await device.client.acceptIdentityChange(of: arguments[0])
            say("accepted the new identity key of \(arguments[0]); catching up on what it held back")
            for event in try await device.client.sync() { await show(event) }
        case ("/list", 0):
            for summary in try await device.client.conversations() {
                say("\(summary.conversationId): \(summary.unreadCount) unread; last: \(summary.lastMessage.body)")
            }
        case ("/history", 1):
            let conversation = MessengerClient.conversationId(device.accountId, arguments[0])
            for message in try await device.client.messages(in: conversation) {
                let seq = message.serverSeq.map { "#\($0)" } ?? "#?"
                let mine = message.sender.account == device.accountId
                let who = mine ? "me (device \(message.sender.device))" : message.sender.account
                say("\(seq) \(who): \(message.body)\(mine ? " [\(message.state.rawValue)]" : "")")
            }
        case ("/offline", 0):
            await goOffline()
            say("offline: the server keeps what arrives until /online")
        case ("/online", 0):
            try await goOnline()
        case ("/status", 0):
            if let connection {
                say("socket: \(await connection.state), opened \(await connection.openedCount) times")
            } else {
                say("socket: offline")
            }
        case ("/whoami", 0):
            say("account \(device.accountId), device \(device.deviceId)")
        case ("/help", _):
            say(Self.help)
        default:
            say("unknown command or wrong arguments: \(command); /help lists them")
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
        say(event.line())
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
}
