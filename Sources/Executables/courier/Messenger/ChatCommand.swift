import CourierCore
import CourierHTTP
import Foundation
import Messenger
import SignalProtocol

/// `courier chat …`: a terminal messenger client. Each device keeps its state in a directory
/// (default `.courier/chat/<name>`) and its storage key in a 0600 file beside it (`<dir>.key`).
struct ChatCommand {
    /// The device's name (also the default directory's last component).
    var name: String
    /// The device's directory.
    var directory: String

    init(name: String, directory: String?) {
        self.name = name
        self.directory = directory ?? ".courier/chat/" + name
    }

    var keyFile: String { directory + ".key" }
    var settingsFile: String { directory + "/chat.json" }

    /// `courier chat register`: a new account and its first device.
    func register(server: String) async throws {
        let client = try await removingTheDeviceOnFailure {
            try await MessengerClient.register(configuration(server: server))
        }
        try saveSettings(server: server)
        say("registered \(name): account \(client.credentials.accountId), device \(client.credentials.deviceId)")
        say("state in \(directory), storage key in \(keyFile) (0600); give your account id to your contacts")
    }

    /// `courier chat provision`: a linking token, and the account's identity key pair in a 0600
    /// file that the user copies to the new device (the stand-in for Signal's provisioning QR code).
    func provision(identityFile: String?) async throws {
        let client = try open()
        let token = try await client.linkingToken()
        let file = identityFile ?? directory + "-identity.handover"
        let secret = await client.identityKeyPair().serialized()
        let bytes = secret.withUnsafeBytes { Data($0) }
        guard FileManager.default.createFile(atPath: file, contents: bytes, attributes: [.posixPermissions: 0o600])
        else { throw CommandError("cannot write \(file)") }
        say("linking token (valid 10 minutes): \(token)")
        say("the account's PRIVATE identity key is in \(file) (0600).")
        say("Copy it to the new device over a channel you trust (never by mail), then on that device run:")
        say("  courier chat link --server \(try settings().server) --name NEW-NAME --token \(token) --identity FILE")
    }

    /// `courier chat link`: a second device of an existing account.
    func link(server: String, token: String, identityFile: String) async throws {
        guard let data = FileManager.default.contents(atPath: identityFile) else {
            throw CommandError("cannot read \(identityFile)")
        }
        let identity = try IdentityKeyPair(serialized: SecretBytes(data))
        let client = try await removingTheDeviceOnFailure {
            try await MessengerClient.link(configuration(server: server), token: token, identity: identity)
        }
        try saveSettings(server: server)
        try? FileManager.default.removeItem(atPath: identityFile)
        say("linked \(name): account \(client.credentials.accountId), device \(client.credentials.deviceId)")
        say("removed \(identityFile): the identity key now lives only in the device's sealed store")
    }

    /// `courier chat` (or `courier chat run`): the interactive loop.
    func run() async throws {
        let device = ChatDevice(name: name, client: try open(), sockets: try WebSocketClient())
        defer { device.sockets.shutdown() }
        let contacts = try ChatContacts(directory: directory)
        try await ChatSession(device: device, downloads: directory + "/downloads", contacts: contacts).run(
            lines: StandardInputLines.stream())
    }

    /// Runs a registration; when it fails, removes the half-made device (its directory and key
    /// file) if they were not there before, so that the same command can be run again.
    private func removingTheDeviceOnFailure(_ work: () async throws -> MessengerClient) async throws
        -> MessengerClient
    {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: settingsFile) else {
            throw CommandError("\(directory) already holds a chat device")
        }
        let existed = (manager.fileExists(atPath: directory), manager.fileExists(atPath: keyFile))
        do {
            return try await work()
        } catch {
            if !existed.0 { try? manager.removeItem(atPath: directory) }
            if !existed.1 { try? manager.removeItem(atPath: keyFile) }
            throw error
        }
    }

    private func configuration(server: String) throws -> MessengerClientConfiguration {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return ChatDevice.configuration(server: server, directory: directory, keyFile: keyFile, name: name)
    }

    private func open() throws -> MessengerClient {
        try MessengerClient.open(configuration(server: try settings().server))
    }

    private func saveSettings(server: String) throws {
        let json = JSONWriter.encode(["server": .string(server), "name": .string(name)])
        try Data(json).write(to: URL(fileURLWithPath: settingsFile))
    }

    private func settings() throws -> (server: String, name: String) {
        guard let data = FileManager.default.contents(atPath: settingsFile),
            let json = try? JSONParser.parse(Array(data)), let server = json["server"]?.stringValue
        else {
            throw CommandError("no chat device in \(directory): run `courier chat register` or `courier chat link`")
        }
        return (server, json["name"]?.stringValue ?? name)
    }
}

/// Standard input's lines as an async stream, read on a thread of their own.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        Thread.detachNewThread {
            while let line = readLine() { sink.yield(line) }
            sink.finish()
        }
        return lines
    }
}
